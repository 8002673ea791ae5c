/** `work`, or a rejection with `expired()`'s error once `ms` have passed without it settling. */
export function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

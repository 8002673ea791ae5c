/**
 * The public subscribe form's limit (contract §8: 5 per IP per 10 minutes), per process: a sliding
 * window of the times each address posted.
 */
export class SubscribeLimiter {
  private readonly seen = new Map<string, number[]>();

  constructor(
    readonly max = 5,
    readonly windowMs = 10 * 60_000,
  ) {}

  /** Records an attempt at `now`; returns the seconds to wait when it is over the limit, else 0. */
  take(ip: string, now: number): number {
    const since = now - this.windowMs;
    const times = (this.seen.get(ip) ?? []).filter((t) => t > since);
    if (times.length >= this.max) {
      this.seen.set(ip, times);
      return Math.max(1, Math.ceil((times[0] + this.windowMs - now) / 1000));
    }
    times.push(now);
    this.seen.set(ip, times);
    if (this.seen.size > 10_000) this.prune(since);
    return 0;
  }

  private prune(since: number): void {
    for (const [ip, times] of this.seen) if (times[times.length - 1] <= since) this.seen.delete(ip);
  }
}

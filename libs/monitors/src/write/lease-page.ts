/** Monitors one full lease answer looks at: a runner holding more gets them over several calls, asked at once. */
export const LEASE_PAGE = 500;
/** The held monitors' configurations one lease answer carries, in characters of JSON (an API monitor's body alone may be 64 KB). */
export const LEASE_BYTES = 512 * 1024;

export interface LeasePage<D> {
  /** The documents the answer covers, in order: a prefix of those looked at. */
  taken: D[];
  /** True when the byte budget ended the page before the documents did. */
  cut: boolean;
}

/**
 * The prefix of `docs` one answer carries: every document whose configuration goes in (`sizeOf` gives its size;
 * null for one that goes in without, such as a released monitor) until the next would pass `budget`. The first
 * configuration always goes in, so a lease always moves on.
 */
export function takePage<D>(docs: readonly D[], sizeOf: (doc: D) => number | null, budget = LEASE_BYTES): LeasePage<D> {
  let bytes = 0;
  let carried = 0;
  for (let i = 0; i < docs.length; i++) {
    const size = sizeOf(docs[i]);
    if (size === null) continue;
    if (carried > 0 && bytes + size > budget) return { taken: docs.slice(0, i), cut: true };
    bytes += size;
    carried++;
  }
  return { taken: [...docs], cut: false };
}

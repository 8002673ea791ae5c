/** Sign-in attempts per key (an address, a client address) in a sliding window, per process. */
export class AttemptLimiter {
  private readonly seen = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** Records an attempt at `now`; returns the seconds to wait when over the limit, else 0. */
  take(key: string, now: number): number {
    const since = now - this.windowMs;
    const times = (this.seen.get(key) ?? []).filter((t) => t > since);
    if (times.length >= this.max) {
      this.seen.set(key, times);
      return Math.max(1, Math.ceil((times[0] + this.windowMs - now) / 1000));
    }
    times.push(now);
    this.seen.set(key, times);
    if (this.seen.size > 10_000) for (const [k, t] of this.seen) if (t[t.length - 1] <= since) this.seen.delete(k);
    return 0;
  }
}

/** Outcome of one take from a token bucket. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request is allowed (0 when allowed now). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (burst `capacity`, refilled at `perSecond`), in memory: each instance
 * enforces it for the pings it receives. Full buckets are forgotten, so memory follows activity.
 */
export class PingRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
  ) {}

  get enabled(): boolean {
    return this.capacity > 0 && this.perSecond > 0;
  }

  take(key: string, now: number): RateDecision {
    if (!this.enabled) return { allowed: true, limit: 0, remaining: 0, retryAfter: 0, reset: 0 };
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    const refilled = Math.min(this.capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.perSecond);
    const allowed = refilled >= 1;
    const tokens = allowed ? refilled - 1 : refilled;
    this.buckets.set(key, { tokens, at: now });
    return {
      allowed,
      limit: this.capacity,
      remaining: Math.floor(tokens),
      retryAfter: allowed ? 0 : Math.ceil((1 - tokens) / this.perSecond),
      reset: Math.ceil((this.capacity - tokens) / this.perSecond),
    };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const fullAfterMs = (this.capacity / this.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
  }
}

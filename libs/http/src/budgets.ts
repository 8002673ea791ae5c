import ipaddr from 'ipaddr.js';

export interface Taken {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed one-minute windows by name, at most `maxEntries` of them: ended windows go first, then the
 * oldest. Each class of client has its own instance, so one class can never push another's counters out.
 */
export class Budgets {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    private readonly maxEntries: number,
    private readonly windowMs = 60_000,
  ) {}

  has(name: string, now: number): boolean {
    const w = this.windows.get(name);
    return w !== undefined && w.resetAt > now;
  }

  take(name: string, now: number): Taken {
    let w = this.windows.get(name);
    if (!w || w.resetAt <= now) {
      if (w) this.windows.delete(name);
      else if (this.windows.size >= this.maxEntries) this.makeRoom(now);
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(name, w);
    }
    const ok = w.count < this.limit;
    if (ok) w.count += 1;
    return { ok, limit: this.limit, remaining: this.limit - w.count, resetSeconds: Math.max(1, Math.ceil((w.resetAt - now) / 1000)) };
  }

  /** Gives back one request taken in this window (it turned out to belong to another budget). */
  refund(name: string): void {
    const w = this.windows.get(name);
    if (w && w.count > 0) w.count -= 1;
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    for (const [name, w] of this.windows) if (w.resetAt <= now) this.windows.delete(name);
    // Insertion order: the first entry is the one idle longest among those still open.
    while (this.windows.size >= this.maxEntries) this.windows.delete(this.windows.keys().next().value as string);
  }
}

/** The name a client address is counted under: IPv4 as it is, IPv6 by its /64 (one host's usual allocation). */
export function addressBucket(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Whether an address is one of the trusted proxies (addresses or CIDR ranges). */
export function addressMatcher(entries: string[]): (ip: string | undefined) => boolean {
  const ranges = entries.map((entry) => (entry.includes('/') ? ipaddr.parseCIDR(entry) : ([ipaddr.parse(entry), ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number])));
  return (ip) => {
    if (!ip || ranges.length === 0 || !ipaddr.isValid(ip)) return false;
    const parsed = ipaddr.process(ip);
    return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  };
}

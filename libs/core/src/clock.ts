/** The only source of "now" for domain and application code. */
export interface Clock {
  now(): Date;
  /** Calls `listener` whenever the clock jumps (a clock moved by hand); returns the unsubscribe. */
  onMove?(listener: () => void): () => void;
}

export const CLOCK = Symbol('CLOCK');

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock moved by hand, for tests and for replaying history. */
export class ManualClock implements Clock {
  private current: number;
  private readonly listeners = new Set<() => void>();

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at).getTime();
    this.moved();
  }

  advance(ms: number): void {
    this.current += ms;
    this.moved();
  }

  onMove(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private moved(): void {
    for (const listener of this.listeners) listener();
  }
}

import { Clock } from '../../core/src/clock';

/**
 * A clock on which time runs `speed` times faster than the wall clock, from `start`: background work that
 * waits for clock time (a monitor's 10 s rounds) comes `speed` times sooner, while real waits stay real.
 */
export class FastClock implements Clock {
  private readonly realStart = Date.now();
  private readonly start: number;

  constructor(
    private readonly speed: number,
    start: Date = new Date(),
  ) {
    this.start = start.getTime();
  }

  now(): Date {
    return new Date(this.start + (Date.now() - this.realStart) * this.speed);
  }

  /** Time moves all the time: a listener (work asleep until a clock time) is told every 100 ms. */
  onMove(listener: () => void): () => void {
    const timer = setInterval(listener, 100);
    timer.unref();
    return () => clearInterval(timer);
  }
}

import { Clock } from './clock';
import { sleep } from './sleep';

export interface LoopOptions {
  name: string;
  /** One pass; returns the ms until the next one is due (null/undefined: `idleMs`). */
  pass: () => Promise<number | null | void>;
  /** The longest wait between passes: a safety poll for news that never came. */
  idleMs: number;
  firstMs?: number;
  logger: { error(fields: { err: unknown }, message: string): void };
  /** Due times are counted on it: a clock moved by hand (tests) wakes the loop CLOCK_WAKE_MS later, as a poll would. */
  clock?: Clock;
}

const CLOCK_WAKE_MS = 250;
/** The first retry after a failed pass; it doubles up to `idleMs`. */
const FIRST_RETRY_MS = 1000;

/**
 * The one shape of background work: a pass, then an abortable sleep until the next pass is due, the
 * safety poll or news (`wake`), whichever comes first. A failed pass is logged and retried with backoff.
 */
export class BackgroundLoop {
  private readonly stopping = new AbortController();
  private nap: AbortController | null = null;
  /** Real time by which news asks for the next pass. */
  private wakeBy: number | null = null;
  private running: Promise<void> | null = null;
  private unwatch: (() => void) | null = null;

  constructor(private readonly options: LoopOptions) {}

  start(): void {
    if (this.running || this.stopped) return;
    this.unwatch = this.options.clock?.onMove?.(() => this.wake(CLOCK_WAKE_MS)) ?? null;
    this.running = this.run();
  }

  /** Ends the sleep under way and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.nap?.abort();
    this.unwatch?.();
    await this.running;
  }

  /** News: the next pass runs within `withinMs`, or right after the pass under way. */
  wake(withinMs = 0): void {
    const by = Date.now() + withinMs;
    // A nap already ends by then: news in a burst (a runner's report) aborts it once, not once per event.
    if (this.wakeBy !== null && by >= this.wakeBy) return;
    this.wakeBy = by;
    this.nap?.abort();
  }

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    let failures = 0;
    await this.rest(Math.min(this.options.firstMs ?? 0, this.options.idleMs));
    while (!this.stopped) {
      let wait: number;
      try {
        wait = (await this.options.pass()) ?? this.options.idleMs;
        failures = 0;
      } catch (error) {
        this.options.logger.error({ err: error }, `${this.options.name} failed, retrying`);
        wait = FIRST_RETRY_MS * 2 ** failures++;
      }
      await this.rest(Math.max(0, Math.min(wait, this.options.idleMs)));
    }
  }

  private async rest(ms: number): Promise<void> {
    const until = Date.now() + ms;
    const left = () => Math.min(until, this.wakeBy ?? until) - Date.now();
    while (left() > 0 && !this.stopped) {
      this.nap = new AbortController();
      await sleep(left(), this.nap.signal);
    }
    this.nap = null;
    this.wakeBy = null;
  }
}

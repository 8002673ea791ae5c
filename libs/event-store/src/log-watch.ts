import { sleep } from '../../core/src/sleep';
import { AppendNotifier, EventStore } from './event-store.port';

/** How long a reader that saw nothing new waits before reading the log anyway (a subscription that stalled silently). */
export const WATCH_FALLBACK_MS = 10_000;
/** How long a failed subscription waits before it is opened again. */
const RESUBSCRIBE_MS = 1000;

/**
 * One subscription to the global log per process, kept open: readers that read the whole log (the
 * projection daemon, the processor runner) wait on it instead of polling, so an idle worker makes no
 * store call until another process appends. The readers still read pages with `readAll`; the
 * subscription only tells them how far the log goes.
 */
export class LogWatch {
  private seen: bigint | null = null;
  private readonly notifier = new AppendNotifier();
  private pump: Promise<void> | null = null;

  constructor(private readonly store: EventStore) {}

  /** Follows the log from its head (or `after`) until the signal aborts. */
  start(signal: AbortSignal, after?: bigint | null): void {
    if (this.pump) return;
    this.seen = after ?? null;
    this.pump = this.follow(signal);
  }

  /** The newest position the subscription delivered, or null before any. */
  get head(): bigint | null {
    return this.seen;
  }

  /** Resolves once the log is known to go past `position`, when the signal aborts, or after `timeoutMs`. */
  async waitPast(position: bigint | null, signal: AbortSignal, timeoutMs = WATCH_FALLBACK_MS): Promise<void> {
    if (this.seen !== null && (position === null || this.seen > position)) return;
    await this.notifier.wait(signal, timeoutMs);
  }

  /** Resolves when the subscription has ended (after the signal aborted). */
  async stopped(): Promise<void> {
    await this.pump;
  }

  private async follow(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        for await (const event of this.store.subscribeToAll({ after: this.seen ?? undefined, signal })) {
          this.seen = event.position;
          this.notifier.notify();
        }
      } catch {
        // Readers wake and read once, so a lost subscription costs latency, never events.
        this.notifier.notify();
      }
      await sleep(RESUBSCRIBE_MS, signal);
    }
    this.notifier.notify();
  }
}

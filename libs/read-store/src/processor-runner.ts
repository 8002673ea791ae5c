import { DomainEvent, handledEvent, RecordedEvent } from '../../core/src/event';
import { Processor } from '../../core/src/processor';
import { EventStore } from '../../event-store/src/event-store.port';
import { LogWatch, WATCH_FALLBACK_MS } from '../../event-store/src/log-watch';
import { sleep } from '../../core/src/sleep';
import { ReadStore } from './read-store.port';

interface ProcessorLogger {
  error(message: string, fields?: Record<string, unknown>): void;
}

const PAGE = 500;
const CHECKPOINT_PREFIX = 'processor:';
/** A processor's checkpoint is stored at most this often while it keeps up (each store is a commit), and on failure and stop. */
const STORE_EVERY_MS = 1000;
/** How long a failing processor waits before it is handed the same event again. */
const RETRY_MS = 1000;

/**
 * Drives every registered Processor from the event log: reads a page after its stored checkpoint and
 * hands over the events it handles one at a time, in order.
 */
export class ProcessorRunner {
  private readonly processors: Processor[] = [];
  private readonly retryAt = new Map<string, number>();
  /** Per processor, where it stands (ahead of the stored checkpoint by at most STORE_EVERY_MS) and when that was last stored. */
  private readonly cursors = new Map<string, { position: bigint | null; storedAt: number }>();
  /** The newest log position a pass has read up to. */
  private readUpTo: bigint | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly logger: ProcessorLogger,
    private readonly now: () => number = Date.now,
  ) {}

  register(processor: Processor): void {
    if (this.processors.some((p) => p.name === processor.name)) throw new Error(`Processor ${processor.name} registered twice`);
    this.processors.push(processor);
  }

  get registered(): readonly Processor[] {
    return this.processors;
  }

  /** Gives processors that start at the head their first checkpoint; call once at start, before any append. */
  async start(): Promise<void> {
    for (const processor of this.processors) {
      if (processor.startAt !== 'head' || (await this.store.getCheckpoint(this.key(processor))) !== null) continue;
      await this.store.setCheckpoint(this.key(processor), (await this.events.headPosition()) ?? 0n);
    }
  }

  /** One pass over every processor; returns how many events were read. */
  async step(): Promise<number> {
    let read = 0;
    // Processors usually stand at the same checkpoint: one pass reads each page of the log once.
    const pages = new Map<bigint | null, RecordedEvent[]>();
    for (const processor of this.processors) {
      if ((this.retryAt.get(processor.name) ?? 0) > this.now()) continue;
      read += await this.stepOne(processor, pages);
    }
    return read;
  }

  /** Passes until every processor has read the whole log (or one fails); for shutdown and tests. */
  async drain(): Promise<void> {
    while ((await this.step()) > 0);
    await this.storeCursors();
  }

  /**
   * Tails the log until the signal aborts. With a `watch` an idle pass waits until the log moves (or a
   * failed processor's retry is due) instead of polling every `idleMs`.
   */
  async run(signal: AbortSignal, idleMs = 200, watch?: LogWatch): Promise<void> {
    while (!signal.aborted) {
      const read = await this.step();
      if (read > 0) continue;
      if (!watch) {
        await sleep(idleMs, signal);
        continue;
      }
      const retries = [...this.retryAt.values()];
      const timeout = retries.length > 0 ? Math.max(0, Math.min(...retries) - this.now()) : WATCH_FALLBACK_MS;
      await watch.waitPast(this.readUpTo, signal, Math.min(timeout, WATCH_FALLBACK_MS));
    }
    await this.storeCursors();
  }

  private async storeCursors(): Promise<void> {
    for (const processor of this.processors) await this.storeCursor(processor);
  }

  private async storeCursor(processor: Processor): Promise<void> {
    const cursor = this.cursors.get(processor.name);
    if (!cursor || cursor.position === null) return;
    await this.store.setCheckpoint(this.key(processor), cursor.position);
    cursor.storedAt = this.now();
  }

  /** A crash repeats what was handled since the checkpoint was last stored (at most ~STORE_EVERY_MS), which `handle` tolerates. */
  private async stepOne<E extends DomainEvent>(processor: Processor<E>, pages: Map<bigint | null, RecordedEvent[]>): Promise<number> {
    let page: RecordedEvent[] = [];
    let cursor = this.cursors.get(processor.name);
    try {
      if (!cursor) {
        cursor = { position: await this.store.getCheckpoint(this.key(processor)), storedAt: this.now() };
        this.cursors.set(processor.name, cursor);
      }
      const after = cursor.position;
      page = pages.get(after) ?? (await this.events.readAll({ after: after ?? undefined, maxCount: PAGE }));
      pages.set(after, page);
      const reached = page.length > 0 ? page[page.length - 1].position : after;
      if (reached !== null && (this.readUpTo === null || reached > this.readUpTo)) this.readUpTo = reached;
      for (const event of page) {
        const handled = handledEvent(processor.handles, event);
        if (handled) {
          await processor.handle(handled);
          // An embedded store answers at once: without a turn of the event loop between events, a page
          // (500 FAILINGs, an fsync each) would hold up the watchdog's appends and every request.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        cursor.position = event.position;
      }
      if (page.length > 0 && this.now() - cursor.storedAt >= STORE_EVERY_MS) await this.storeCursor(processor);
      this.retryAt.delete(processor.name);
    } catch (error) {
      await this.storeCursor(processor).catch(() => undefined);
      this.logger.error('processor failed, retrying', { processor: processor.name, error: String(error) });
      this.retryAt.set(processor.name, this.now() + RETRY_MS);
    }
    return page.length;
  }

  private key(processor: Pick<Processor, 'name'>): string {
    return CHECKPOINT_PREFIX + processor.name;
  }
}

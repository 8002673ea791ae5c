import { DomainEvent, handledEvent, RecordedEvent } from '../../core/src/event';
import { Processor } from '../../core/src/processor';
import { EventStore } from '../../event-store/src/event-store.port';
import { sleep } from './projection-engine';
import { ReadStore } from './read-store.port';

export interface ProcessorLogger {
  error(message: string, fields?: Record<string, unknown>): void;
}

const PAGE = 500;
const CHECKPOINT_PREFIX = 'processor:';
/** How long a failing processor waits before it is handed the same event again. */
const RETRY_MS = 1000;

/**
 * Drives every registered Processor from the event log: reads a page after its stored checkpoint and
 * hands over the events it handles one at a time, in order.
 */
export class ProcessorRunner {
  private readonly processors: Processor[] = [];
  private readonly retryAt = new Map<string, number>();

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
  }

  /** Tails the log until the signal aborts. */
  async run(signal: AbortSignal, idleMs = 200): Promise<void> {
    while (!signal.aborted) {
      const read = await this.step();
      if (read === 0) await sleep(idleMs, signal);
    }
  }

  /** The checkpoint is stored once per page, or before the event that failed: a crash repeats at most a page, which `handle` tolerates. */
  private async stepOne<E extends DomainEvent>(processor: Processor<E>, pages: Map<bigint | null, RecordedEvent[]>): Promise<number> {
    const key = this.key(processor);
    let page: RecordedEvent[] = [];
    let done: bigint | null = null;
    try {
      const checkpoint = await this.store.getCheckpoint(key);
      page = pages.get(checkpoint) ?? (await this.events.readAll({ after: checkpoint ?? undefined, maxCount: PAGE }));
      pages.set(checkpoint, page);
      for (const event of page) {
        const handled = handledEvent(processor.handles, event);
        if (handled) {
          await processor.handle(handled);
          // An embedded store answers at once: without a turn of the event loop between events, a page
          // (500 FAILINGs, an fsync each) would hold up the watchdog's appends and every request.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        done = event.position;
      }
      if (done !== null) await this.store.setCheckpoint(key, done);
      this.retryAt.delete(processor.name);
    } catch (error) {
      if (done !== null) await this.store.setCheckpoint(key, done).catch(() => undefined);
      this.logger.error('processor failed, retrying', { processor: processor.name, error: String(error) });
      this.retryAt.set(processor.name, this.now() + RETRY_MS);
    }
    return page.length;
  }

  private key(processor: Pick<Processor, 'name'>): string {
    return CHECKPOINT_PREFIX + processor.name;
  }
}

import { StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { AppendNotifier, AppendOptions, AppendResult, checkExpectedRevision, EventStore, ReadAllOptions, ReadStreamOptions, SubscribeOptions } from './event-store.port';

const DEFAULT_READ_ALL_COUNT = 1000;
const SUBSCRIPTION_PAGE_SIZE = 500;

/** Data and metadata are kept as JSON text so callers get what a real store would give back. */
interface StoredEvent {
  stream: string;
  revision: bigint;
  position: bigint;
  type: string;
  data: string;
  metadata: string;
}

/** The event store for tests: same semantics as the SQLite adapter, nothing durable. */
export class InMemoryEventStore implements EventStore {
  /** The global log in position order; pruning removes entries, so positions may have gaps. */
  private log: StoredEvent[] = [];
  /** Current revision per stream, kept after pruning so revisions continue. */
  private readonly revisions = new Map<string, bigint>();
  private lastPosition = 0n;
  private readonly notifier = new AppendNotifier();
  private closed = false;

  async appendToStream(stream: string, events: EventToAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    if (this.closed) throw new StoreUnavailableError('The event store is closed');
    const current = this.revisions.get(stream) ?? null;
    checkExpectedRevision(stream, options.expectedRevision ?? 'any', current);
    if (events.length === 0) {
      return { nextRevision: current ?? -1n, position: this.lastStoredPosition() ?? 0n, events: [] };
    }

    // Serialize first: an event that cannot be stored must not use up revisions or positions.
    const serialized = events.map((event) => ({
      type: event.type,
      data: JSON.stringify(event.data),
      metadata: JSON.stringify(event.metadata),
    }));
    let revision = current ?? -1n;
    const stored = serialized.map((event): StoredEvent => {
      revision += 1n;
      this.lastPosition += 1n;
      return { stream, revision, position: this.lastPosition, ...event };
    });
    this.log.push(...stored);
    this.revisions.set(stream, revision);
    this.notifier.notify();
    return { nextRevision: revision, position: this.lastPosition, events: stored.map(toRecorded) };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision;
    const events = this.log.filter((e) => e.stream === stream && (from === undefined || (backwards ? e.revision <= from : e.revision >= from)));
    if (backwards) events.reverse();
    return events.slice(0, options.maxCount ?? events.length).map(toRecorded);
  }

  async streamRevision(stream: string): Promise<bigint | null> {
    return this.revisions.get(stream) ?? null;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.page(options.after ?? 0n, options.maxCount ?? DEFAULT_READ_ALL_COUNT);
  }

  async headPosition(): Promise<bigint | null> {
    return this.lastStoredPosition();
  }

  async *subscribeToAll({ after, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    let cursor = after ?? 0n;
    while (!signal.aborted && !this.closed) {
      const page = this.page(cursor, SUBSCRIPTION_PAGE_SIZE);
      // The wait starts in the same tick as the empty read, so no append can slip in between.
      if (page.length === 0) await this.notifier.wait(signal);
      for (const event of page) {
        yield event;
        cursor = event.position;
        if (signal.aborted) return;
      }
    }
  }

  async pruneStream(stream: string, before: Date): Promise<number> {
    const cutoff = before.getTime();
    const kept = this.log.filter(
      (event) => event.stream !== stream || !(Date.parse(JSON.parse(event.metadata).occurredAt) < cutoff),
    );
    const pruned = this.log.length - kept.length;
    this.log = kept;
    return pruned;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.notifier.notify();
  }

  private page(after: bigint, maxCount: number): RecordedEvent[] {
    const start = this.log.findIndex((event) => event.position > after);
    if (start === -1) return [];
    return this.log.slice(start, start + Math.max(0, maxCount)).map(toRecorded);
  }

  private lastStoredPosition(): bigint | null {
    return this.log.at(-1)?.position ?? null;
  }
}

function toRecorded(event: StoredEvent): RecordedEvent {
  return { ...event, data: JSON.parse(event.data), metadata: JSON.parse(event.metadata) };
}

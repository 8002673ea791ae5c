import { ConcurrencyError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';

/**
 * What a writer expects of a stream before appending: an exact revision (the first event is
 * revision 0), that the stream does not exist yet, that it does, or nothing at all.
 */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export interface AppendOptions {
  expectedRevision?: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event written. */
  nextRevision: bigint;
  /** Global position of the last event written. */
  position: bigint;
  /**
   * The events as stored, in order; their positions never decrease and the last one's is `position`. A store
   * that reports one position per append (EventStoreDB) gives the earlier events of it that one too: a
   * later read returns each event's own, at or before it (cursors come from reads).
   */
  events: RecordedEvent[];
}

export interface ReadAllOptions {
  /** Exclusive: only events with a greater position. Omitted means from the start. */
  after?: bigint;
  /** Upper bound on how many events one call returns (adapters may return fewer). */
  maxCount?: number;
}

export interface ReadStreamOptions {
  /** Inclusive; forwards the default is 0, backwards the stream's end. */
  fromRevision?: bigint;
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface SubscribeOptions {
  after?: bigint;
  signal: AbortSignal;
}

export interface EventStore {
  /**
   * Appends atomically. Throws ConcurrencyError when `expectedRevision` (default `any`) does not hold.
   * Resolves only once the events are durable.
   */
  appendToStream(stream: string, events: EventToAppend[], options?: AppendOptions): Promise<AppendResult>;

  /** Events of one stream in revision order (or reverse order); an empty array when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;

  /** Current revision of a stream, or null when it does not exist. */
  streamRevision(stream: string): Promise<bigint | null>;

  /** One page of the global log in position order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;

  /** Position of the newest event in the global log, or null when the log is empty. */
  headPosition(): Promise<bigint | null>;

  /** Tails the global log from `after`, live, until the signal aborts. */
  subscribeToAll(options: SubscribeOptions): AsyncIterable<RecordedEvent>;

  /** Deletes events of the stream older than `before` (by metadata.occurredAt); revisions are kept. */
  pruneStream?(stream: string, before: Date): Promise<number>;

  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

/** Throws the port's ConcurrencyError unless `expected` holds for a stream at `current` (null: no stream). */
export function checkExpectedRevision(stream: string, expected: ExpectedRevision, current: bigint | null): void {
  const holds =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    expected === current;
  if (!holds) throw new ConcurrencyError(stream, String(expected), current === null ? 'no_stream' : String(current));
}

/** Wakes the subscriptions of one store instance when that instance commits new events. */
export class AppendNotifier {
  private readonly waiting = new Set<() => void>();

  /** Resolves on the next `notify()`, when the signal aborts, or after `timeoutMs` when given. */
  wait(signal: AbortSignal, timeoutMs?: number): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(wake, timeoutMs);
      this.waiting.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  notify(): void {
    for (const wake of [...this.waiting]) wake();
  }
}

import type * as Esdb from '@eventstore/db-client';
import { EventData, EventMetadata, EventToAppend, RecordedEvent } from '../../core/src/event';
import {
  checkExpectedRevision,
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  SubscribeOptions,
  ReadStreamOptions,
} from './event-store.port';
import { EsdbConnection, EsdbModule } from './eventstoredb-connection';

const DEFAULT_READ_ALL_COUNT = 1000;
const DEFAULT_DEADLINE_MS = 5_000;
const HEAD_SCAN_PAGE_SIZE = 100;
/** What servers before 22.10 report as the position of an event read from its stream. */
const NO_POSITION = 2n ** 64n - 1n;

type EsdbRecordedEvent = Esdb.AllStreamRecordedEvent | NonNullable<Esdb.ResolvedEvent['event']>;

interface EventStoreDbOptions {
  /** Deadline of every call but subscriptions (which are open-ended), in milliseconds. Default 5,000. */
  deadlineMs?: number;
}

/**
 * The official client (6.x) parses `esdb://` and `esdb+discover://` only; KurrentDB's schemes name the
 * same connection string, so they are renamed, and the client parses the rest (hosts, seed lists, options).
 */
function toEsdbConnectionString(url: string): string {
  return url.trim().replace(/^(?:kurrentdb|kurrent|kdb)(\+discover)?:\/\//i, (_, discover: string | undefined) => `esdb${discover ? '+discover' : ''}://`);
}

/** Throws the client's own parse error when the connection string is not one it accepts; connects to nothing. */
export function checkEsdbConnectionString(url: string): void {
  const esdb = require('@eventstore/db-client') as EsdbModule;
  esdb.EventStoreDBClient.connectionString(toEsdbConnectionString(url));
}

/**
 * The production event store on EventStoreDB / KurrentDB (22.10 or later: stream reads must carry
 * positions). Position is the commit position, which is unique per event for ordinary appends. Every
 * call but subscriptions runs under the connection's deadline (see EsdbConnection).
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly esdb: EsdbModule;
  private readonly deadline: number;
  private readonly connection: EsdbConnection;

  constructor(connectionString: string, options: EventStoreDbOptions = {}) {
    // Loaded here so the gRPC client is only required when EventStoreDB is configured.
    this.esdb = require('@eventstore/db-client') as EsdbModule;
    this.deadline = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.connection = new EsdbConnection(this.esdb, toEsdbConnectionString(connectionString), this.deadline);
  }

  async appendToStream(stream: string, events: EventToAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    if (events.length === 0) return this.appendNothing(stream, expected);

    const written = await this.connection.call(
      (client) =>
        client.appendToStream(
          stream,
          // Event data is a plain JSON object (deciders write nothing else); the client's type wants a record.
          events.map((event) => this.esdb.jsonEvent({ type: event.type, data: event.data as EventData, metadata: event.metadata })),
          { expectedRevision: this.toClientRevision(expected), deadline: this.deadline },
        ),
      { stream, expected },
    );
    if (!written.position) throw new Error(`EventStoreDB returned no position for the append to ${stream}`);

    const firstRevision = written.nextExpectedRevision - BigInt(events.length) + 1n;
    // The append reports one position, the last event's: earlier events of it carry that one too (as the port allows), not a read back.
    const position = written.position.commit;
    const recorded = events.map(
      (event, index): RecordedEvent => ({
        stream,
        revision: firstRevision + BigInt(index),
        position,
        type: event.type,
        // A JSON round trip, so the caller sees what a later read returns.
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: JSON.parse(JSON.stringify(event.metadata)),
      }),
    );
    return { nextRevision: written.nextExpectedRevision, position: written.position.commit, events: recorded };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    const backwards = options.direction === 'backwards';
    const found = await this.connection.consume(
      (client) =>
        client.readStream(stream, {
          direction: backwards ? this.esdb.BACKWARDS : this.esdb.FORWARDS,
          fromRevision: options.fromRevision ?? (backwards ? this.esdb.END : this.esdb.START),
          ...(options.maxCount !== undefined && { maxCount: options.maxCount }),
          deadline: this.deadline,
        }),
      (resolved) => {
        if (resolved.event) events.push(toRecorded(resolved.event));
      },
    );
    return found ? events : [];
  }

  /** Note: once `$maxAge` or a truncation has hidden every event of a stream, the stream reads as absent. */
  async streamRevision(stream: string): Promise<bigint | null> {
    let revision: bigint | null = null;
    await this.connection.consume(
      (client) =>
        client.readStream(stream, {
          direction: this.esdb.BACKWARDS,
          fromRevision: this.esdb.END,
          maxCount: 1,
          deadline: this.deadline,
        }),
      (resolved) => {
        if (!resolved.event) return true;
        revision = resolved.event.revision;
        return false;
      },
    );
    return revision;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = Math.max(0, options.maxCount ?? DEFAULT_READ_ALL_COUNT);
    const events: RecordedEvent[] = [];
    let cursor = options.after;
    // System events are filtered here (reads of $all take no server-side filter), so keep reading
    // until the page is full or the log ends: a page must only come back short at the end.
    while (events.length < maxCount) {
      let seen = 0;
      await this.connection.consume(
        (client) =>
          client.readAll({
            // Reads start at and include the given position; the `> cursor` test below skips it.
            fromPosition: cursor === undefined ? this.esdb.START : { commit: cursor, prepare: cursor },
            maxCount: maxCount + 1,
            deadline: this.deadline,
          }),
        ({ event }) => {
          seen += 1;
          if (!event || (cursor !== undefined && event.position.commit <= cursor)) return true;
          cursor = event.position.commit;
          if (isUserEvent(event)) events.push(toRecorded(event));
          return events.length < maxCount;
        },
      );
      if (seen < maxCount + 1) break;
    }
    return events;
  }

  async headPosition(): Promise<bigint | null> {
    let from: Esdb.ReadPosition = this.esdb.END;
    // The newest event is nearly always a user event: a first page of one ends on the server's side,
    // with no cancellation (servers limit how fast a client may reset streams).
    let pageSize = 1;
    for (;; pageSize = HEAD_SCAN_PAGE_SIZE) {
      let seen = 0;
      let head: bigint | null = null;
      await this.connection.consume(
        (client) =>
          client.readAll({
            direction: this.esdb.BACKWARDS,
            fromPosition: from,
            maxCount: pageSize,
            deadline: this.deadline,
          }),
        ({ event }) => {
          seen += 1;
          if (!event) return true;
          if (isUserEvent(event)) {
            head = event.position.commit;
            return false;
          }
          from = event.position;
          return true;
        },
      );
      if (head !== null) return head;
      if (seen < pageSize) return null;
    }
  }

  async *subscribeToAll({ after, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    if (signal.aborted) return;
    const subscription = (await this.connection.current()).subscribeToAll({
      fromPosition: after === undefined ? this.esdb.START : { commit: after, prepare: after },
      filter: this.esdb.excludeSystemEvents(),
    });
    const stop = (): void => void subscription.unsubscribe().catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const { event } of subscription) {
        if (signal.aborted) return;
        // Guards the exclusive start whatever the server does with the boundary event.
        if (!event || (after !== undefined && event.position.commit <= after)) continue;
        yield toRecorded(event);
      }
    } catch (error) {
      if (signal.aborted) return;
      throw this.connection.toStoreError(error);
    } finally {
      signal.removeEventListener('abort', stop);
      await subscription.unsubscribe().catch(() => undefined);
    }
  }

  /**
   * Deletes by truncation: sets the stream's `$tb` (truncate before) to the first event that occurred at
   * or after `before`, keeping its other metadata. Stream reads stop returning older events at once; `$all`
   * reads return them until the next scavenge removes them from disk (docs/operations.md). The newest
   * event always stays: the client cannot read the revision of a stream truncated whole, and the revision
   * must survive. Reads only the events it deletes plus one.
   */
  async pruneStream(stream: string, before: Date): Promise<number> {
    const cutoff = before.getTime();
    const metadata = await this.connection.call((client) => client.getStreamMetadata(stream, { deadline: this.deadline }));
    const truncatedBefore = BigInt(typeof metadata.metadata?.truncateBefore === 'number' ? metadata.metadata.truncateBefore : 0);
    let keepFrom: bigint | null = null;
    let last: bigint | null = null;
    await this.connection.consume(
      (client) => client.readStream(stream, { fromRevision: truncatedBefore, deadline: this.deadline }),
      ({ event }) => {
        if (!event) return true;
        last = event.revision;
        const occurredAt = Date.parse(String((event.metadata as Partial<EventMetadata> | undefined)?.occurredAt ?? ''));
        if (Number.isNaN(occurredAt) || occurredAt >= cutoff) {
          keepFrom = event.revision;
          return false;
        }
        return true;
      },
    );
    const lastSeen = last as bigint | null;
    if (lastSeen === null) return 0;
    const truncateBefore: bigint = keepFrom ?? lastSeen;
    const firstVisible = (await this.firstRevision(stream)) ?? truncatedBefore;
    if (truncateBefore <= firstVisible) return 0;
    await this.connection.call((client) =>
      client.setStreamMetadata(stream, { ...metadata.metadata, truncateBefore: Number(truncateBefore) }, { deadline: this.deadline }),
    );
    return Number(truncateBefore - firstVisible);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** EventStoreDB's answer to an empty append: check the expectation, write nothing. */
  private async appendNothing(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const current = await this.streamRevision(stream);
    checkExpectedRevision(stream, expected, current);
    return { nextRevision: current ?? -1n, position: (await this.headPosition()) ?? 0n, events: [] };
  }

  /** Revision of the oldest event a stream read still returns, or null when none does. */
  private async firstRevision(stream: string): Promise<bigint | null> {
    let first: bigint | null = null;
    await this.connection.consume(
      (client) => client.readStream(stream, { fromRevision: this.esdb.START, maxCount: 1, deadline: this.deadline }),
      ({ event }) => {
        if (event) first = event.revision;
        return false;
      },
    );
    return first;
  }

  private toClientRevision(expected: ExpectedRevision): Esdb.AppendExpectedRevision {
    switch (expected) {
      case 'any':
        return this.esdb.ANY;
      case 'no_stream':
        return this.esdb.NO_STREAM;
      case 'stream_exists':
        return this.esdb.STREAM_EXISTS;
      default:
        return expected;
    }
  }
}

function isUserEvent(event: EsdbRecordedEvent): boolean {
  return !event.type.startsWith('$') && !event.streamId.startsWith('$');
}

function positionOf(event: EsdbRecordedEvent): bigint {
  const commit = event.position?.commit;
  if (commit === undefined || commit === NO_POSITION) {
    throw new Error('EventStoreDB reported no event position; Vigil needs server version 22.10 or later');
  }
  return commit;
}

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  return {
    stream: event.streamId,
    revision: event.revision,
    position: positionOf(event),
    type: event.type,
    data: event.data as RecordedEvent['data'],
    metadata: event.metadata as EventMetadata,
  };
}

import type * as Esdb from '@eventstore/db-client';
import { ConcurrencyError, StoreUnavailableError } from '../../core/src/errors';
import { EventMetadata, EventToAppend, RecordedEvent } from '../../core/src/event';
import {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  SubscribeOptions,
  ReadStreamOptions,
} from './event-store.port';
import { checkExpectedRevision } from './expected-revision';

const DEFAULT_READ_ALL_COUNT = 1000;
const DEFAULT_DEADLINE_MS = 10_000;
const HEAD_SCAN_PAGE_SIZE = 100;
/** What servers before 22.10 report as the position of an event read from its stream. */
const NO_POSITION = 2n ** 64n - 1n;

type EsdbModule = typeof Esdb;
type EsdbRecordedEvent = Esdb.AllStreamRecordedEvent | NonNullable<Esdb.ResolvedEvent['event']>;

export interface EventStoreDbOptions {
  /** Deadline of every unary and read call in milliseconds; subscriptions are open-ended. */
  deadlineMs?: number;
}

/**
 * The production event store on EventStoreDB / KurrentDB (22.10 or later: stream reads must carry
 * positions). Position is the commit position, which is unique per event for ordinary appends.
 * Retention is the server's: `setMaxAge` sets the stream's `$maxAge`, so `pruneStream` does nothing.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly esdb: EsdbModule;
  private readonly client: Esdb.EventStoreDBClient;
  private readonly deadline: number;

  constructor(connectionString: string, options: EventStoreDbOptions = {}) {
    // Loaded here so the gRPC client is only required when EventStoreDB is configured.
    this.esdb = require('@eventstore/db-client') as EsdbModule;
    this.client = this.esdb.EventStoreDBClient.connectionString(connectionString);
    this.deadline = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  }

  async appendToStream(stream: string, events: EventToAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    if (events.length === 0) return this.appendNothing(stream, expected);

    let written: Esdb.AppendResult;
    try {
      written = await this.client.appendToStream(
        stream,
        events.map((event) => this.esdb.jsonEvent({ type: event.type, data: event.data, metadata: event.metadata })),
        { expectedRevision: this.toClientRevision(expected), deadline: this.deadline },
      );
    } catch (error) {
      throw this.toStoreError(error, stream, expected);
    }
    if (!written.position) throw new Error(`EventStoreDB returned no position for the append to ${stream}`);

    const firstRevision = written.nextExpectedRevision - BigInt(events.length) + 1n;
    // The append reports the last event's position only; earlier ones are read back.
    const positions =
      events.length === 1
        ? [written.position.commit]
        : await this.positionsOf(stream, firstRevision, events.length, written.position.commit);
    const recorded = events.map(
      (event, index): RecordedEvent => ({
        stream,
        revision: firstRevision + BigInt(index),
        position: positions[index],
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
    try {
      const read = this.client.readStream(stream, {
        direction: backwards ? this.esdb.BACKWARDS : this.esdb.FORWARDS,
        fromRevision: options.fromRevision ?? (backwards ? this.esdb.END : this.esdb.START),
        ...(options.maxCount !== undefined && { maxCount: options.maxCount }),
        deadline: this.deadline,
      });
      for await (const resolved of read) {
        if (resolved.event) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof this.esdb.StreamNotFoundError) return [];
      throw this.toStoreError(error);
    }
    return events;
  }

  /** Note: once `$maxAge` has expired every event of a stream, the stream reads as absent. */
  async streamRevision(stream: string): Promise<bigint | null> {
    try {
      const read = this.client.readStream(stream, {
        direction: this.esdb.BACKWARDS,
        fromRevision: this.esdb.END,
        maxCount: 1,
        deadline: this.deadline,
      });
      for await (const resolved of read) {
        if (resolved.event) return resolved.event.revision;
      }
      return null;
    } catch (error) {
      if (error instanceof this.esdb.StreamNotFoundError) return null;
      throw this.toStoreError(error);
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = Math.max(0, options.maxCount ?? DEFAULT_READ_ALL_COUNT);
    const events: RecordedEvent[] = [];
    let cursor = options.after;
    // System events are filtered here (reads of $all take no server-side filter), so keep reading
    // until the page is full or the log ends: a page must only come back short at the end.
    while (events.length < maxCount) {
      let seen = 0;
      try {
        const read = this.client.readAll({
          // Reads start at and include the given position; the `> cursor` test below skips it.
          fromPosition: cursor === undefined ? this.esdb.START : { commit: cursor, prepare: cursor },
          maxCount: maxCount + 1,
          deadline: this.deadline,
        });
        for await (const { event } of read) {
          seen += 1;
          if (!event || (cursor !== undefined && event.position.commit <= cursor)) continue;
          cursor = event.position.commit;
          if (isUserEvent(event)) events.push(toRecorded(event));
          if (events.length === maxCount) break;
        }
      } catch (error) {
        throw this.toStoreError(error);
      }
      if (seen < maxCount + 1) break;
    }
    return events;
  }

  async headPosition(): Promise<bigint | null> {
    let from: Esdb.ReadPosition = this.esdb.END;
    for (;;) {
      let seen = 0;
      try {
        const read = this.client.readAll({
          direction: this.esdb.BACKWARDS,
          fromPosition: from,
          maxCount: HEAD_SCAN_PAGE_SIZE,
          deadline: this.deadline,
        });
        for await (const { event } of read) {
          seen += 1;
          if (!event) continue;
          if (isUserEvent(event)) return event.position.commit;
          from = event.position;
        }
      } catch (error) {
        throw this.toStoreError(error);
      }
      if (seen < HEAD_SCAN_PAGE_SIZE) return null;
    }
  }

  async *subscribeToAll({ after, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    if (signal.aborted) return;
    const subscription = this.client.subscribeToAll({
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
      throw this.toStoreError(error);
    } finally {
      signal.removeEventListener('abort', stop);
      await subscription.unsubscribe().catch(() => undefined);
    }
  }

  /** EventStoreDB expires old events itself: see `setMaxAge`. Always returns 0. */
  async pruneStream(): Promise<number> {
    return 0;
  }

  /** Sets the stream's `$maxAge`, keeping its other metadata; the server then hides and scavenges older events. */
  async setMaxAge(stream: string, seconds: number): Promise<void> {
    try {
      const { metadata } = await this.client.getStreamMetadata(stream, { deadline: this.deadline });
      await this.client.setStreamMetadata(stream, { ...metadata, maxAge: seconds }, { deadline: this.deadline });
    } catch (error) {
      throw this.toStoreError(error);
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  /** EventStoreDB's answer to an empty append: check the expectation, write nothing. */
  private async appendNothing(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const current = await this.streamRevision(stream);
    checkExpectedRevision(stream, expected, current);
    return { nextRevision: current ?? -1n, position: (await this.headPosition()) ?? 0n, events: [] };
  }

  private async positionsOf(stream: string, fromRevision: bigint, count: number, last: bigint): Promise<bigint[]> {
    const positions: bigint[] = [];
    try {
      const read = this.client.readStream(stream, { fromRevision, maxCount: count, deadline: this.deadline });
      for await (const { event } of read) {
        if (event) positions.push(positionOf(event));
      }
    } catch (error) {
      throw this.toStoreError(error);
    }
    // Expired by $maxAge before we could read them back: the append's own position is the best we know.
    return positions.length === count ? positions : Array.from({ length: count }, () => last);
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

  private toStoreError(raw: unknown, stream?: string, expected?: ExpectedRevision): unknown {
    const esdb = this.esdb;
    // Some paths (batch append) reject with the bare gRPC error; the client knows how to type it.
    const error = raw instanceof Error ? esdb.convertToCommandError(raw) : raw;
    if (error instanceof esdb.WrongExpectedVersionError && stream !== undefined && expected !== undefined) {
      return new ConcurrencyError(stream, String(expected), String(error.actualVersion));
    }
    if (
      error instanceof esdb.UnavailableError ||
      error instanceof esdb.DeadlineExceededError ||
      error instanceof esdb.TimeoutError ||
      error instanceof esdb.NotLeaderError
    ) {
      return new StoreUnavailableError('EventStoreDB is unavailable', error);
    }
    return error;
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

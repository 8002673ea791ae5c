import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { RecordedEvent } from '../../../core/src/event';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { heartbeatStream, Occurrence, occurrenceOf } from '../domain/heartbeat-timer';
import { bucketStart, DAY_MS, Granularity, HOUR_MS, MINUTE_MS, rollupId, timestampOfEventId } from './heartbeat-keys';
import { RollupDoc } from './heartbeat-rollups.projection';
import { TimeWindow } from './heartbeat-window';

export interface HeartbeatEventView {
  id: string;
  state: string;
  timestamp: string;
  source: string | null;
  userAgent: string | null;
}

export interface Availability {
  successRatio: { previousPeriod?: number; currentPeriod?: number };
  totalEntitiesCurrentPeriod: number;
}

export interface Counts {
  total: number;
  failing: number;
}

const ZERO: Counts = { total: 0, failing: 0 };
const add = (a: Counts, b: Counts): Counts => ({ total: a.total + b.total, failing: a.failing + b.failing });
const ratio = (c: Counts) => Math.round(((c.total - c.failing) / c.total) * 10_000) / 10_000;

const present = ({ eventId, state, timestamp, source, userAgent }: Occurrence): HeartbeatEventView => ({ id: eventId, state, timestamp, source, userAgent });

/** When an event of `heartbeat-<id>` happened; the stream is written in this order. */
const timeOf = (event: RecordedEvent): number => occurrenceOf(event)?.ms ?? Date.parse(event.metadata.occurredAt);

const PAGE = 50;

/**
 * Events and availability of one check. Events are read from the check's own stream (pings and
 * failures are appended in time order), found by a binary search on revisions. A window's counts
 * come from daily rollups for whole days, hourly ones for whole hours, per-minute counts inside the
 * hour and the raw events of the partial minutes at its two edges: the cost follows the window's
 * length in days, never the number of events in it.
 */
@Injectable()
export class HeartbeatStats {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly log: EventStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  /** Newest first, at most `limit`, within the window (both ends included). */
  async events(checkId: string, window: TimeWindow, limit: number): Promise<HeartbeatEventView[]> {
    const out: HeartbeatEventView[] = [];
    for await (const event of this.backwardsFrom(checkId, window.end)) {
      if (event.ms < window.start || out.length >= limit) break;
      out.push(present(event));
    }
    return out;
  }

  async event(checkId: string, eventId: string): Promise<HeartbeatEventView | null> {
    const at = timestampOfEventId(eventId);
    if (at === null) return null;
    const wanted = eventId.toLowerCase();
    for await (const event of this.backwardsFrom(checkId, at)) {
      if (event.ms < at) return null;
      if (event.eventId === wanted) return present(event);
    }
    return null;
  }

  /** Pings and failures at or before `ms`, newest first. */
  private async *backwardsFrom(checkId: string, ms: number): AsyncGenerator<Occurrence> {
    const stream = heartbeatStream(checkId);
    let from = await this.lastRevisionAt(stream, ms);
    while (from !== null && from >= 0n) {
      const page = await this.log.readStream(stream, { direction: 'backwards', fromRevision: from, maxCount: PAGE });
      for (const recorded of page) {
        const event = occurrenceOf(recorded);
        if (event) yield event;
      }
      from = page.length === PAGE ? page[page.length - 1].revision - 1n : null;
    }
  }

  /** The newest revision of the stream whose event happened at or before `ms`, or null. */
  private async lastRevisionAt(stream: string, ms: number): Promise<bigint | null> {
    const [last] = await this.log.readStream(stream, { direction: 'backwards', maxCount: 1 });
    if (!last || timeOf(last) <= ms) return last?.revision ?? null;
    let [low, high] = [-1n, last.revision];
    // Invariant: the event at `low` (if any) is at or before `ms`, the one at `high` after it.
    while (high - low > 1n) {
      const [event] = await this.log.readStream(stream, { fromRevision: (low + high) / 2n, maxCount: 1 });
      if (timeOf(event) <= ms) low = event.revision;
      else high = (low + high) / 2n;
    }
    return low >= 0n ? low : null;
  }

  /** The window and the one of equal length before it. */
  async availability(checkId: string, window: TimeWindow): Promise<Availability> {
    const length = window.end + 1 - window.start;
    const [current, previous] = await Promise.all([
      this.counts(checkId, window.start, window.end + 1),
      this.counts(checkId, window.start - length, window.start),
    ]);
    const successRatio: Availability['successRatio'] = {};
    if (previous.total > 0) successRatio.previousPeriod = ratio(previous);
    if (current.total > 0) successRatio.currentPeriod = ratio(current);
    return { successRatio, totalEntitiesCurrentPeriod: current.total };
  }

  /** `last24Hours` and `last7Days`, both ending now. */
  async stats(checkId: string): Promise<{ last24Hours: Availability; last7Days: Availability }> {
    const now = this.clock.now().getTime();
    const [last24Hours, last7Days] = await Promise.all([
      this.availability(checkId, { start: now - DAY_MS, end: now }),
      this.availability(checkId, { start: now - 7 * DAY_MS, end: now }),
    ]);
    return { last24Hours, last7Days };
  }

  /** Events with timestamps in [from, to). */
  async counts(checkId: string, from: number, to: number): Promise<Counts> {
    if (from >= to) return ZERO;
    const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS;
    const lastHour = bucketStart(to, 'h');
    if (firstHour > lastHour) return this.partialHour(checkId, from, to);
    const [head, whole, tail] = await Promise.all([
      this.partialHour(checkId, from, firstHour),
      this.wholeHours(checkId, firstHour, lastHour),
      this.partialHour(checkId, lastHour, to),
    ]);
    return add(add(head, whole), tail);
  }

  private async wholeHours(checkId: string, from: number, to: number): Promise<Counts> {
    const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
    const lastDay = bucketStart(to, 'd');
    if (firstDay >= lastDay) return this.rollups(checkId, 'h', from, to);
    const parts = await Promise.all([
      this.rollups(checkId, 'h', from, firstDay),
      this.rollups(checkId, 'd', firstDay, lastDay),
      this.rollups(checkId, 'h', lastDay, to),
    ]);
    return parts.reduce(add, ZERO);
  }

  private async rollups(checkId: string, granularity: Granularity, from: number, to: number): Promise<Counts> {
    if (from >= to) return ZERO;
    const size = granularity === 'h' ? HOUR_MS : DAY_MS;
    const docs = await this.store.find<RollupDoc>(this.engine.collection('heartbeat_rollups'), {
      filters: [
        { field: 'id', op: 'gte', value: rollupId(checkId, granularity, from) },
        { field: 'id', op: 'lt', value: rollupId(checkId, granularity, to) },
      ],
      limit: Math.ceil((to - from) / size) + 1,
    });
    let counts = ZERO;
    for (const doc of docs) counts = add(counts, { total: doc.total, failing: doc.counts.FAILING });
    return counts;
  }

  /**
   * [from, to) inside one hour: whole minutes from the hour's rollup, the partial minutes at the edges
   * from the raw events (at most a minute of them). Where retention may have removed those, the minute's
   * rollup stands in: counted whole when the window covers at least half of that minute.
   */
  private async partialHour(checkId: string, from: number, to: number): Promise<Counts> {
    if (from >= to) return ZERO;
    const hour = bucketStart(from, 'h');
    const stored = await this.store.get<RollupDoc>(this.engine.collection('heartbeat_rollups'), rollupId(checkId, 'h', hour));
    if (!stored) return ZERO;
    const minutes = stored.doc.minutes ?? {};
    const minute = (start: number): Counts => {
      const [total, failing] = minutes[String(Math.floor((start - hour) / MINUTE_MS))] ?? [0, 0];
      return { total, failing };
    };
    const firstMinute = Math.ceil(from / MINUTE_MS) * MINUTE_MS;
    const lastMinute = Math.floor(to / MINUTE_MS) * MINUTE_MS;
    if (firstMinute > lastMinute) return this.partialMinute(checkId, from, to, minute);
    let counts = add(await this.partialMinute(checkId, from, firstMinute, minute), await this.partialMinute(checkId, lastMinute, to, minute));
    for (let start = firstMinute; start < lastMinute; start += MINUTE_MS) counts = add(counts, minute(start));
    return counts;
  }

  /** [from, to) inside one minute, from the raw events. */
  private async partialMinute(checkId: string, from: number, to: number, minute: (start: number) => Counts): Promise<Counts> {
    if (from >= to) return ZERO;
    const start = Math.floor(from / MINUTE_MS) * MINUTE_MS;
    const retainedFrom = this.clock.now().getTime() - this.config.eventRetentionDays * DAY_MS;
    if (from < retainedFrom) return to - from >= MINUTE_MS / 2 ? minute(start) : ZERO;
    let total = 0;
    let failing = 0;
    for await (const event of this.backwardsFrom(checkId, to - 1)) {
      if (event.ms < from) break;
      total += 1;
      if (event.state === 'FAILING') failing += 1;
    }
    return { total, failing };
  }
}

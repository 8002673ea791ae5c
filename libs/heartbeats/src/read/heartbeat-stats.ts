import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { RecordedEvent } from '../../../core/src/event';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { heartbeatStream } from '../domain/heartbeat.decider';
import { isCounted, Occurrence, occurrenceOf } from '../domain/heartbeat.events';
import { timestampOfEventId } from '../../../core/src/ids';
import { bucketStart, DAY_MS, Granularity, heartbeatRollupsProjection, HOUR_MS, MINUTE_MS, RollupDoc, rollupId } from './heartbeat.projections';
import { TimeWindow } from './heartbeat-window';

export interface HeartbeatEventView {
  id: string;
  state: string;
  timestamp: string;
  source: string | null;
  userAgent: string | null;
  /** Run signals, when present: `?rid=`, the run's duration (ms), the exit code. */
  rid?: string;
  duration?: number;
  exitCode?: number;
  /** Only on the single-event endpoint: the stored POST body and whether it was cut at 10,000 bytes. */
  body?: string | null;
  truncated?: boolean;
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
/** A minute's [total, failing, stream revision of its first event], as the rollups keep it. */
type MinuteCount = [number, number, number];
const add = (a: Counts, b: Counts): Counts => ({ total: a.total + b.total, failing: a.failing + b.failing });
const ratio = (c: Counts) => Math.round(((c.total - c.failing) / c.total) * 10_000) / 10_000;

/** Occurrences carry only the run signals they have, so what is left after the omitted fields is the view. */
const present = ({ eventId, checkId, ms, body, truncated, ...shown }: Occurrence): HeartbeatEventView => ({ id: eventId, ...shown });
/** The single-event view adds the captured body (endpoint 9's lists leave it out). */
const presentWithBody = (o: Occurrence): HeartbeatEventView => ({ ...present(o), body: o.body ?? null, truncated: o.truncated ?? false });

/** When an event of `heartbeat-<id>` happened; the stream is written in this order. */
const timeOf = (event: RecordedEvent): number => occurrenceOf(event)?.ms ?? Date.parse(event.metadata.occurredAt);

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
    for await (const event of this.backwardsFrom(checkId, window.end, limit + 1)) {
      if (event.ms < window.start || out.length >= limit) break;
      out.push(present(event));
    }
    return out;
  }

  async event(checkId: string, eventId: string): Promise<HeartbeatEventView | null> {
    const at = timestampOfEventId(eventId);
    if (at === null) return null;
    const wanted = eventId.toLowerCase();
    for await (const event of this.backwardsFrom(checkId, at, 4)) {
      if (event.ms < at) return null;
      if (event.eventId === wanted) return presentWithBody(event);
    }
    return null;
  }

  /** Pings and failures at or before `ms`, newest first, read `page` events at a time. */
  private async *backwardsFrom(checkId: string, ms: number, page: number): AsyncGenerator<Occurrence> {
    const stream = heartbeatStream(checkId);
    let from = await this.lastRevisionAt(stream, ms);
    while (from !== null && from >= 0n) {
      const events = await this.log.readStream(stream, { direction: 'backwards', fromRevision: from, maxCount: page });
      for (const recorded of events) {
        const event = occurrenceOf(recorded);
        if (event) yield event;
      }
      from = events.length === page ? events[events.length - 1].revision - 1n : null;
    }
  }

  /**
   * The newest revision of the stream whose event happened at or before `ms`, or null. Pings come at a
   * steady pace, so steps alternate between a guess from the times at both ends (a few reads for a
   * year of pings) and a halving (no worse than a binary search when the pace changes).
   */
  private async lastRevisionAt(stream: string, ms: number): Promise<bigint | null> {
    const [last] = await this.log.readStream(stream, { direction: 'backwards', maxCount: 1 });
    if (!last || timeOf(last) <= ms) return last?.revision ?? null;
    const [first] = await this.log.readStream(stream, { maxCount: 1 });
    if (timeOf(first) > ms) return null;
    let [low, lowMs, high, highMs] = [first.revision, timeOf(first), last.revision, timeOf(last)];
    // Invariant: the event at `low` is at or before `ms`; every event from `high` on is after it.
    for (let step = 0; high - low > 1n; step++) {
      const guess = step % 2 === 0 && highMs > lowMs ? low + BigInt(Math.floor((Number(high - low) * (ms - lowMs)) / (highMs - lowMs))) : (low + high) / 2n;
      const mid = guess <= low ? low + 1n : guess >= high ? high - 1n : guess;
      const [event] = await this.log.readStream(stream, { fromRevision: mid, maxCount: 1 });
      const at = timeOf(event);
      if (event.revision < high && at <= ms) [low, lowMs] = [event.revision, at];
      else [high, highMs] = [mid, at];
    }
    return low;
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
    const docs = await this.rollupsBetween(checkId, granularity, from, to);
    return docs.reduce((counts, doc) => add(counts, { total: doc.total, failing: doc.counts.FAILING }), ZERO);
  }

  /** The check's rollups of one granularity whose buckets start in [from, to). */
  rollupsBetween(checkId: string, granularity: Granularity, from: number, to: number): Promise<RollupDoc[]> {
    return this.store.find(this.engine.collection(heartbeatRollupsProjection), {
      filters: [
        { field: 'id', op: 'gte', value: rollupId(checkId, granularity, from) },
        { field: 'id', op: 'lt', value: rollupId(checkId, granularity, to) },
      ],
      limit: Math.ceil((to - from) / (granularity === 'd' ? DAY_MS : HOUR_MS)) + 1,
    });
  }

  /**
   * [from, to) inside one hour: whole minutes from the hour's per-minute counts, the partial minutes at
   * the edges from the raw events, read from the stream revision where that minute began. Where
   * retention may have removed those, the minute's count stands in: counted whole when the window
   * covers at least half of that minute.
   */
  private async partialHour(checkId: string, from: number, to: number): Promise<Counts> {
    if (from >= to) return ZERO;
    const hour = bucketStart(from, 'h');
    const stored = await this.store.get(this.engine.collection(heartbeatRollupsProjection), rollupId(checkId, 'h', hour));
    if (!stored) return ZERO;
    const minutes = stored.doc.minutes ?? {};
    const minute = (start: number): MinuteCount => minutes[String(Math.floor((start - hour) / MINUTE_MS))] ?? [0, 0, 0];
    const firstMinute = Math.ceil(from / MINUTE_MS) * MINUTE_MS;
    const lastMinute = Math.floor(to / MINUTE_MS) * MINUTE_MS;
    if (firstMinute > lastMinute) return this.partialMinute(checkId, from, to, minute(from));
    let counts = add(await this.partialMinute(checkId, from, firstMinute, minute(from)), await this.partialMinute(checkId, lastMinute, to, minute(lastMinute)));
    for (let start = firstMinute; start < lastMinute; start += MINUTE_MS) {
      const [total, failing] = minute(start);
      counts = add(counts, { total, failing });
    }
    return counts;
  }

  /** [from, to) inside one minute, from the raw events of that minute. */
  private async partialMinute(checkId: string, from: number, to: number, [total, failing, first]: MinuteCount): Promise<Counts> {
    if (from >= to || total === 0) return ZERO;
    const retainedFrom = this.clock.now().getTime() - this.config.eventRetentionDays * DAY_MS;
    if (from < retainedFrom) return to - from >= MINUTE_MS / 2 ? { total, failing } : ZERO;
    const counts = { total: 0, failing: 0 };
    const end = Math.floor(from / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    let revision = BigInt(first);
    // The minute's events, and any schedule change among them.
    for (;;) {
      const events = await this.log.readStream(heartbeatStream(checkId), { fromRevision: revision, maxCount: total + 2 });
      for (const recorded of events) {
        const event = occurrenceOf(recorded);
        if (!event) continue;
        if (event.ms >= end) return counts;
        if (event.ms >= from && event.ms < to && isCounted(event.state)) {
          counts.total += 1;
          if (event.state === 'FAILING') counts.failing += 1;
        }
      }
      if (events.length < total + 2) return counts;
      revision = events[events.length - 1].revision + 1n;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { HeartbeatEventDoc } from './heartbeat-events.projection';
import { bucketStart, DAY_MS, eventKeyAt, Granularity, HOUR_MS, MINUTE_MS, rollupId, timestampOfEventId } from './heartbeat-keys';
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

export const present = (doc: HeartbeatEventDoc): HeartbeatEventView => ({
  id: doc.eventId,
  state: doc.state,
  timestamp: doc.timestamp,
  source: doc.source,
  userAgent: doc.userAgent,
});

/**
 * Events and availability of one check. A window's counts come from daily rollups for whole days,
 * hourly rollups for whole hours, and a keyed count of raw events for the partial hours at its two
 * edges: the cost follows the window's length in days, never the number of events in it.
 */
@Injectable()
export class HeartbeatStats {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  /** Newest first, at most `limit`, within the window (both ends included). */
  async events(checkId: string, window: TimeWindow, limit: number): Promise<HeartbeatEventView[]> {
    const collection = this.engine.collection('heartbeat_events');
    const kinds = await Promise.all(
      [false, true].map((failing) =>
        this.store.find<HeartbeatEventDoc>(collection, {
          filters: [
            { field: 'id', op: 'gte', value: eventKeyAt(checkId, failing, window.start) },
            { field: 'id', op: 'lt', value: eventKeyAt(checkId, failing, window.end + 1) },
          ],
          sort: { field: 'id', direction: 'desc' },
          limit,
        }),
      ),
    );
    return kinds
      .flat()
      .sort((a, b) => (a.timestamp === b.timestamp ? (a.eventId < b.eventId ? 1 : -1) : a.timestamp < b.timestamp ? 1 : -1))
      .slice(0, limit)
      .map(present);
  }

  async event(checkId: string, eventId: string): Promise<HeartbeatEventView | null> {
    const at = timestampOfEventId(eventId);
    if (at === null) return null;
    const collection = this.engine.collection('heartbeat_events');
    const ids = [false, true].map((failing) => `${eventKeyAt(checkId, failing, at)}|${eventId.toLowerCase()}`);
    const [found] = await this.store.getMany<HeartbeatEventDoc>(collection, ids);
    return found ? present(found.doc) : null;
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
    const collection = this.engine.collection('heartbeat_events');
    const [total, failing] = await Promise.all(
      [false, true].map((kind) =>
        this.store.count(collection, [
          { field: 'id', op: 'gte', value: eventKeyAt(checkId, kind, from) },
          { field: 'id', op: 'lt', value: eventKeyAt(checkId, kind, to) },
        ]),
      ),
    );
    return { total: total + failing, failing };
  }
}

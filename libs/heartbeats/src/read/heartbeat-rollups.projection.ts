import { Projection } from '../../../core/src/projection';
import { HeartbeatEvent, HeartbeatState, isCounted, occurrenceOf } from '../domain/heartbeat-timer';
import { bucketStart, Granularity, HOUR_MS, MINUTE_MS, rollupId } from './heartbeat-keys';

export interface RollupDoc {
  id: string;
  checkId: string;
  granularity: Granularity;
  bucket: string;
  total: number;
  counts: Record<HeartbeatState, number>;
  /**
   * Minute documents (`m`, one per hour) only: [total, failing, stream revision of its first event] per
   * minute of the hour ("0"–"59"), so a partial minute reads just its own events.
   */
  minutes?: Record<string, [number, number, number]>;
  [field: string]: unknown;
}

const emptyCounts = (): Record<HeartbeatState, number> => ({ EARLY: 0, RECEIVED: 0, GRACE: 0, LATE: 0, FAILING: 0 });

/**
 * Hourly and daily counts per check and state, and per hour a document of per-minute counts (kept apart,
 * so whole hours are read without them). The revision guard makes a replayed event count once;
 * availability reads these instead of the raw events.
 */
export const heartbeatRollupsProjection: Projection<RollupDoc, HeartbeatEvent> = {
  name: 'heartbeat_rollups',
  version: 3,
  handles: ['HeartbeatPingReceived', 'HeartbeatFailed'],
  indexes: [],
  ids: (event) => {
    const e = occurrenceOf(event);
    if (!e) return [];
    const hour = bucketStart(e.ms, 'h');
    return [rollupId(e.checkId, 'h', hour), rollupId(e.checkId, 'd', bucketStart(e.ms, 'd')), rollupId(e.checkId, 'm', hour)];
  },
  evolve(doc, event, id) {
    const e = occurrenceOf(event);
    if (!e || !isCounted(e.state)) return doc;
    const granularity = id[id.indexOf('|') + 1] as Granularity;
    const base: RollupDoc = doc ?? {
      id,
      checkId: e.checkId,
      granularity,
      bucket: new Date(bucketStart(e.ms, granularity)).toISOString(),
      total: 0,
      counts: emptyCounts(),
    };
    const next: RollupDoc = { ...base, total: base.total + 1, counts: { ...base.counts, [e.state]: base.counts[e.state] + 1 } };
    if (granularity === 'm') {
      const minute = Math.floor((e.ms % HOUR_MS) / MINUTE_MS);
      const [total, failing, first] = base.minutes?.[minute] ?? [0, 0, Number(event.revision)];
      next.minutes = { ...base.minutes, [minute]: [total + 1, failing + (e.state === 'FAILING' ? 1 : 0), first] };
    }
    return next;
  },
};

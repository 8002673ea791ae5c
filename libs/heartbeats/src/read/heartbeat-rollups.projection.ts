import { Projection } from '../../../core/src/projection';
import { HeartbeatState, occurrenceOf } from '../domain/heartbeat-timer';
import { bucketStart, Granularity, HOUR_MS, MINUTE_MS, rollupId } from './heartbeat-keys';

export interface RollupDoc {
  id: string;
  checkId: string;
  granularity: Granularity;
  bucket: string;
  total: number;
  counts: Record<HeartbeatState, number>;
  /** Hourly documents only: [total, failing] per minute of the hour ("0"–"59"), so partial hours need no raw events. */
  minutes?: Record<string, [number, number]>;
  [field: string]: unknown;
}

const emptyCounts = (): Record<HeartbeatState, number> => ({ EARLY: 0, RECEIVED: 0, GRACE: 0, LATE: 0, FAILING: 0 });

/**
 * Hourly (with a count per minute) and daily counts per check and state. The revision guard makes a replayed event count
 * once; availability reads these instead of the raw events.
 */
export const heartbeatRollupsProjection: Projection<RollupDoc> = {
  name: 'heartbeat_rollups',
  version: 2,
  handles: ['HeartbeatPingReceived', 'HeartbeatFailed'],
  indexes: [],
  ids: (event) => {
    const e = occurrenceOf(event);
    return e ? [rollupId(e.checkId, 'h', bucketStart(e.ms, 'h')), rollupId(e.checkId, 'd', bucketStart(e.ms, 'd'))] : [];
  },
  evolve(doc, event, id) {
    const e = occurrenceOf(event);
    if (!e) return doc;
    const granularity: Granularity = id[id.indexOf('|') + 1] === 'd' ? 'd' : 'h';
    const base: RollupDoc = doc ?? {
      id,
      checkId: e.checkId,
      granularity,
      bucket: new Date(bucketStart(e.ms, granularity)).toISOString(),
      total: 0,
      counts: emptyCounts(),
    };
    const next: RollupDoc = { ...base, total: base.total + 1, counts: { ...base.counts, [e.state]: base.counts[e.state] + 1 } };
    if (granularity === 'h') {
      const minute = Math.floor((e.ms % HOUR_MS) / MINUTE_MS);
      const [total, failing] = base.minutes?.[minute] ?? [0, 0];
      next.minutes = { ...base.minutes, [minute]: [total + 1, failing + (e.state === 'FAILING' ? 1 : 0)] };
    }
    return next;
  },
};

import { Projection } from '../../../core/src/projection';
import { HeartbeatEvent, HeartbeatState } from '../domain/heartbeat-timer';
import { bucketName, bucketStart, eventTime, Granularity, HOUR_MS, MINUTE_MS, onceForLastEvent, rollupIdsAt } from './heartbeat-keys';

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

interface Counted {
  checkId: string;
  state: HeartbeatState;
  at: number;
}

function readStateAndTime(event: HeartbeatEvent): Counted | null {
  if (event.type === 'HeartbeatPingReceived') return { checkId: event.data.checkId, state: event.data.state, at: eventTime(event)! };
  if (event.type === 'HeartbeatFailed') return { checkId: event.data.checkId, state: 'FAILING', at: eventTime(event)! };
  return null;
}

const stateAndTime = onceForLastEvent(readStateAndTime);

// A literal (in EVENT_STATES order), so every counts object shares one shape.
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
    const e = stateAndTime(event as unknown as HeartbeatEvent);
    if (!e) return [];
    const { hourId, dayId } = rollupIdsAt(e.checkId, e.at);
    return [hourId, dayId];
  },
  evolve(doc, event, id) {
    const e = stateAndTime(event as unknown as HeartbeatEvent);
    if (!e) return doc;
    const granularity: Granularity = id[id.indexOf('|') + 1] === 'd' ? 'd' : 'h';
    const base: RollupDoc = doc ?? {
      id,
      checkId: e.checkId,
      granularity,
      bucket: bucketName(bucketStart(e.at, granularity)),
      total: 0,
      counts: emptyCounts(),
    };
    // Copies, then one change each: a computed key in a literal would take V8's slow path on every ping.
    const counts = { ...base.counts };
    counts[e.state] += 1;
    const next: RollupDoc = { id: base.id, checkId: base.checkId, granularity: base.granularity, bucket: base.bucket, total: base.total + 1, counts };
    if (granularity === 'h') {
      const minute = Math.floor((e.at % HOUR_MS) / MINUTE_MS);
      const minutes = { ...base.minutes };
      const [total, failing] = minutes[minute] ?? [0, 0];
      minutes[minute] = [total + 1, failing + (e.state === 'FAILING' ? 1 : 0)];
      next.minutes = minutes;
    }
    return next;
  },
};

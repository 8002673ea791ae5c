import { Projection } from '../../../core/src/projection';
import { EVENT_STATES, HeartbeatEvent, HeartbeatState } from '../domain/heartbeat-timer';
import { bucketStart, Granularity, rollupId } from './heartbeat-keys';

export interface RollupDoc {
  id: string;
  checkId: string;
  granularity: Granularity;
  bucket: string;
  total: number;
  counts: Record<HeartbeatState, number>;
  [field: string]: unknown;
}

function stateAndTime(event: HeartbeatEvent): { checkId: string; state: HeartbeatState; at: number } | null {
  if (event.type === 'HeartbeatPingReceived') return { checkId: event.data.checkId, state: event.data.state, at: Date.parse(event.data.at) };
  if (event.type === 'HeartbeatFailed') return { checkId: event.data.checkId, state: 'FAILING', at: Date.parse(event.data.deadline) };
  return null;
}

const emptyCounts = () => Object.fromEntries(EVENT_STATES.map((s) => [s, 0])) as Record<HeartbeatState, number>;

/**
 * Hourly and daily counts per check and state. The revision guard makes a replayed event count
 * once; availability reads these instead of the raw events.
 */
export const heartbeatRollupsProjection: Projection<RollupDoc> = {
  name: 'heartbeat_rollups',
  version: 1,
  handles: ['HeartbeatPingReceived', 'HeartbeatFailed'],
  indexes: [],
  ids: (event) => {
    const e = stateAndTime(event as unknown as HeartbeatEvent);
    if (!e) return [];
    return [rollupId(e.checkId, 'h', bucketStart(e.at, 'h')), rollupId(e.checkId, 'd', bucketStart(e.at, 'd'))];
  },
  evolve(doc, event, id) {
    const e = stateAndTime(event as unknown as HeartbeatEvent);
    if (!e) return doc;
    const granularity: Granularity = id.split('|')[1] === 'd' ? 'd' : 'h';
    const base: RollupDoc = doc ?? {
      id,
      checkId: e.checkId,
      granularity,
      bucket: new Date(bucketStart(e.at, granularity)).toISOString(),
      total: 0,
      counts: emptyCounts(),
    };
    return { ...base, total: base.total + 1, counts: { ...base.counts, [e.state]: base.counts[e.state] + 1 } };
  },
};

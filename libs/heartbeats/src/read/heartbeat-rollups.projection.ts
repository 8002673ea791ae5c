import { Projection } from '../../../core/src/projection';
import { EVENT_STATES, HeartbeatEvent, HeartbeatState } from '../domain/heartbeat-timer';
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

function stateAndTime(event: HeartbeatEvent): { checkId: string; state: HeartbeatState; at: number } | null {
  if (event.type === 'HeartbeatPingReceived') return { checkId: event.data.checkId, state: event.data.state, at: Date.parse(event.data.at) };
  if (event.type === 'HeartbeatFailed') return { checkId: event.data.checkId, state: 'FAILING', at: Date.parse(event.data.deadline) };
  return null;
}

const emptyCounts = () => Object.fromEntries(EVENT_STATES.map((s) => [s, 0])) as Record<HeartbeatState, number>;

/**
 * Hourly (with a count per minute) and daily counts per check and state. The revision guard makes a replayed event count
 * once; availability reads these instead of the raw events.
 */
export const heartbeatRollupsProjection: Projection<RollupDoc> = {
  name: 'heartbeat_rollups',
  version: 2,
  handles: ['HeartbeatPingReceived', 'HeartbeatFailed'],
  indexes: [],
  // Every ping changes it: written back in bulk, not in each ping's commit.
  writeBack: true,
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
    const next: RollupDoc = { ...base, total: base.total + 1, counts: { ...base.counts, [e.state]: base.counts[e.state] + 1 } };
    if (granularity === 'h') {
      const minute = String(Math.floor((e.at % HOUR_MS) / MINUTE_MS));
      const [total, failing] = base.minutes?.[minute] ?? [0, 0];
      next.minutes = { ...base.minutes, [minute]: [total + 1, failing + (e.state === 'FAILING' ? 1 : 0)] };
    }
    return next;
  },
};

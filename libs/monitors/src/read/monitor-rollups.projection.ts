import { Projection } from '../../../core/src/projection';
import { Filter } from '../../../read-store/src/read-store.port';
import { MonitorEvent } from '../domain/monitor.decider';
import { RollupHistoryEvent } from '../domain/rollup-history.decider';
import { monitorIdOf, runOf } from '../domain/run-codec';

/** Upper bounds (ms) of the response-time buckets; a percentile is the bound of the bucket it falls in. */
export const BUCKET_BOUNDS_MS = [10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10_000, 15_000, 20_000, 30_000, Infinity];

/** Final runs of one monitor over an hour (`h`) or a day (`d`): kept for good, so analytics cost hours + days, not runs. */
export interface RollupDoc {
  [field: string]: unknown;
  id: string;
  monitorId: string;
  granularity: 'h' | 'd';
  bucketAt: string;
  runs: number;
  failed: number;
  degraded: number;
  sumMs: number;
  histogram: number[];
}

const HOUR = 3_600_000 as const;
const DAY = 86_400_000 as const;
/** The start of the hour or day `at` falls in; a UTC time as runs hold it (`…T…Z`, 24 characters) is cut, not parsed (every run asks twice). */
function start(at: string, size: typeof HOUR | typeof DAY): string {
  if (at.length === 24 && at[10] === 'T' && at[23] === 'Z') return size === HOUR ? `${at.slice(0, 13)}:00:00.000Z` : `${at.slice(0, 10)}T00:00:00.000Z`;
  return new Date(Math.floor(Date.parse(at) / size) * size).toISOString();
}
export const rollupId = (monitorId: string, granularity: 'h' | 'd', bucketAt: string) => `${monitorId}:${granularity}:${bucketAt}`;

/**
 * The filters of a monitor's buckets of one granularity from `from` (inclusive) to `to` (exclusive), on the id alone:
 * the id is monitor, granularity and bucket time, so one key range holds them in time order and a run updates no index.
 */
export function rollupRange(monitorId: string, granularity: 'h' | 'd', from?: string, to?: string): Filter[] {
  const prefix = `${monitorId}:${granularity}:`;
  // ';' follows ':': every id of the prefix is below it.
  return [
    { field: 'id', op: 'gte', value: prefix + (from ?? '') },
    { field: 'id', op: 'lt', value: to === undefined ? `${monitorId}:${granularity};` : prefix + to },
  ];
}

export function percentile(histogram: number[], p: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i];
    if (seen >= rank) return Number.isFinite(BUCKET_BOUNDS_MS[i]) ? BUCKET_BOUNDS_MS[i] : BUCKET_BOUNDS_MS[i - 1];
  }
  return null;
}

/** Final runs add to their hour and day; a day's buckets kept before its runs were pruned come back as they were. */
export const monitorRollupsProjection: Projection<RollupDoc, MonitorEvent | RollupHistoryEvent> = {
  name: 'monitor_rollups',
  version: 3,
  handles: ['MonitorRunRecorded', 'MonitorRollupsKept'],
  // Read by id range only (rollupRange).
  indexes: [],
  sortField: 'id',
  ids(event) {
    if (event.type === 'MonitorRollupsKept') return event.data.buckets.map((b) => rollupId(event.data.monitorId, b.granularity, b.bucketAt));
    if (event.type !== 'MonitorRunRecorded') return [];
    const run = runOf(event.data);
    if (!run.final) return [];
    const monitorId = monitorIdOf(event.stream);
    return [rollupId(monitorId, 'h', start(run.roundAt, HOUR)), rollupId(monitorId, 'd', start(run.roundAt, DAY))];
  },
  evolve(doc, event, id) {
    if (event.type === 'MonitorRollupsKept') {
      // Only where the runs are gone (a rebuild after pruning): live, the bucket already holds them.
      const kept = event.data.buckets.find((b) => rollupId(event.data.monitorId, b.granularity, b.bucketAt) === id);
      return doc ?? (kept ? { id, monitorId: event.data.monitorId, ...kept } : null);
    }
    if (event.type !== 'MonitorRunRecorded') return doc;
    const run = runOf(event.data);
    const [, granularity, bucketAt] = [id.slice(0, id.indexOf(':')), id.split(':')[1] as 'h' | 'd', id.slice(id.indexOf(':', id.indexOf(':') + 1) + 1)];
    const base: RollupDoc = doc ?? { id, monitorId: monitorIdOf(event.stream), granularity, bucketAt, runs: 0, failed: 0, degraded: 0, sumMs: 0, histogram: BUCKET_BOUNDS_MS.map(() => 0) };
    const histogram = [...base.histogram];
    if (run.outcome !== 'FAIL') histogram[BUCKET_BOUNDS_MS.findIndex((bound) => run.timings.total <= bound)]++;
    return {
      ...base,
      runs: base.runs + 1,
      failed: base.failed + (run.outcome === 'FAIL' ? 1 : 0),
      degraded: base.degraded + (run.outcome === 'DEGRADED' ? 1 : 0),
      sumMs: base.sumMs + (run.outcome === 'FAIL' ? 0 : run.timings.total),
      histogram,
    };
  },
};

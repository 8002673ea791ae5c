import { ValidationError } from '../../../core/src/errors';
import { CheckType } from '../domain/monitor-config';
import { expiringDays } from '../domain/certificate-expiry';
import { percentile, RollupDoc } from './monitor-rollups.projection';
import { configOf, MonitorDoc } from './monitors.projection';
import { lastRunOf, MonitorStateDoc } from './monitor-states.projection';

export const QUICK_RANGES = ['last24Hours', 'last7Days', 'last30Days', 'thisWeek', 'thisMonth', 'lastWeek', 'lastMonth'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * The span of Checkly's `quickRange` (UTC; weeks start on Monday) and the rollups that answer it: hourly ones for
 * the last 24 hours, daily ones otherwise, so a range costs its hours or days, never its runs.
 */
export function rangeOf(quickRange: string | undefined, now: number): { from: number; to: number; granularity: 'h' | 'd' } {
  const range = quickRange ?? 'last24Hours';
  if (!(QUICK_RANGES as readonly string[]).includes(range)) throw ValidationError.of([{ path: 'quickRange', message: `must be one of ${QUICK_RANGES.join(', ')}` }]);
  const today = Math.floor(now / DAY) * DAY;
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY;
  const d = new Date(today);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  switch (range as QuickRange) {
    case 'last24Hours':
      return { from: Math.floor(now / HOUR) * HOUR - 23 * HOUR, to: now, granularity: 'h' };
    case 'last7Days':
      return { from: today - 6 * DAY, to: now, granularity: 'd' };
    case 'last30Days':
      return { from: today - 29 * DAY, to: now, granularity: 'd' };
    case 'thisWeek':
      return { from: monday, to: now, granularity: 'd' };
    case 'lastWeek':
      return { from: monday - 7 * DAY, to: monday, granularity: 'd' };
    case 'thisMonth':
      return { from: monthStart, to: now, granularity: 'd' };
    case 'lastMonth':
      return { from: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1), to: monthStart, granularity: 'd' };
  }
}

/** The figures Checkly's analytics give, from the rollups of a range: availability in percent, times in ms. */
export interface MonitorMetrics {
  runs: number;
  availability: number | null;
  avg: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export function mergeRollups(docs: RollupDoc[]): MonitorMetrics {
  const runs = docs.reduce((n, d) => n + d.runs, 0);
  const failed = docs.reduce((n, d) => n + d.failed, 0);
  const sumMs = docs.reduce((n, d) => n + d.sumMs, 0);
  const histogram = docs.reduce<number[]>((h, d) => h.map((c, i) => c + (d.histogram[i] ?? 0)), docs[0]?.histogram.map(() => 0) ?? []);
  const measured = runs - failed;
  return {
    runs,
    availability: runs === 0 ? null : Math.round((measured / runs) * 100_000) / 1000,
    avg: measured === 0 ? null : Math.round(sumMs / measured),
    p50: histogram.length === 0 ? null : percentile(histogram, 50),
    p95: histogram.length === 0 ? null : percentile(histogram, 95),
    p99: histogram.length === 0 ? null : percentile(histogram, 99),
  };
}

/** Checkly's metric names per type: response time for HTTP, `total` for TCP and DNS, the handshake for SSL. */
const TIME_METRIC: Record<CheckType, string> = { URL: 'responseTime', API: 'responseTime', TCP: 'total', DNS: 'total', SSL: 'handshakeTimeMs' };

/** The metrics asked for (Checkly's names), each null when there is nothing to say; unknown names are left out. */
export function namedMetrics(type: CheckType, m: MonitorMetrics, wanted: string[] | null): Record<string, number | null> {
  const base = TIME_METRIC[type];
  const all: Record<string, number | null> = { availability: m.availability, [`${base}_avg`]: m.avg, [`${base}_p50`]: m.p50, [`${base}_p95`]: m.p95, [`${base}_p99`]: m.p99 };
  if (base !== 'responseTime') Object.assign(all, { responseTime_avg: m.avg, responseTime_p50: m.p50, responseTime_p95: m.p95, responseTime_p99: m.p99 });
  if (wanted === null) return all;
  return Object.fromEntries(wanted.filter((k) => k in all).map((k) => [k, all[k]]));
}

/** A monitor's status in Checkly's `check-statuses` shape. */
export function monitorStatus(doc: MonitorDoc, states: MonitorStateDoc | null) {
  const state = states?.rounds.status ?? null;
  const run = lastRunOf(states);
  return {
    name: configOf(doc).name,
    checkId: doc.id,
    hasFailures: state === 'FAILING',
    hasErrors: state === 'FAILING' && !!run?.networkError,
    isDegraded: state === 'DEGRADED',
    longestRun: null,
    shortestRun: null,
    lastRunLocation: run?.location ?? null,
    lastCheckRunId: run ? String(Date.parse(run.roundAt)) : null,
    sslDaysRemaining: doc.checkType === 'SSL' ? expiringDays(run?.error ?? null) : null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

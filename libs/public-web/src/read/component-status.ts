import { Severity } from '../../../incidents/src/incidents.api';
import { dayOf, IncidentOutageDoc, splitByDay } from './incident-outages.projection';

/** Statuspage's component statuses, which the HTML page shows too. */
export type ComponentStatus = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';

export const STATUS_OF_SEVERITY: Record<Severity, ComponentStatus> = {
  CRITICAL: 'major_outage',
  MAJOR: 'partial_outage',
  MEDIUM: 'degraded_performance',
  MINOR: 'degraded_performance',
};

/** Share of an incident's time that counts as downtime (docs/status-pages.md, "Uptime"). */
export const DOWNTIME_WEIGHT: Record<ComponentStatus, number> = {
  major_outage: 1,
  partial_outage: 0.5,
  degraded_performance: 0.1,
  under_maintenance: 0,
  operational: 0,
};

const RANK: Record<ComponentStatus, number> = { operational: 0, under_maintenance: 1, degraded_performance: 2, partial_outage: 3, major_outage: 4 };

export const STATUS_LABEL: Record<ComponentStatus, string> = {
  operational: 'Operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  under_maintenance: 'Under maintenance',
};

export function worse(a: ComponentStatus, b: ComponentStatus): ComponentStatus {
  return RANK[b] > RANK[a] ? b : a;
}

/** A service's current status: the worst of its open incidents, an active maintenance below any incident. */
export function currentStatus(severities: Severity[], underMaintenance: boolean): ComponentStatus {
  return severities.map((severity) => STATUS_OF_SEVERITY[severity]).reduce(worse, underMaintenance ? 'under_maintenance' : 'operational');
}

export type Indicator = 'none' | 'minor' | 'major' | 'critical';

/** Statuspage's page indicator from the worst component status. */
export function indicatorOf(statuses: ComponentStatus[]): Indicator {
  const worst = statuses.reduce(worse, 'operational');
  if (worst === 'major_outage') return 'critical';
  if (worst === 'partial_outage') return 'major';
  if (worst === 'degraded_performance') return 'minor';
  return 'none';
}

export const INDICATOR_DESCRIPTION: Record<Indicator, string> = {
  none: 'All Systems Operational',
  minor: 'Minor Service Outage',
  major: 'Partial System Outage',
  critical: 'Major System Outage',
};

export type Impact = Indicator;

export const IMPACT_OF_SEVERITY: Record<Severity, Impact> = { CRITICAL: 'critical', MAJOR: 'major', MEDIUM: 'minor', MINOR: 'minor' };

/** One daily bar: `uptime` in percent, null before the service existed. */
export interface DayBar {
  day: string;
  status: ComponentStatus | 'no_data';
  uptime: number | null;
  incidents: number;
}

interface DayTotals {
  weighted: number;
  status: ComponentStatus;
  incidents: number;
}

export const BAR_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * The last `BAR_DAYS` UTC days (today last) of each service, from the incidents' daily rollups:
 * 1. every rollup adds its weighted seconds, its status and one incident to each day of each of its services;
 * 2. a period still open counts up to `now`;
 * 3. a day's uptime is 100 % less its weighted downtime over the day's length (today: the part gone by).
 */
export function uptimeBars(services: { id: string; created_at: string }[], outages: IncidentOutageDoc[], now: Date): Map<string, DayBar[]> {
  const nowMs = now.getTime();
  const todayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const firstDay = todayStart - (BAR_DAYS - 1) * DAY_MS;
  const totals = new Map<string, Map<string, DayTotals>>(services.map((s) => [s.id, new Map()]));
  for (const outage of outages) {
    const status = STATUS_OF_SEVERITY[outage.severity];
    const weight = DOWNTIME_WEIGHT[status];
    const seconds = new Map(outage.days.map((d) => [d.day, d.seconds]));
    if (outage.openSince !== null) splitByDay(Math.max(Date.parse(outage.openSince), firstDay), Math.max(nowMs, firstDay), seconds);
    const days = new Set([...seconds.keys(), ...outage.touchedDays]);
    for (const serviceId of new Set(outage.serviceIds)) {
      const perDay = totals.get(serviceId);
      if (!perDay) continue;
      for (const day of days) {
        const t = perDay.get(day) ?? { weighted: 0, status: 'operational', incidents: 0 };
        perDay.set(day, { weighted: t.weighted + (seconds.get(day) ?? 0) * weight, status: worse(t.status, status), incidents: t.incidents + 1 });
      }
    }
  }
  // The 90 day keys and lengths are the same for every service: computed once.
  const days = Array.from({ length: BAR_DAYS }, (_, i) => {
    const start = firstDay + i * DAY_MS;
    return { day: dayOf(start), seconds: (Math.min(start + DAY_MS, nowMs) - start) / 1000 };
  });
  const bars = new Map<string, DayBar[]>();
  for (const service of services) {
    const perDay = totals.get(service.id)!;
    const createdDay = dayOf(service.created_at);
    const list: DayBar[] = [];
    for (const { day, seconds: length } of days) {
      const t = perDay.get(day);
      if (!t) {
        list.push(day < createdDay ? { day, status: 'no_data', uptime: null, incidents: 0 } : { day, status: 'operational', uptime: 100, incidents: 0 });
        continue;
      }
      const down = Math.min(t.weighted, length);
      const uptime = length > 0 ? Math.floor(((length - down) / length) * 10000) / 100 : 100;
      list.push({ day, status: t.status, uptime, incidents: t.incidents });
    }
    bars.set(service.id, list);
  }
  return bars;
}

/** Uptime over the days that have data, in percent: the mean of their daily uptimes. */
export function overallUptime(bars: DayBar[]): number | null {
  const known = bars.filter((b) => b.uptime !== null);
  if (known.length === 0) return null;
  return Math.floor((known.reduce((sum, b) => sum + (b.uptime as number), 0) / known.length) * 100) / 100;
}

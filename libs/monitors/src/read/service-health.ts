import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { ReadStore } from '../../../read-store/src/read-store.port';
import { MonitorStatus } from '../domain/round';
import { monitorRollupsProjection, rollupRange } from './monitor-rollups.projection';
import { serviceMonitorsProjection } from './service-monitors.projection';

/** What a service's linked monitors say about it: the worst state, the severity it would open, response times. */
export interface ServiceHealth {
  /** FAILING if any activated monitor fails, else DEGRADED if any is slow; null before any round. */
  state: MonitorStatus | null;
  /** The worst `triggerIncident` severity among the failing monitors. */
  severity: string | null;
  /** Average response time (ms) of the last CHART_HOURS hours, oldest first; null for an hour without runs. */
  hourly: (number | null)[];
}

export const CHART_HOURS = 24;
/** Monitors per service read for the chart: the state comes from all, the chart from these. */
const CHART_MONITORS = 10;
const LINKS_MAX = 1000;
const HOUR = 3_600_000;
const SEVERITY_RANK = ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'];

/** The health of each service that has activated monitors linked to it; absent services have none. */
export async function serviceHealth(store: ReadStore, engine: ProjectionEngine, accountId: string, serviceIds: string[], now: number): Promise<Map<string, ServiceHealth>> {
  const out = new Map<string, ServiceHealth>();
  if (serviceIds.length === 0) return out;
  const links = (await store.find(engine.collection(serviceMonitorsProjection), { filters: [{ field: 'serviceId', op: 'in', value: serviceIds }], limit: LINKS_MAX })).filter((l) => l.accountId === accountId && l.activated);
  if (links.length === 0) return out;
  const firstHour = Math.floor(now / HOUR) * HOUR - (CHART_HOURS - 1) * HOUR;
  const services = [...new Set(links.map((l) => l.serviceId))].map((serviceId) => ({ serviceId, own: links.filter((l) => l.serviceId === serviceId) }));
  // Every charted monitor's rollups asked at once: reads made together can go out together.
  const charted = [...new Set(services.flatMap(({ own }) => own.slice(0, CHART_MONITORS).map((link) => link.id)))];
  const rollupsOf = new Map(
    await Promise.all(
      charted.map(async (monitorId) => {
        const rollups = await store.find(engine.collection(monitorRollupsProjection), {
          filters: rollupRange(monitorId, 'h', new Date(firstHour).toISOString()),
          limit: CHART_HOURS,
        });
        return [monitorId, rollups] as const;
      }),
    ),
  );
  for (const { serviceId, own } of services) {
    const states = own.map((l) => ({ state: l.state, severity: l.severity }));
    const failing = states.filter((s) => s.state === 'FAILING');
    const state: MonitorStatus | null = failing.length > 0 ? 'FAILING' : states.some((s) => s.state === 'DEGRADED') ? 'DEGRADED' : states.some((s) => s.state === 'PASSING') ? 'PASSING' : null;
    const severity = failing.reduce<string | null>((worst, s) => (worst === null || SEVERITY_RANK.indexOf(s.severity) > SEVERITY_RANK.indexOf(worst) ? s.severity : worst), null);
    const sums = Array.from({ length: CHART_HOURS }, () => ({ ms: 0, runs: 0 }));
    for (const link of own.slice(0, CHART_MONITORS)) {
      for (const r of rollupsOf.get(link.id) ?? []) {
        const i = Math.floor((Date.parse(r.bucketAt) - firstHour) / HOUR);
        if (i < 0 || i >= CHART_HOURS) continue;
        sums[i].ms += r.sumMs;
        sums[i].runs += r.runs - r.failed;
      }
    }
    out.set(serviceId, { state, severity, hourly: sums.map((s) => (s.runs === 0 ? null : Math.round(s.ms / s.runs))) });
  }
  return out;
}

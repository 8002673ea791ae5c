import { IncidentSeverity, IncidentSummary } from './agent-data-source';

export type ServiceStatus = 'operational' | 'degraded performance' | 'partial outage' | 'major outage';

/** The public status pages' mapping: CRITICAL → major outage, MAJOR → partial outage, MEDIUM/MINOR → degraded. */
export function statusOfSeverity(severity: IncidentSeverity): ServiceStatus {
  if (severity === 'CRITICAL') return 'major outage';
  if (severity === 'MAJOR') return 'partial outage';
  return 'degraded performance';
}

const RANK: Record<ServiceStatus, number> = { operational: 0, 'degraded performance': 1, 'partial outage': 2, 'major outage': 3 };

export function worst(a: ServiceStatus, b: ServiceStatus): ServiceStatus {
  return RANK[a] >= RANK[b] ? a : b;
}

/** A service's status from the open incidents that name it. */
export function statusOfService(serviceId: string, openIncidents: IncidentSummary[]): ServiceStatus {
  let status: ServiceStatus = 'operational';
  for (const incident of openIncidents) {
    if (incident.status !== 'RESOLVED' && incident.services.some((s) => s.id === serviceId)) {
      status = worst(status, statusOfSeverity(incident.severity));
    }
  }
  return status;
}

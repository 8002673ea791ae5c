import { CheckSummary, HeartbeatEventSummary, IncidentDetails, IncidentStatus, IncidentSummary, NamedRef, StatusPageSummary } from './agent-data-source';
import { ServiceStatus, statusOfService, worst } from './service-status';

export type CheckState = 'up' | 'failing' | 'waiting for first ping' | 'paused';

export function checkState(check: CheckSummary): CheckState {
  if (!check.activated) return 'paused';
  if (!check.lastEvent) return 'waiting for first ping';
  return check.lastEvent.state === 'FAILING' ? 'failing' : 'up';
}

export type IncidentBrief = ReturnType<typeof incidentBrief>;

export const incidentBrief = (incident: IncidentSummary) => ({
  id: incident.id,
  name: incident.name,
  severity: incident.severity,
  status: incident.status,
  services: incident.services.map((s) => s.name),
  created_at: incident.created_at,
  updated_at: incident.updated_at,
  latestUpdate: incident.latestUpdate,
});

export interface PageSummaryOutput {
  id: string;
  name: string;
  url: string;
  overallStatus: ServiceStatus;
  services: (NamedRef & { status: ServiceStatus })[];
  openIncidents: IncidentBrief[];
  recentlyResolved: IncidentBrief[];
}

export interface WhatsDownOutput {
  failingChecks: { id: string; name: string; muted: boolean; lastFailingAt: string }[];
  degradedServices: (NamedRef & { status: ServiceStatus; incidents: IncidentBrief[] })[];
  openIncidents: number;
  activatedChecks: number;
  checksCut: boolean;
  incidentsCut: boolean;
}
export interface OpenIncidentsOutput {
  incidents: IncidentBrief[];
  more: boolean;
}
export interface IncidentOutput {
  incident: IncidentDetails;
}
export interface PagesOutput {
  pages: PageSummaryOutput[];
  more: boolean;
}
export interface ChecksOutput {
  checks: { id: string; name: string; state: CheckState; muted: boolean; periodSeconds: number | null; graceSeconds: number; lastEvent: CheckSummary['lastEvent'] }[];
  more: boolean;
}
export interface AvailabilityOutput {
  check: NamedRef;
  window: { startTime: string; endTime: string };
  totalEvents: number;
  failingEvents: number;
  successRatio: { previousPeriod?: number; currentPeriod?: number };
}
export interface EventsOutput {
  check: NamedRef & { state: CheckState };
  events: HeartbeatEventSummary[];
}
export interface DraftOutput {
  incident: { id: string; name: string; severity: IncidentSummary['severity']; status: IncidentStatus };
  status: IncidentStatus;
  draft: string;
  posted: false;
}

export function summarizePage(page: StatusPageSummary): PageSummaryOutput {
  const open = page.incidents.filter((incident) => incident.status !== 'RESOLVED');
  const seen = new Set<string>();
  const services: PageSummaryOutput['services'] = [];
  for (const card of page.cards) {
    for (const service of card.services) {
      if (seen.has(service.id)) continue;
      seen.add(service.id);
      services.push({ id: service.id, name: service.name, status: statusOfService(service.id, open) });
    }
  }
  return {
    id: page.id,
    name: page.name,
    url: page.url,
    overallStatus: services.reduce<ServiceStatus>((status, service) => worst(status, service.status), 'operational'),
    services,
    openIncidents: open.map(incidentBrief),
    recentlyResolved: page.incidents.filter((incident) => incident.status === 'RESOLVED').map(incidentBrief),
  };
}

/** When an incident was resolved: its RESOLVED update's time; null while open. */
export function resolvedAt(incident: IncidentSummary): string | null {
  if (incident.status !== 'RESOLVED') return null;
  return incident.latestUpdate?.publishedAt ?? incident.updated_at;
}

export type WindowIncident = IncidentBrief & { resolvedAt: string | null };
export const windowIncident = (incident: IncidentSummary): WindowIncident => ({ ...incidentBrief(incident), resolvedAt: resolvedAt(incident) });

/** Which incidents of a window: opened in it, resolved in it, or open at any time during it. */
export const INCIDENT_FILTERS = ['active', 'opened', 'resolved'] as const;
export type IncidentFilter = (typeof INCIDENT_FILTERS)[number];

export interface IncidentsOutput {
  window: { startTime: string; endTime: string };
  filter: IncidentFilter;
  incidents: WindowIncident[];
  /** The account has more incidents than were looked at: older ones may be missing. */
  more: boolean;
}

export interface FailuresOutput {
  window: { startTime: string; endTime: string };
  failedChecks: { id: string; name: string; failures: number; firstAt: string; lastAt: string }[];
  incidents: WindowIncident[];
  checksCut: boolean;
  incidentsCut: boolean;
}

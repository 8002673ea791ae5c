export type IncidentSeverity = 'CRITICAL' | 'MAJOR' | 'MEDIUM' | 'MINOR';
export type IncidentStatus = 'INVESTIGATING' | 'IDENTIFIED' | 'MONITORING' | 'RESOLVED';

export interface NamedRef {
  id: string;
  name: string;
}

interface IncidentUpdateSummary {
  status: IncidentStatus;
  description: string;
  publishedAt: string;
}

export interface IncidentSummary {
  id: string;
  name: string;
  severity: IncidentSeverity;
  status: IncidentStatus;
  services: NamedRef[];
  created_at: string;
  updated_at: string;
  latestUpdate: IncidentUpdateSummary | null;
}

export interface IncidentDetails extends IncidentSummary {
  updates: IncidentUpdateSummary[];
}

export interface StatusPageSummary {
  id: string;
  name: string;
  url: string;
  cards: { name: string; services: NamedRef[] }[];
  /** Open incidents touching the page's services, and those resolved in the last 7 days; newest first. */
  incidents: IncidentSummary[];
}

export interface CheckSummary {
  id: string;
  name: string;
  activated: boolean;
  muted: boolean;
  /** Expected ping period and grace, in seconds. */
  periodSeconds: number | null;
  graceSeconds: number;
  /** The service whose incidents the check opens, if any. */
  serviceId: string | null;
  /** The newest heartbeat event, null before the first ping. */
  lastEvent: { state: string; timestamp: string } | null;
}

export interface HeartbeatEventSummary {
  id: string;
  state: string;
  timestamp: string;
  source: string | null;
  userAgent: string | null;
}

export interface AvailabilitySummary {
  successRatio: { previousPeriod?: number; currentPeriod?: number };
  totalEntitiesCurrentPeriod: number;
}

/** A list that may have been cut at its limit. */
export interface Limited<T> {
  items: T[];
  more: boolean;
}

/**
 * Everything the agent's tools read, always for one account: implemented over the exported queries
 * of the incidents, status-pages and heartbeats contexts. Read-only by construction.
 */
export interface AgentDataSource {
  /** Open incidents, newest first. */
  openIncidents(accountId: string, limit: number): Promise<Limited<IncidentSummary>>;
  /** Every incident (open or resolved), newest first: for finding one by name. */
  recentIncidents(accountId: string, limit: number): Promise<Limited<IncidentSummary>>;
  /** One incident of the account with its whole timeline; null when absent or another account's. */
  incident(accountId: string, incidentId: string): Promise<IncidentDetails | null>;
  /** Status pages, newest first, with their cards and incidents. */
  statusPages(accountId: string, limit: number): Promise<Limited<StatusPageSummary>>;
  /** Heartbeat checks, newest first, each with its latest event. */
  checks(accountId: string, limit: number): Promise<Limited<CheckSummary>>;
  /** A check's events in [start, end], newest first; null when the account has no such check. */
  heartbeatEvents(accountId: string, checkId: string, window: { start: number; end: number }, limit: number): Promise<HeartbeatEventSummary[] | null>;
  /** A check's availability over [start, end] and the window of equal length before; null when not the account's. */
  availability(accountId: string, checkId: string, window: { start: number; end: number }): Promise<AvailabilitySummary | null>;
}

export const AGENT_DATA_SOURCE = Symbol('AGENT_DATA_SOURCE');

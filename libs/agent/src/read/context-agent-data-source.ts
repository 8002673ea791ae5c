import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { CheckDirectory, CheckView, HeartbeatStats } from '../../../heartbeats/src/heartbeats.api';
import { IncidentDirectory } from '../../../incidents/src/incidents.api';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { StatusPageDirectory, StatusPageView } from '../../../status-pages/src/status-pages.api';
import {
  AgentDataSource,
  AvailabilitySummary,
  CheckSummary,
  HeartbeatEventSummary,
  IncidentDetails,
  IncidentSeverity,
  IncidentStatus,
  IncidentSummary,
  Limited,
  StatusPageSummary,
} from '../domain/agent-data-source';

const UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };
const DAY_MS = 86_400_000;

/** The parts of an incident the agent reads: an IncidentView and a page's incidents both have them. */
interface IncidentLike {
  id: string;
  name: string;
  severity: IncidentSeverity;
  lastUpdateStatus: IncidentStatus;
  services: { id: string; name: string }[];
  incidentUpdates: { status: IncidentStatus; description: string; publicIncidentUpdateDate: string }[];
  created_at: string;
  updated_at: string;
}

function details(incident: IncidentLike): IncidentDetails {
  const updates = (incident.incidentUpdates ?? []).map((u) => ({ status: u.status, description: u.description, publishedAt: u.publicIncidentUpdateDate }));
  return {
    id: incident.id,
    name: incident.name,
    severity: incident.severity,
    status: incident.lastUpdateStatus,
    services: (incident.services ?? []).map((s) => ({ id: s.id, name: s.name })),
    created_at: incident.created_at,
    updated_at: incident.updated_at ?? incident.created_at,
    latestUpdate: updates.length > 0 ? updates[updates.length - 1] : null,
    updates,
  };
}

function summary(incident: IncidentLike): IncidentSummary {
  const { updates: _updates, ...rest } = details(incident);
  return rest;
}

function limited<T>(rows: T[], limit: number): Limited<T> {
  return { items: rows.slice(0, limit), more: rows.length > limit };
}

/**
 * The agent's reads, through the exported query services of the other contexts (IncidentDirectory,
 * StatusPageDirectory, CheckDirectory, HeartbeatStats), each already filtered by the account.
 */
@Injectable()
export class ContextAgentDataSource implements AgentDataSource {
  constructor(
    private readonly incidents: IncidentDirectory,
    private readonly pages: StatusPageDirectory,
    private readonly checkDirectory: CheckDirectory,
    private readonly stats: HeartbeatStats,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async openIncidents(accountId: string, limit: number): Promise<Limited<IncidentSummary>> {
    return limited((await this.incidents.list(accountId, limit, undefined, { status: 'open' })).map(summary), limit);
  }

  async recentIncidents(accountId: string, limit: number): Promise<Limited<IncidentSummary>> {
    return limited((await this.incidents.list(accountId, limit, undefined)).map(summary), limit);
  }

  async incident(accountId: string, incidentId: string): Promise<IncidentDetails | null> {
    if (!isUuid(incidentId)) return null;
    const found = await this.incidents.get(accountId, incidentId.toLowerCase());
    return found ? details(found.incident) : null;
  }

  async statusPages(accountId: string, limit: number): Promise<Limited<StatusPageSummary>> {
    const docs = await this.pages.listDocs(accountId, limit, undefined);
    const views: StatusPageView[] = await this.pages.present(accountId, docs.slice(0, limit));
    const items = views.map((page) => ({
      id: page.id,
      name: page.name,
      url: page.url,
      cards: page.cards.map((card) => ({ name: card.name, services: card.services.map((s) => ({ id: s.id, name: s.name })) })),
      incidents: page.incidents.map(summary),
    }));
    return { items, more: docs.length > limit };
  }

  async checks(accountId: string, limit: number): Promise<Limited<CheckSummary>> {
    const rows = await this.checkDirectory.list(accountId, limit, undefined);
    const shown = rows.slice(0, limit);
    const window = this.retainedWindow();
    const latest = await Promise.all(shown.map((check) => this.stats.events(check.id, window, 1)));
    const items = shown.map((check: CheckView, i) => {
      const last = latest[i][0];
      return {
        id: check.id,
        name: check.name,
        activated: check.activated,
        muted: check.muted,
        // A schedule check has no period.
        periodSeconds: check.heartbeat.period !== null && check.heartbeat.periodUnit ? check.heartbeat.period * (UNIT_SECONDS[check.heartbeat.periodUnit] ?? 1) : null,
        graceSeconds: check.heartbeat.grace * (UNIT_SECONDS[check.heartbeat.graceUnit] ?? 1),
        serviceId: check.triggerIncident?.serviceId ?? null,
        lastEvent: last ? { state: last.state, timestamp: last.timestamp } : null,
      };
    });
    return { items, more: rows.length > limit };
  }

  async heartbeatEvents(accountId: string, checkId: string, window: { start: number; end: number }, limit: number): Promise<HeartbeatEventSummary[] | null> {
    if (!isUuid(checkId) || !(await this.checkDirectory.owns(accountId, checkId))) return null;
    return this.stats.events(checkId, window, limit);
  }

  async availability(accountId: string, checkId: string, window: { start: number; end: number }): Promise<AvailabilitySummary | null> {
    if (!isUuid(checkId) || !(await this.checkDirectory.owns(accountId, checkId))) return null;
    return this.stats.availability(checkId, window);
  }

  /** Raw events older than the retention are gone; the latest event lies within it or nowhere. */
  private retainedWindow(): { start: number; end: number } {
    const now = this.clock.now().getTime();
    return { start: now - this.config.eventRetentionDays * DAY_MS, end: now };
  }
}

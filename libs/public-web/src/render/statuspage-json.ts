import { IncidentView } from '../../../incidents/src/incidents.api';
import { ComponentStatus, IMPACT_OF_SEVERITY, INDICATOR_DESCRIPTION, worse } from '../read/component-status';
import { PublicMaintenance } from '../read/public-maintenance';
import { PublicPageModel } from '../read/public-pages.query';

/**
 * Statuspage's public v2 JSON (https://metastatuspage.com/api/v2/): the same field names, enums and
 * nesting, so widgets and aggregators written for Statuspage read Vigil. Cards are component groups.
 */
export class StatuspageJson {
  constructor(
    readonly model: PublicPageModel,
    /** Absolute URL of the page, for `page.url` and incidents' `shortlink`. */
    private readonly pageUrl: string,
  ) {}

  page() {
    const { page } = this.model;
    return { id: page.id, name: page.name, url: this.pageUrl, time_zone: 'Etc/UTC', updated_at: latest([page.updated_at, ...this.model.services.map((s) => s.updated_at)]) };
  }

  status() {
    return { indicator: this.model.indicator, description: INDICATOR_DESCRIPTION[this.model.indicator] };
  }

  components() {
    const { model } = this;
    const groupOf = new Map<string, string>();
    for (const card of model.cards) for (const s of card.services) if (!groupOf.has(s.id)) groupOf.set(s.id, card.id);
    const out: Record<string, unknown>[] = [];
    let position = 1;
    for (const card of model.cards) {
      const own = card.services.filter((s) => groupOf.get(s.id) === card.id);
      const status = card.services.map((s) => s.status).reduce(worse, 'operational');
      out.push({
        ...this.component(card.id, card.name, status, card.created_at, card.updated_at, position++, null),
        group: true,
        components: own.map((s) => s.id),
      });
      for (const s of own) out.push({ ...this.component(s.id, s.name, s.status, s.created_at, s.updated_at, position++, card.id, s.description), group: false });
    }
    return out;
  }

  incident(incident: IncidentView) {
    const updates = incident.incidentUpdates;
    const firstAt = (status: string) => updates.find((u) => u.status === status)?.publicIncidentUpdateDate ?? null;
    const resolved = incident.lastUpdateStatus === 'RESOLVED';
    return {
      id: incident.id,
      name: incident.name,
      status: incident.lastUpdateStatus.toLowerCase(),
      created_at: incident.created_at,
      updated_at: incident.updated_at,
      monitoring_at: firstAt('MONITORING'),
      resolved_at: resolved ? (updates[updates.length - 1]?.publicIncidentUpdateDate ?? null) : null,
      impact: IMPACT_OF_SEVERITY[incident.severity],
      shortlink: `${this.pageUrl}/incidents/${incident.id}`,
      started_at: updates[0]?.publicIncidentUpdateDate ?? incident.created_at,
      page_id: this.model.page.id,
      incident_updates: [...updates].reverse().map((u) => ({
        id: u.id,
        status: u.status.toLowerCase(),
        body: u.description,
        incident_id: incident.id,
        created_at: u.created_at,
        updated_at: u.created_at,
        display_at: u.publicIncidentUpdateDate,
        affected_components: null,
        deliver_notifications: u.notifySubscribers,
        custom_tweet: null,
        tweet_id: null,
      })),
      components: this.shownComponents(incident.services.map((s) => s.id)),
    };
  }

  maintenance(window: PublicMaintenance) {
    const at = this.model.now.toISOString();
    return {
      id: window.id,
      name: window.name,
      status: window.startsAt <= at ? 'in_progress' : 'scheduled',
      created_at: window.created_at,
      updated_at: window.updated_at,
      monitoring_at: null,
      resolved_at: null,
      impact: 'maintenance',
      shortlink: this.pageUrl,
      started_at: window.startsAt,
      page_id: this.model.page.id,
      incident_updates: [],
      components: this.shownComponents(window.serviceIds),
      scheduled_for: window.startsAt,
      scheduled_until: window.endsAt,
    };
  }

  summary() {
    const { maintenance, open } = this.model;
    return {
      page: this.page(),
      components: this.components(),
      incidents: open.map((i) => this.incident(i)),
      scheduled_maintenances: [...maintenance.active, ...maintenance.upcoming].map((w) => this.maintenance(w)),
      status: this.status(),
    };
  }

  /** The components of these services that the page shows, as an incident or a maintenance lists them. */
  private shownComponents(serviceIds: string[]) {
    const byId = new Map(this.model.services.map((s) => [s.id, s]));
    return serviceIds.flatMap((id) => {
      const s = byId.get(id);
      return s ? [{ ...this.component(s.id, s.name, s.status, s.created_at, s.updated_at, 0, null, s.description), group: false }] : [];
    });
  }

  private component(id: string, name: string, status: ComponentStatus, created: string, updated: string, position: number, groupId: string | null, description: string | null = null) {
    return {
      id,
      name,
      status,
      created_at: created,
      updated_at: updated,
      position,
      description,
      showcase: true,
      start_date: created.slice(0, 10),
      group_id: groupId,
      page_id: this.model.page.id,
      only_show_if_degraded: false,
    };
  }
}

function latest(dates: string[]): string {
  return dates.reduce((a, b) => (b > a ? b : a));
}

type RouteBody = (json: StatuspageJson, latest: () => Promise<IncidentView[]>) => unknown;
const pageWith = (json: StatuspageJson, fields: Record<string, unknown>) => ({ page: json.page(), ...fields });
const maintenances = (json: StatuspageJson, windows: PublicMaintenance[]) => pageWith(json, { scheduled_maintenances: windows.map((w) => json.maintenance(w)) });

/** The answers of the v2 routes, by the path after `api/v2/`; `latest` reads the page's latest incidents. */
export const STATUSPAGE_ROUTES = new Map<string, RouteBody>([
  ['summary.json', (json) => json.summary()],
  ['status.json', (json) => pageWith(json, { status: json.status() })],
  ['components.json', (json) => pageWith(json, { components: json.components() })],
  ['incidents.json', async (json, latest) => pageWith(json, { incidents: (await latest()).map((i) => json.incident(i)) })],
  ['incidents/unresolved.json', (json) => pageWith(json, { incidents: json.model.open.map((i) => json.incident(i)) })],
  ['scheduled-maintenances.json', (json) => maintenances(json, [...json.model.maintenance.active, ...json.model.maintenance.upcoming])],
  ['scheduled-maintenances/upcoming.json', (json) => maintenances(json, json.model.maintenance.upcoming)],
  ['scheduled-maintenances/active.json', (json) => maintenances(json, json.model.maintenance.active)],
]);

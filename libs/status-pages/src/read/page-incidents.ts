import { Injectable } from '@nestjs/common';
import { ServiceView } from './service-directory';

/**
 * An incident as every response shows it (the full Incident shape of api.md), built by the incidents
 * context (its IncidentView has this shape; the compiler checks both ways where they meet). Pages use
 * its id, created_at and services; the rest is passed through.
 */
export interface PageIncident {
  id: string;
  name: string;
  severity: 'CRITICAL' | 'MAJOR' | 'MEDIUM' | 'MINOR';
  lastUpdateStatus: PageIncidentStatus;
  services: ServiceView[];
  incidentUpdates: {
    id: string;
    description: string;
    status: PageIncidentStatus;
    publicIncidentUpdateDate: string;
    notifySubscribers: boolean;
    created_at: string;
  }[];
  created_at: string;
  updated_at: string;
}

type PageIncidentStatus = 'INVESTIGATING' | 'IDENTIFIED' | 'MONITORING' | 'RESOLVED';

/**
 * Incidents of the account touching any of `serviceIds` that are open, or were resolved at or after
 * `since`, in the full Incident shape.
 */
export type PageIncidentsSource = (accountId: string, serviceIds: string[], since: Date) => Promise<PageIncident[]>;

/** Where the incidents context plugs in its query, so this context never imports its internals. */
@Injectable()
export class PageIncidents {
  private readonly sources: PageIncidentsSource[] = [];
  private readonly collections: (() => readonly string[])[] = [];

  /** `collections`: the read-model collections the source answers from now (for change tokens). */
  register(source: PageIncidentsSource, collections: () => readonly string[]): void {
    this.sources.push(source);
    this.collections.push(collections);
  }

  /** Every collection pages' incidents are read from, as the sources name them now. */
  readFrom(): string[] {
    return this.collections.flatMap((collections) => collections());
  }

  /** Until a source registers, pages have no incidents. */
  async touching(accountId: string, serviceIds: string[], since: Date): Promise<PageIncident[]> {
    if (serviceIds.length === 0 || this.sources.length === 0) return [];
    const byId = new Map<string, PageIncident>();
    for (const source of this.sources) {
      for (const incident of await source(accountId, serviceIds, since)) if (!byId.has(incident.id)) byId.set(incident.id, incident);
    }
    return [...byId.values()];
  }
}

/** How long a resolved incident stays on its pages. */
export const RESOLVED_INCIDENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Newest first: created_at descending, then id descending, like every list. */
export function newestFirst(a: PageIncident, b: PageIncident): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The incidents that touch a page with these services, newest first. */
export function incidentsOfPage(incidents: PageIncident[], pageServiceIds: string[]): PageIncident[] {
  const own = new Set(pageServiceIds);
  return incidents.filter((incident) => incident.services.some((service) => own.has(service.id))).sort(newestFirst);
}

/**
 * The last instant (ms) at which every incident in `incidents` is still within its pages' window: the
 * earliest `resolved + 7 days` among the resolved ones (the resolution time is the public date of the
 * resolving update, the last of the chronological timeline). Open incidents stay whatever the time, and an
 * incident not shown cannot come back as time passes, so nothing else ends a list's validity. An incident
 * without a readable timeline makes the answer "now" (nothing may be reused).
 */
export function shownUntil(incidents: Iterable<{ lastUpdateStatus: string; incidentUpdates?: unknown }>, now: number): number {
  let until = Number.POSITIVE_INFINITY;
  for (const incident of incidents) {
    if (incident.lastUpdateStatus !== 'RESOLVED') continue;
    const updates = incident.incidentUpdates;
    if (!Array.isArray(updates) || updates.length === 0) return now;
    let resolved = Number.NEGATIVE_INFINITY;
    for (const update of updates) {
      const at = Date.parse((update as { publicIncidentUpdateDate?: unknown })?.publicIncidentUpdateDate as string);
      if (Number.isNaN(at)) return now;
      if (at > resolved) resolved = at;
    }
    until = Math.min(until, resolved + RESOLVED_INCIDENT_WINDOW_MS);
  }
  return until;
}

import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { CheckState, CheckSummary, CheckView, HeartbeatsQuery } from '../../../heartbeats/src/heartbeats.api';
import { IncidentsQuery, IncidentView, SEVERITIES } from '../../../incidents/src/incidents.api';
import { MaintenanceQuery, MaintenanceWindowView } from '../../../maintenance/src/maintenance.api';
import { ServiceView, StatusPagesQuery } from '../../../status-pages/src/status-pages.api';

/** How many rows a console list reads at most (one page; the API pages further). */
export const LIST_LIMIT = 500;

/** Checks on one page of the checks list, and on the overview. */
export const CHECKS_PER_PAGE = 50;

/** States in the order the overview counts them. */
const STATES = ['FAILING', 'LATE', 'NEW', 'UP', 'PAUSED'] as const;

export const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') + ' UTC' : 'never');

export interface OverviewData {
  incidents: IncidentView[];
  services: { id: string; name: string; status: string; statusText: string }[];
  checks: (CheckView & { lastPingText: string })[];
  /** How many checks the account has, and how many of each state. */
  checkCount: number;
  stateCounts: { state: string; count: number }[];
  maintenance: { name: string; when: string }[];
  /** Changes whenever anything shown changes: what the event stream compares. */
  version: string;
  asOf: string;
}

/** The console's reads: every one a question to another context's query handler. */
@Injectable()
export class ConsoleReads {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  services(accountId: string): Promise<ServiceView[]> {
    return this.queries.execute(new StatusPagesQuery({ type: 'ListServices', accountId, limit: LIST_LIMIT, after: undefined }));
  }

  incidents(accountId: string, status?: 'open' | 'resolved'): Promise<IncidentView[]> {
    return this.queries.execute(new IncidentsQuery({ type: 'ListIncidents', accountId, limit: LIST_LIMIT, filter: status ? { status } : {} }));
  }

  /** One page of the account's checks, failing first (then by name), each with its last ping in words. */
  async checks(accountId: string, filter: { state?: CheckState; tag?: string } = {}, offset = 0, limit = CHECKS_PER_PAGE) {
    const page = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckPage', accountId, ...filter, offset, limit }));
    return { total: page.total, checks: page.checks.map((c) => ({ ...c, lastPingText: c.lastPingAt ? `last ping ${when(c.lastPingAt)}` : 'no ping yet' })) };
  }

  /** Counts of the account's checks by state and per alert channel, and their tags. */
  checkSummary(accountId: string): Promise<CheckSummary> {
    return this.queries.execute(new HeartbeatsQuery({ type: 'CheckSummary', accountId }));
  }

  async overview(accountId: string): Promise<OverviewData> {
    const [open, services, checks, summary, windows] = await Promise.all([
      this.incidents(accountId, 'open'),
      this.services(accountId),
      this.checks(accountId),
      this.checkSummary(accountId),
      this.queries.execute(new MaintenanceQuery({ type: 'ListMaintenanceWindows', accountId, limit: LIST_LIMIT })),
    ]);
    const incidents = open.slice(0, LIST_LIMIT);
    const now = this.clock.now().toISOString();
    const data = {
      incidents,
      services: services.slice(0, LIST_LIMIT).map((s) => serviceStatus(s, incidents)),
      checks: checks.checks,
      checkCount: summary.total,
      stateCounts: STATES.map((state) => ({ state, count: summary.byState[state] })).filter((c) => c.count > 0),
      maintenance: windows.filter((w) => current(w, now)).map((w) => ({ name: w.name, when: windowText(w, now) })),
    };
    const version = createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 16);
    return { ...data, version, asOf: when(now) };
  }
}

/** A service's status: the worst severity of the open incidents touching it, else operational. */
function serviceStatus(service: ServiceView, open: IncidentView[]) {
  const severities = open.filter((i) => i.services.some((s) => s.id === service.id)).map((i) => SEVERITIES.indexOf(i.severity));
  if (severities.length === 0) return { id: service.id, name: service.name, status: 'OPERATIONAL', statusText: 'Operational' };
  const worst = SEVERITIES[Math.min(...severities)];
  return { id: service.id, name: service.name, status: worst, statusText: `${worst} incident` };
}

/** Active now or still to come (a repeating window until its repeats end). */
function current(w: MaintenanceWindowView, now: string): boolean {
  if (w.repeatInterval && w.repeatUnit) return w.repeatEndsAt === null || w.repeatEndsAt > now;
  return w.endsAt > now;
}

function windowText(w: MaintenanceWindowView, now: string): string {
  const repeat = w.repeatInterval && w.repeatUnit ? `, repeats every ${w.repeatInterval} ${w.repeatUnit.toLowerCase()}` : '';
  const active = w.startsAt <= now && now < w.endsAt ? 'Active: ' : '';
  return `${active}${when(w.startsAt)} – ${when(w.endsAt)}${repeat}`;
}

import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { CheckView, HeartbeatsQuery } from '../../../heartbeats/src/heartbeats.api';
import { IncidentsQuery, IncidentView, SEVERITIES } from '../../../incidents/src/incidents.api';
import { MaintenanceQuery, MaintenanceWindowView } from '../../../maintenance/src/maintenance.api';
import { ServiceView, StatusPagesQuery } from '../../../status-pages/src/status-pages.api';

/** How many rows a console list reads at most (one page; the API pages further). */
export const LIST_LIMIT = 500;

/** Most checks a console list or the overview reads (the API pages further). */
export const MAX_CHECKS = 10_000;
/** Checks read per question: most accounts' checks in one read. */
const CHECKS_PER_QUERY = 2_000;
/** Checks on one page of the checks list, and on the overview. */
export const CHECKS_PER_PAGE = 50;

/** Failing first, then late, then the rest; by name within a state. */
const STATE_ORDER: Record<string, number> = { FAILING: 0, LATE: 1, NEW: 2, UP: 3, PAUSED: 4 };

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

  /** Every check of the account (up to MAX_CHECKS), failing first: lists page them, the overview shows the first. */
  async checks(accountId: string): Promise<(CheckView & { lastPingText: string })[]> {
    const checks: CheckView[] = [];
    for (let after: { value: string; id: string } | undefined; checks.length < MAX_CHECKS; ) {
      const page = await this.queries.execute(new HeartbeatsQuery({ type: 'ListChecks', accountId, limit: CHECKS_PER_QUERY, after }));
      checks.push(...page.slice(0, CHECKS_PER_QUERY));
      if (page.length <= CHECKS_PER_QUERY) break;
      const last = page[CHECKS_PER_QUERY - 1];
      after = { value: last.created_at, id: last.id };
    }
    return checks
      .sort((a, b) => (STATE_ORDER[a.state] ?? 9) - (STATE_ORDER[b.state] ?? 9) || a.name.localeCompare(b.name))
      .map((c) => ({ ...c, lastPingText: c.lastPingAt ? `last ping ${when(c.lastPingAt)}` : 'no ping yet' }));
  }

  async overview(accountId: string): Promise<OverviewData> {
    const [open, services, checks, windows] = await Promise.all([
      this.incidents(accountId, 'open'),
      this.services(accountId),
      this.checks(accountId),
      this.queries.execute(new MaintenanceQuery({ type: 'ListMaintenanceWindows', accountId, limit: LIST_LIMIT })),
    ]);
    const incidents = open.slice(0, LIST_LIMIT);
    const now = this.clock.now().toISOString();
    const data = {
      incidents,
      services: services.slice(0, LIST_LIMIT).map((s) => serviceStatus(s, incidents)),
      checks: checks.slice(0, CHECKS_PER_PAGE),
      checkCount: checks.length,
      stateCounts: Object.keys(STATE_ORDER).map((state) => ({ state, count: checks.filter((c) => c.state === state).length })).filter((c) => c.count > 0),
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

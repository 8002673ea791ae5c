import {
  AgentDataSource,
  AvailabilitySummary,
  CheckSummary,
  HeartbeatEventSummary,
  IncidentDetails,
  IncidentStatus,
  Limited,
  NamedRef,
  StatusPageSummary,
} from '../domain/agent-data-source';

/** Tuesday afternoon: "yesterday" is Monday 9 March, "the last 7 days" start Tuesday 3 March 15:30. */
export const NOW = new Date('2026-03-10T15:30:00.000Z');
export const ACME = 'acct-acme';
export const OTHER = 'acct-other';

const id = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

const service = (n: number, name: string): NamedRef => ({ id: id(100 + n), name });
const publicApi = service(1, 'Public API');
const checkout = service(2, 'Checkout');
const dashboard = service(3, 'Dashboard');
const email = service(4, 'Email delivery');
const database = service(5, 'Database');

function incident(n: number, name: string, severity: IncidentDetails['severity'], services: NamedRef[], updates: [IncidentStatus, string, string][]): IncidentDetails {
  const timeline = updates.map(([status, publishedAt, description]) => ({ status, publishedAt, description }));
  const last = timeline[timeline.length - 1];
  return { id: id(n), name, severity, status: last.status, services, created_at: timeline[0].publishedAt, updated_at: last.publishedAt, latestUpdate: last, updates: timeline };
}

export const INCIDENTS = {
  apiLatency: incident(6, 'API latency in eu-west', 'MINOR', [publicApi], [
    ['INVESTIGATING', '2026-03-10T13:00:00.000Z', 'Requests to the public API from eu-west are slower than usual.'],
    ['MONITORING', '2026-03-10T14:10:00.000Z', 'Traffic was moved to a healthy zone; we are watching response times.'],
  ]),
  delayedEmail: incident(5, 'Delayed email notifications', 'MEDIUM', [email], [
    ['INVESTIGATING', '2026-03-10T08:00:00.000Z', 'Some notification emails arrive late.'],
    ['IDENTIFIED', '2026-03-10T08:45:00.000Z', 'A queue worker is stuck on a malformed message.'],
  ]),
  checkoutPayments: incident(4, 'Checkout payments failing', 'CRITICAL', [checkout], [
    ['INVESTIGATING', '2026-03-09T18:20:00.000Z', 'Card payments fail at checkout.'],
    ['IDENTIFIED', '2026-03-09T18:42:00.000Z', "Our payment provider's webhook certificate expired."],
    ['RESOLVED', '2026-03-09T19:05:00.000Z', 'The certificate was renewed and payments succeed again.'],
  ]),
  elevatedApiErrors: incident(3, 'Elevated API error rates', 'MAJOR', [publicApi], [
    ['INVESTIGATING', '2026-03-08T09:12:00.000Z', 'We are seeing elevated 5xx error rates on the public API.'],
    ['IDENTIFIED', '2026-03-08T09:40:00.000Z', 'A bad deploy of the rate limiter rejected valid tokens.'],
    ['MONITORING', '2026-03-08T10:05:00.000Z', 'The deploy was rolled back.'],
    ['RESOLVED', '2026-03-08T10:30:00.000Z', 'Error rates are back to normal.'],
  ]),
  dashboardLogin: incident(2, 'Dashboard login errors', 'MAJOR', [dashboard], [
    ['INVESTIGATING', '2026-03-03T11:00:00.000Z', 'Some users cannot sign in to the dashboard.'],
    ['RESOLVED', '2026-03-03T12:30:00.000Z', 'Sign-in works again.'],
  ]),
  databaseMaintenance: incident(1, 'Database maintenance overran', 'MINOR', [database], [
    ['INVESTIGATING', '2026-02-20T02:00:00.000Z', 'Planned database maintenance is taking longer than announced.'],
    ['RESOLVED', '2026-02-20T04:00:00.000Z', 'Maintenance is complete.'],
  ]),
  webhookErrors: incident(7, 'Elevated error rates on webhooks', 'MINOR', [publicApi], [
    ['INVESTIGATING', '2026-01-15T16:00:00.000Z', 'Webhook deliveries fail more often than usual.'],
    ['RESOLVED', '2026-01-15T17:20:00.000Z', 'Webhook deliveries are back to normal.'],
  ]),
};

export const OTHER_INCIDENT = incident(90, 'Payroll export outage', 'CRITICAL', [], [['INVESTIGATING', '2026-03-10T09:00:00.000Z', 'Payroll exports fail.']]);

type Event = [state: string, timestamp: string];

function check(n: number, name: string, events: Event[], activated = true): CheckSummary & { events: HeartbeatEventSummary[] } {
  const list = events
    .map(([state, timestamp], i) => ({ id: id(1000 + n * 50 + i), state, timestamp, source: state === 'FAILING' ? 'watchdog' : '203.0.113.7', userAgent: null }))
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  const last = list[0];
  return { id: id(50 + n), name, activated, muted: false, periodSeconds: 3600, graceSeconds: 300, serviceId: null, lastEvent: last ? { state: last.state, timestamp: last.timestamp } : null, events: list };
}

export const CHECKS = {
  nightlyBackup: check(1, 'nightly-backup', [
    ['RECEIVED', '2026-03-08T02:00:00.000Z'],
    ['RECEIVED', '2026-03-09T02:00:00.000Z'],
    ['FAILING', '2026-03-10T02:05:00.000Z'],
  ]),
  billingSync: check(2, 'billing-sync', [
    ['RECEIVED', '2026-03-09T17:00:00.000Z'],
    ['FAILING', '2026-03-09T18:10:00.000Z'],
    ['FAILING', '2026-03-09T18:40:00.000Z'],
    ['RECEIVED', '2026-03-09T19:00:00.000Z'],
    ['RECEIVED', '2026-03-10T15:00:00.000Z'],
  ]),
  searchReindex: check(3, 'search-reindex', [
    ['RECEIVED', '2026-03-09T12:00:00.000Z'],
    ['RECEIVED', '2026-03-10T12:00:00.000Z'],
  ]),
  certRenewal: check(4, 'cert-renewal', [], false),
};

export const OTHER_CHECK = check(90, 'payroll-export', [['FAILING', '2026-03-09T10:00:00.000Z']]);

const page: StatusPageSummary = {
  id: id(200),
  name: 'Acme Status',
  url: 'acme',
  cards: [{ name: 'Platform', services: [publicApi, checkout, dashboard, email, database] }],
  incidents: [INCIDENTS.apiLatency, INCIDENTS.delayedEmail, INCIDENTS.checkoutPayments, INCIDENTS.elevatedApiErrors],
};

type Account = { incidents: IncidentDetails[]; checks: (CheckSummary & { events: HeartbeatEventSummary[] })[]; pages: StatusPageSummary[] };

/** The account's data read as the real data source reads it: per account, newest first, within windows. */
export class FixtureAccounts implements AgentDataSource {
  readonly accountsRead = new Set<string>();
  private readonly accounts: Record<string, Account> = {
    [ACME]: {
      incidents: Object.values(INCIDENTS).sort((a, b) => b.created_at.localeCompare(a.created_at)),
      checks: Object.values(CHECKS),
      pages: [page],
    },
    [OTHER]: { incidents: [OTHER_INCIDENT], checks: [OTHER_CHECK], pages: [] },
  };

  private of(accountId: string): Account {
    this.accountsRead.add(accountId);
    return this.accounts[accountId] ?? { incidents: [], checks: [], pages: [] };
  }

  private limit<T>(items: T[], limit: number): Limited<T> {
    return { items: items.slice(0, limit), more: items.length > limit };
  }

  private strip(incident: IncidentDetails) {
    const { updates: _updates, ...summary } = incident;
    return summary;
  }

  async openIncidents(accountId: string, limit: number) {
    return this.limit(this.of(accountId).incidents.filter((i) => i.status !== 'RESOLVED').map((i) => this.strip(i)), limit);
  }
  async recentIncidents(accountId: string, limit: number) {
    return this.limit(this.of(accountId).incidents.map((i) => this.strip(i)), limit);
  }
  async incident(accountId: string, incidentId: string) {
    return this.of(accountId).incidents.find((i) => i.id === incidentId) ?? null;
  }
  async statusPages(accountId: string, limit: number) {
    return this.limit(this.of(accountId).pages, limit);
  }
  async checks(accountId: string, limit: number) {
    return this.limit(this.of(accountId).checks.map(({ events: _events, ...check }) => check), limit);
  }
  async heartbeatEvents(accountId: string, checkId: string, window: { start: number; end: number }, limit: number): Promise<HeartbeatEventSummary[] | null> {
    const check = this.of(accountId).checks.find((c) => c.id === checkId);
    if (!check) return null;
    return check.events.filter((e) => Date.parse(e.timestamp) >= window.start && Date.parse(e.timestamp) <= window.end).slice(0, limit);
  }
  async availability(accountId: string, checkId: string, window: { start: number; end: number }): Promise<AvailabilitySummary | null> {
    const current = await this.heartbeatEvents(accountId, checkId, window, 10_000);
    if (current === null) return null;
    const previous = (await this.heartbeatEvents(accountId, checkId, { start: 2 * window.start - window.end, end: window.start - 1 }, 10_000)) ?? [];
    const ratio = (events: HeartbeatEventSummary[]) => (events.length === 0 ? undefined : events.filter((e) => e.state !== 'FAILING').length / events.length);
    return { successRatio: { currentPeriod: ratio(current), previousPeriod: ratio(previous) }, totalEntitiesCurrentPeriod: current.length };
  }
}

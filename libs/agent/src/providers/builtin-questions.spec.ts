import { AgentEvent } from '../domain/agent-events';
import { AgentToolbox } from '../domain/agent-tools';
import { BuiltinProvider } from './builtin.provider';
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

// ---- the accounts the questions are asked about

/** Tuesday afternoon: "yesterday" is Monday 9 March, "the last 7 days" start Tuesday 3 March 15:30. */
const NOW = new Date('2026-03-10T15:30:00.000Z');
const ACME = 'acct-acme';
const OTHER = 'acct-other';

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

const INCIDENTS = {
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

const OTHER_INCIDENT = incident(90, 'Payroll export outage', 'CRITICAL', [], [['INVESTIGATING', '2026-03-10T09:00:00.000Z', 'Payroll exports fail.']]);

type Event = [state: string, timestamp: string];

function check(n: number, name: string, events: Event[], activated = true): CheckSummary & { events: HeartbeatEventSummary[] } {
  const list = events
    .map(([state, timestamp], i) => ({ id: id(1000 + n * 50 + i), state, timestamp, source: state === 'FAILING' ? 'watchdog' : '203.0.113.7', userAgent: null }))
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  const last = list[0];
  return { id: id(50 + n), name, activated, muted: false, periodSeconds: 3600, graceSeconds: 300, serviceId: null, lastEvent: last ? { state: last.state, timestamp: last.timestamp } : null, events: list };
}

const CHECKS = {
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

const OTHER_CHECK = check(90, 'payroll-export', [['FAILING', '2026-03-09T10:00:00.000Z']]);

const page: StatusPageSummary = {
  id: id(200),
  name: 'Acme Status',
  url: 'acme',
  cards: [{ name: 'Platform', services: [publicApi, checkout, dashboard, email, database] }],
  incidents: [INCIDENTS.apiLatency, INCIDENTS.delayedEmail, INCIDENTS.checkoutPayments, INCIDENTS.elevatedApiErrors],
};

type Account = { incidents: IncidentDetails[]; checks: (CheckSummary & { events: HeartbeatEventSummary[] })[]; pages: StatusPageSummary[] };

/** The account's data read as the real data source reads it: per account, newest first, within windows. */
class FixtureAccounts implements AgentDataSource {
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

// ---- the questions
const I = INCIDENTS;
const C = CHECKS;
const CANT = "I can't answer that";
const CHOOSE = 'which one do you mean?';

async function ask(question: string, data = new FixtureAccounts()) {
  const errors: unknown[] = [];
  const tools = new AgentToolbox({ data, accountId: ACME, now: NOW }, (error) => errors.push(error));
  const events: AgentEvent[] = [];
  for await (const event of new BuiltinProvider().run({ accountId: ACME, messages: [{ role: 'user', text: question }], tools, now: NOW, signal: new AbortController().signal })) {
    events.push(event);
  }
  const text = events.map((e) => (e.type === 'text-delta' ? e.delta : '')).join('');
  return { text, errors, data };
}

/** [question, facts the answer must contain, facts it must not contain]. */
type Case = [string, string[], string[]];

const NEVER = [OTHER_INCIDENT.name, OTHER_CHECK.name, 'T00:00:00.000Z'.replace(/^/, 'undefined')];

const CASES: Case[] = [
  // A named incident, with or without quotes, with small typos.
  ['Tell me about the Elevated API error rates incident', [`Incident "${I.elevatedApiErrors.name}"`, 'A bad deploy of the rate limiter', 'Timeline (4 updates)'], [I.webhookErrors.name, I.apiLatency.name, CHOOSE]],
  ['tell me about the "Elevated API error rates" incident', [`Incident "${I.elevatedApiErrors.name}"`], [I.webhookErrors.name, CHOOSE]],
  ['Tell me about the elevated APi eror rates incident', [`Incident "${I.elevatedApiErrors.name}"`], [I.webhookErrors.name, CHOOSE]],
  ['what happened with elevated api error rate?', [`Incident "${I.elevatedApiErrors.name}"`, 'Error rates are back to normal.'], [I.webhookErrors.name]],
  ['Give me the details of the Elevatd API error rates', [`Incident "${I.elevatedApiErrors.name}"`], [I.webhookErrors.name]],
  ['tell me about the database incident', [`Incident "${I.databaseMaintenance.name}"`, 'Maintenance is complete.'], [CHOOSE]],
  ['Tell me about the email delay', [`Incident "${I.delayedEmail.name}"`], [CHOOSE, I.checkoutPayments.name]],
  [`Tell me about incident ${I.checkoutPayments.id}`, [`Incident "${I.checkoutPayments.name}" (${I.checkoutPayments.id})`], [CHOOSE]],
  ['How long did the checkout incident last?', [`Incident "${I.checkoutPayments.name}"`, 'RESOLVED: The certificate was renewed'], [I.elevatedApiErrors.name]],
  // Several candidates: a short list to choose from, no details of any.
  ['Tell me about the elevated error rates incident', [CHOOSE, I.elevatedApiErrors.name, I.webhookErrors.name], ['Timeline', I.checkoutPayments.name]],
  ['Tell me about the API incident', [CHOOSE, I.elevatedApiErrors.name, I.apiLatency.name], ['Timeline', I.dashboardLogin.name]],
  // Nothing of that name: said, not guessed.
  ['Tell me about the incident "Totally unknown thing"', [CANT, 'found no incident'], ['Timeline', 'Severity']],
  ['Tell me about the payroll export outage', [CANT, 'found no incident'], ['Timeline', OTHER_INCIDENT.id]],
  [`Tell me about incident ${OTHER_INCIDENT.id}`, [`No incident of this account matches "${OTHER_INCIDENT.id}"`], ['Timeline']],
  // "What caused X" gets X's timeline, and the update that names the cause.
  ['What caused the Elevated API error rates incident?', [`The cause of "${I.elevatedApiErrors.name}"`, 'A bad deploy of the rate limiter rejected valid tokens.', 'Timeline (4 updates)'], [I.webhookErrors.name]],
  ['What caused the checkout payments failure?', ["webhook certificate expired", `Incident "${I.checkoutPayments.name}"`], [CHOOSE]],
  ['Why did checkout fail yesterday?', ["webhook certificate expired"], [CHOOSE, I.elevatedApiErrors.name]],
  ['What caused the outage yesterday?', ["webhook certificate expired", `Incident "${I.checkoutPayments.name}"`], [I.elevatedApiErrors.name]],
  ['What caused the dashboard login errors?', ['do not state a cause', `Incident "${I.dashboardLogin.name}"`, 'Sign-in works again.'], ['The cause of']],
  ['root cause of the delayed email notifications?', ['A queue worker is stuck on a malformed message.'], [CHOOSE]],
  // Time windows, from the injected clock.
  ['Which incidents were resolved in the last 7 days?', ['2 incidents were resolved in the last 7 days', I.elevatedApiErrors.name, I.checkoutPayments.name], [I.dashboardLogin.name, I.databaseMaintenance.name, I.apiLatency.name, I.delayedEmail.name]],
  ['incidents last week', ['4 incidents were open in the last week', I.elevatedApiErrors.name, I.checkoutPayments.name, I.apiLatency.name, I.delayedEmail.name], [I.dashboardLogin.name, I.databaseMaintenance.name]],
  ['Incidents resolved yesterday', ['1 incident was resolved yesterday (Mon, 9 Mar 2026, UTC)', I.checkoutPayments.name], [I.elevatedApiErrors.name, I.apiLatency.name]],
  ['Any incidents today?', [I.apiLatency.name, I.delayedEmail.name, 'today (UTC)'], [I.checkoutPayments.name, I.elevatedApiErrors.name]],
  ['How many incidents were opened this month?', ['6 incidents were opened in the last 30 days', I.databaseMaintenance.name], [I.webhookErrors.name]],
  ['incidents in February', ['1 incident was open in February 2026', I.databaseMaintenance.name], [I.elevatedApiErrors.name, I.webhookErrors.name]],
  ['Were there any incidents in January?', [I.webhookErrors.name, 'January 2026'], [I.databaseMaintenance.name, I.elevatedApiErrors.name]],
  ['Which incidents were resolved in the last 30 days?', [I.dashboardLogin.name, I.databaseMaintenance.name, I.checkoutPayments.name], [I.webhookErrors.name, I.apiLatency.name]],
  ['What failed yesterday?', ['Yesterday (Mon, 9 Mar 2026, UTC), 1 heartbeat check failed', `"${C.billingSync.name}": 2 failures`, I.checkoutPayments.name], [C.nightlyBackup.name, C.searchReindex.name, I.elevatedApiErrors.name]],
  ['What went down in the last 3 days?', [C.billingSync.name, C.nightlyBackup.name, I.elevatedApiErrors.name, I.checkoutPayments.name], [I.dashboardLogin.name, C.searchReindex.name]],
  ['Was anything down 2 days ago?', ['Sun, 8 Mar 2026', I.elevatedApiErrors.name, '0 heartbeat checks failed'], [I.checkoutPayments.name, C.billingSync.name]],
  ['uptime of billing-sync yesterday', [`Availability of check "${C.billingSync.name}" over yesterday (Mon, 9 Mar 2026, UTC)`, '50%'], [C.nightlyBackup.name]],
  ['What is the availability of billing-sync over the last 7 days?', [`Availability of check "${C.billingSync.name}" over the last 7 days`], [C.searchReindex.name]],
  // Time words it does not understand: says so instead of answering for another window.
  ['What incidents happened last quarter?', [CANT, '"quarter"'], [I.elevatedApiErrors.name, I.apiLatency.name]],
  ['Did anything fail on Sunday?', [CANT, '"sunday"'], [C.billingSync.name, C.nightlyBackup.name]],
  ['Which incidents were resolved since March 1st?', [CANT], [I.checkoutPayments.name]],
  // The present.
  ['What is down right now?', [C.nightlyBackup.name, I.apiLatency.name, I.delayedEmail.name], [C.billingSync.name, I.checkoutPayments.name, I.elevatedApiErrors.name]],
  ['Is everything operational?', [C.nightlyBackup.name], [C.searchReindex.name]],
  ['Which incidents are open?', ['2 incidents are open', I.apiLatency.name, I.delayedEmail.name], [I.elevatedApiErrors.name, I.checkoutPayments.name]],
  ['Show the recent heartbeat events of nightly-backup', [`check "${C.nightlyBackup.name}" (now failing)`, '2026-03-10T02:05:00.000Z FAILING'], [C.billingSync.name]],
  ['Which checks do I have?', ['4 heartbeat checks', C.nightlyBackup.name, C.billingSync.name, C.searchReindex.name, C.certRenewal.name], []],
  ['Summarize my status page', ['Status page "Acme Status"', 'Public API: partial outage'.replace('partial outage', 'degraded performance')], []],
  ['Draft an update for the email incident', [`draft`, I.delayedEmail.name], [I.apiLatency.name]],
  ['Resolve the API latency incident', ["I can only read this account's data", `draft RESOLVED update for "${I.apiLatency.name}"`], []],
  // Questions no tool answers: plainly refused, with nothing that looks like an answer.
  ["What's the weather in Paris?", [CANT], [I.apiLatency.name, C.billingSync.name]],
  ['Who was on call during the checkout incident?', [CANT], [I.checkoutPayments.name, I.apiLatency.name]],
  ['What is our MTTR for incidents last month?', [CANT], [I.checkoutPayments.name, I.apiLatency.name]],
  ['Who resolved the checkout incident?', [CANT], [I.checkoutPayments.name]],
  ['what can you do?', ['I can answer questions'], [I.apiLatency.name]],
];

describe('the builtin assistant over a realistic account', () => {
  it('has a table of at least 40 questions', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)('%s', async (question, must, mustNot) => {
    const { text, errors, data } = await ask(question);
    for (const fact of must) expect(text).toContain(fact);
    for (const fact of [...mustNot, ...NEVER]) expect(text).not.toContain(fact);
    expect(errors).toEqual([]);
    expect([...data.accountsRead]).toEqual(expect.not.arrayContaining(['acct-other']));
  });
});

import {
  AgentDataSource,
  AvailabilitySummary,
  CheckSummary,
  HeartbeatEventSummary,
  IncidentDetails,
  IncidentSummary,
  Limited,
  StatusPageSummary,
} from './agent-data-source';
import { AgentEvent } from './agent-events';
import { AgentToolbox, AvailabilityOutput, DraftOutput, PagesOutput, ToolOutcome, WhatsDownOutput } from './agent-tools';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const A = 'account-a';
const B = 'account-b';

const id = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

function incident(n: number, name: string, severity: IncidentSummary['severity'], status: IncidentSummary['status'], services: { id: string; name: string }[]): IncidentDetails {
  const update = { status, description: `${name} update`, publishedAt: '2026-03-10T10:00:00.000Z' };
  return { id: id(n), name, severity, status, services, created_at: `2026-03-10T10:00:0${n % 10}.000Z`, updated_at: '2026-03-10T10:00:00.000Z', latestUpdate: update, updates: [update] };
}

function check(n: number, name: string, lastState: string | null, activated = true): CheckSummary {
  return {
    id: id(n),
    name,
    activated,
    muted: false,
    periodSeconds: 3600,
    graceSeconds: 300,
    serviceId: null,
    lastEvent: lastState === null ? null : { state: lastState, timestamp: '2026-03-10T11:00:00.000Z' },
  };
}

const api = { id: id(100), name: 'API' };
const db = { id: id(101), name: 'Database' };

/** Plain data per account, read the way the real data source does: always filtered by account. */
class FixtureData implements AgentDataSource {
  readonly calls: string[] = [];
  availabilityWindows: { start: number; end: number }[] = [];
  failWith: Error | null = null;

  constructor(
    private readonly data: Record<string, { incidents: IncidentDetails[]; checks: CheckSummary[]; pages: StatusPageSummary[] }>,
  ) {}

  private of(accountId: string) {
    this.calls.push(accountId);
    if (this.failWith) throw this.failWith;
    return this.data[accountId] ?? { incidents: [], checks: [], pages: [] };
  }

  private limit<T>(items: T[], limit: number): Limited<T> {
    return { items: items.slice(0, limit), more: items.length > limit };
  }

  async openIncidents(accountId: string, limit: number) {
    return this.limit(this.of(accountId).incidents.filter((i) => i.status !== 'RESOLVED'), limit);
  }
  async recentIncidents(accountId: string, limit: number) {
    return this.limit(this.of(accountId).incidents, limit);
  }
  async incident(accountId: string, incidentId: string) {
    return this.of(accountId).incidents.find((i) => i.id === incidentId) ?? null;
  }
  async statusPages(accountId: string, limit: number) {
    return this.limit(this.of(accountId).pages, limit);
  }
  async checks(accountId: string, limit: number) {
    return this.limit(this.of(accountId).checks, limit);
  }
  async heartbeatEvents(accountId: string, checkId: string): Promise<HeartbeatEventSummary[] | null> {
    return this.of(accountId).checks.some((c) => c.id === checkId) ? [] : null;
  }
  async availability(accountId: string, checkId: string, window: { start: number; end: number }): Promise<AvailabilitySummary | null> {
    if (!this.of(accountId).checks.some((c) => c.id === checkId)) return null;
    this.availabilityWindows.push(window);
    return { successRatio: { currentPeriod: 0.75, previousPeriod: 1 }, totalEntitiesCurrentPeriod: 8 };
  }
}

function fixture() {
  const checkout = incident(1, 'Checkout errors', 'MAJOR', 'INVESTIGATING', [api]);
  const outage = incident(2, 'Database outage', 'CRITICAL', 'IDENTIFIED', [api, db]);
  const old = incident(3, 'Old blip', 'MINOR', 'RESOLVED', [db]);
  const data = new FixtureData({
    [A]: {
      incidents: [outage, checkout, old],
      checks: [check(10, 'nightly-backup', 'FAILING'), check(11, 'billing-cron', 'RECEIVED'), check(12, 'new-job', null), check(13, 'paused-job', 'FAILING', false), check(14, 'nightly-backup-eu', 'RECEIVED')],
      pages: [
        {
          id: id(20),
          name: 'Public',
          url: 'acme-status',
          cards: [{ name: 'Core', services: [api, db] }],
          incidents: [outage, checkout, old],
        },
      ],
    },
    [B]: { incidents: [incident(9, 'Secret B incident', 'MINOR', 'INVESTIGATING', [])], checks: [check(90, 'b-check', 'FAILING')], pages: [] },
  });
  const errors: unknown[] = [];
  const tools = new AgentToolbox({ data, accountId: A, now: NOW }, (error) => errors.push(error));
  return { data, tools, errors, checkout, outage };
}

const ok = <T>(outcome: ToolOutcome): T => {
  if (!outcome.ok) throw new Error(`expected ok, got: ${outcome.errorText}`);
  return outcome.output as T;
};
const failed = (outcome: ToolOutcome): string => {
  if (outcome.ok) throw new Error('expected an error');
  return outcome.errorText;
};

describe('AgentToolbox', () => {
  it('only ever reads the account it is bound to', async () => {
    const { tools, data } = fixture();
    for (const tool of tools.definitions) await tools.call(tool.name, tool.name === 'check_availability' || tool.name === 'recent_heartbeat_events' ? { check: 'billing-cron' } : tool.name === 'get_incident' ? { incident: id(9) } : {});
    expect(data.calls.length).toBeGreaterThan(8);
    expect(new Set(data.calls)).toEqual(new Set([A]));
  });

  it('whats_down: failing activated checks, and each affected service at its worst', async () => {
    const { tools } = fixture();
    const out = ok<WhatsDownOutput>(await tools.call('whats_down', {}));
    expect(out.failingChecks).toEqual([{ id: id(10), name: 'nightly-backup', muted: false, lastFailingAt: '2026-03-10T11:00:00.000Z' }]);
    expect(out.degradedServices.map((s) => [s.name, s.status, s.incidents.map((i) => i.name)])).toEqual([
      ['API', 'major outage', ['Database outage', 'Checkout errors']],
      ['Database', 'major outage', ['Database outage']],
    ]);
    expect(out).toMatchObject({ openIncidents: 2, activatedChecks: 4, checksCut: false, incidentsCut: false });
  });

  it('status_page_summary: overall status and per service, found by url too', async () => {
    const { tools } = fixture();
    const all = ok<PagesOutput>(await tools.call('status_page_summary', {}));
    expect(all.pages[0]).toMatchObject({ name: 'Public', overallStatus: 'major outage' });
    expect(all.pages[0].openIncidents.map((i) => i.name)).toEqual(['Database outage', 'Checkout errors']);
    expect(all.pages[0].recentlyResolved.map((i) => i.name)).toEqual(['Old blip']);
    expect(ok<PagesOutput>(await tools.call('status_page_summary', { statusPage: 'ACME-STATUS' })).pages[0].id).toBe(id(20));
    expect(failed(await tools.call('status_page_summary', { statusPage: 'nope' }))).toBe('No status page of this account matches "nope". Its status pages: "Public" (' + id(20) + ')');
  });

  describe('check_availability', () => {
    it('finds the check by id, exact name (any case) before a longer name containing it', async () => {
      const { tools } = fixture();
      expect(ok<AvailabilityOutput>(await tools.call('check_availability', { check: id(11) })).check.name).toBe('billing-cron');
      expect(ok<AvailabilityOutput>(await tools.call('check_availability', { check: 'NIGHTLY-BACKUP' })).check.id).toBe(id(10));
      expect(failed(await tools.call('check_availability', { check: 'nightly' }))).toMatch(/^"nightly" matches several checks: "nightly-backup" .*"nightly-backup-eu"/);
      expect(failed(await tools.call('check_availability', { check: 'b-check' }))).toMatch(/^No check of this account matches "b-check"/);
    });

    it('takes a window in hours or as ISO times, 24 hours by default, and counts FAILING events', async () => {
      const { tools, data } = fixture();
      const out = ok<AvailabilityOutput>(await tools.call('check_availability', { check: 'billing-cron' }));
      expect(out).toEqual({
        check: { id: id(11), name: 'billing-cron' },
        window: { startTime: '2026-03-09T12:00:00.000Z', endTime: '2026-03-10T12:00:00.000Z' },
        totalEvents: 8,
        failingEvents: 2,
        successRatio: { currentPeriod: 0.75, previousPeriod: 1 },
      });
      await tools.call('check_availability', { check: 'billing-cron', hours: 168 });
      await tools.call('check_availability', { check: 'billing-cron', startTime: '2026-03-01', endTime: '2026-03-02T00:00:00Z' });
      expect(data.availabilityWindows.slice(1)).toEqual([
        { start: NOW.getTime() - 168 * 3_600_000, end: NOW.getTime() },
        { start: Date.parse('2026-03-01T00:00:00Z'), end: Date.parse('2026-03-02T00:00:00Z') },
      ]);
    });

    it.each([
      [{ hours: 0 }, 'hours must be a whole number from 1 to 9600'],
      [{ hours: 2.5 }, 'hours must be a whole number from 1 to 9600'],
      [{ startTime: 'yesterday' }, 'startTime must be an ISO 8601 date or date-time'],
      [{ endTime: '2026-02-30' }, 'endTime must be an ISO 8601 date or date-time'],
      [{ startTime: '2026-03-10T12:00:00Z', endTime: '2026-03-10T11:00:00Z' }, 'startTime must be before endTime'],
      [{ startTime: '2024-01-01' }, 'the window may span at most 400 days'],
      [{ check: 42 }, 'check must be a string'],
      [{ check: '' }, 'check is required'],
    ])('refuses %j', async (input, message) => {
      const { tools } = fixture();
      expect(failed(await tools.call('check_availability', { check: 'billing-cron', ...input }))).toBe(message);
    });
  });

  describe('draft_incident_update', () => {
    it('drafts for the newest open incident by default, at its current status, and posts nothing', async () => {
      const { tools } = fixture();
      const out = ok<DraftOutput>(await tools.call('draft_incident_update', {}));
      expect(out).toMatchObject({ incident: { name: 'Database outage', status: 'IDENTIFIED' }, status: 'IDENTIFIED', posted: false });
      expect(out.draft).toBe('We have identified the cause of "Database outage", affecting API and Database, and are working on a fix. We will post another update once it is in place.');
    });

    it('takes an incident by name, a status and a note', async () => {
      const { tools } = fixture();
      const out = ok<DraftOutput>(await tools.call('draft_incident_update', { incident: 'checkout errors', status: 'resolved', note: 'Sorry  for the\ntrouble.' }));
      expect(out.status).toBe('RESOLVED');
      expect(out.draft).toBe('"Checkout errors" has been resolved and API is operating normally. Thank you for your patience. Sorry for the trouble.');
    });

    it('refuses a bad status, and says so when nothing is open', async () => {
      const { tools } = fixture();
      expect(failed(await tools.call('draft_incident_update', { status: 'DONE' }))).toBe('status must be one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED');
      const empty = new AgentToolbox({ data: new FixtureData({}), accountId: A, now: NOW });
      expect(failed(await empty.call('draft_incident_update', {}))).toBe('This account has no open incident; name the incident to draft an update for');
    });
  });

  it("get_incident: another account's id is not found", async () => {
    const { tools } = fixture();
    expect(failed(await tools.call('get_incident', { incident: id(9) }))).toMatch(/^No incident of this account matches/);
  });

  it('refuses unknown tools and inputs that are not objects', async () => {
    const { tools } = fixture();
    expect(failed(await tools.call('delete_incident', {}))).toBe('There is no tool named "delete_incident"');
    expect(failed(await tools.call('whats_down', [1]))).toBe('Tool input must be a JSON object');
    expect(failed(await tools.call('whats_down', null))).toBe('Tool input must be a JSON object');
  });

  it('hides a failing store behind a short message and reports the error', async () => {
    const { tools, data, errors } = fixture();
    data.failWith = new Error('SQLITE_IOERR: disk I/O error at /var/lib/vigil/vigil.db');
    expect(failed(await tools.call('whats_down', {}))).toBe('The whats_down tool failed to read the data; try again shortly');
    expect(errors).toEqual([data.failWith]);
  });

  it('invoke: announces the call, then its result or its error, as events', async () => {
    const { tools } = fixture();
    const events: AgentEvent[] = [];
    const run = tools.invoke('c1', 'list_checks', {});
    let step = await run.next();
    while (!step.done) {
      events.push(step.value);
      step = await run.next();
    }
    expect(events.map((e) => e.type)).toEqual(['tool-call', 'tool-result']);
    expect(step.value.ok).toBe(true);

    const errorEvents: AgentEvent[] = [];
    for await (const event of tools.invoke('c2', 'get_incident', {})) errorEvents.push(event);
    expect(errorEvents).toEqual([
      { type: 'tool-call', toolCallId: 'c2', toolName: 'get_incident', input: {} },
      { type: 'tool-error', toolCallId: 'c2', errorText: 'incident is required' },
    ]);
  });
});

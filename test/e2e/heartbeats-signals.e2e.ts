import { ManualClock } from '../../libs/core/src/clock';
import { HeartbeatWatchdog } from '../../libs/heartbeats/src/heartbeats.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, Receiver, startReceiver } from './alerting-receivers';

const MIN = 60_000;
const RID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const RID2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
/** Period 10 min, grace 5 min. */
const TEN_AND_FIVE = { period: 10, periodUnit: 'minutes', grace: 5, graceUnit: 'minutes' };

interface EventView {
  id: string;
  state: string;
  timestamp: string;
  source: string | null;
  rid?: string;
  duration?: number;
  exitCode?: number;
  body?: string | null;
  truncated?: boolean;
}

describe('run signals, captured output, slug URLs and pause (contract §4.1)', () => {
  const clock = new ManualClock('2026-05-04T10:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let watchdog: HeartbeatWatchdog;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off' } });
    account = await server.account();
    watchdog = server.app.get(HeartbeatWatchdog);
  });
  afterAll(() => server.close());

  async function newCheck(extra: Record<string, unknown> = {}) {
    const response = await server.http.post('/v1/checks/heartbeat', { name: 'job', heartbeat: TEN_AND_FIVE, ...extra }, { key: account.key });
    expect(response.status).toBe(201);
    return response.body as { id: string; heartbeat: { pingToken: string; nextDueAt: string | null } };
  }
  const ping = (path: string, options: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {}) =>
    server.http.request(options.method ?? 'GET', `/ping/${path}`, { rawBody: options.body, headers: options.headers });
  const events = async (checkId: string): Promise<EventView[]> => {
    const response = await server.http.get(`/v1/checks/heartbeats/${checkId}/events?startTime=2026-05-01T00:00:00Z&limit=10`, { key: account.key });
    expect(response.status).toBe(200);
    return response.body[0].events;
  };
  const detail = async (checkId: string, eventId: string) => {
    const response = await server.http.get(`/v1/checks/heartbeats/${checkId}/events/${eventId}`, { key: account.key });
    expect(response.status).toBe(200);
    return response.body as { event: EventView; stats: { last24Hours: { totalEntitiesCurrentPeriod: number } } };
  };
  const expectError = (response: { status: number; body: unknown }, status: number) => {
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  };

  it('start, then a finish: STARTED listed, the finish carries duration; STARTED and LOG are not counted', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    const started = await ping(`${token}/start`);
    expect(started.status).toBe(200);
    expect(started.headers.get('ping-body-limit')).toBe('10000');
    clock.advance(90_000);
    expect((await ping(`${token}/log`, { method: 'POST', body: 'halfway', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    clock.advance(30_000);
    expect((await ping(token)).status).toBe(200);
    const list = await events(check.id);
    expect(list.map((e) => e.state)).toEqual(['RECEIVED', 'LOG', 'STARTED']);
    expect(list[0]).toMatchObject({ duration: 120_000 });
    expect(list[1]).not.toHaveProperty('body');
    const one = await detail(check.id, list[1]!.id);
    expect(one.event).toMatchObject({ state: 'LOG', body: 'halfway', truncated: false });
    // Only the success ping counts toward availability.
    expect(one.stats.last24Hours.totalEntitiesCurrentPeriod).toBe(1);
    clock.advance(MIN);
  });

  it('pairs finishes with their start by ?rid=, else with the latest start', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    await ping(`${token}/start?rid=${RID}`);
    clock.advance(10_000);
    await ping(`${token}/start?rid=${RID2}`);
    clock.advance(20_000);
    expect((await ping(`${token}/0?rid=${RID}`)).status).toBe(200);
    clock.advance(5_000);
    expect((await ping(`${token}?rid=${RID2}`)).status).toBe(200);
    const [second, first] = await events(check.id);
    expect(first).toMatchObject({ state: 'RECEIVED', rid: RID, duration: 30_000, exitCode: 0 });
    expect(second).toMatchObject({ rid: RID2, duration: 25_000 });
    // No start left: a finish carries no duration.
    clock.advance(MIN);
    await ping(token);
    expect((await events(check.id))[0]).not.toHaveProperty('duration');
    expectError(await ping(`${token}/start?rid=not-a-uuid`), 400);
    expect((await events(check.id)).length).toBe(5);
  });

  it('a start with no finish in grace fails at start + grace (the run deadline)', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    await ping(token);
    clock.advance(MIN);
    const startedAt = clock.now().getTime();
    await ping(`${token}/start`);
    clock.advance(5 * MIN - 1000);
    await watchdog.runOnce();
    expect((await events(check.id))[0]!.state).toBe('STARTED');
    clock.advance(2000);
    await watchdog.runOnce();
    const [failing] = await events(check.id);
    expect(failing).toMatchObject({ state: 'FAILING', source: 'watchdog', timestamp: new Date(startedAt + 5 * MIN).toISOString() });
    clock.advance(MIN);
    expect((await ping(token)).status).toBe(200);
    expect((await events(check.id))[0]!.state).toBe('RECEIVED');
  });

  it('/fail and /{1–255} are FAILING at once with the request’s source and exit code; 256 → 400', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    await ping(token);
    clock.advance(MIN);
    expect((await ping(`${token}/fail`, { headers: { origin: 'https://ci.example' } })).status).toBe(200);
    clock.advance(MIN);
    await ping(token);
    clock.advance(MIN);
    expect((await ping(`${token}/3`, { method: 'POST', body: 'disk full', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    const list = await events(check.id);
    expect(list.map((e) => e.state)).toEqual(['FAILING', 'RECEIVED', 'FAILING', 'RECEIVED']);
    expect(list[2]).toMatchObject({ source: 'https://ci.example' });
    expect(list[0]).toMatchObject({ exitCode: 3 });
    expect((await detail(check.id, list[0]!.id)).event).toMatchObject({ body: 'disk full', truncated: false });
    expectError(await ping(`${token}/256`), 400);
    expectError(await ping(`${token}/99999999999`), 404);
    expectError(await ping(`${token}/-1`), 404);
    expectError(await ping(`${token}/restart`), 404);
    expect((await events(check.id)).length).toBe(4);
  });

  it('keeps the first 10,000 bytes of a POST body, marks the rest truncated, refuses an 11 MB body (413, nothing stored)', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    const big = Buffer.alloc(25_000, 'a');
    big.write('END', 24_997);
    expect((await ping(token, { method: 'POST', body: big, headers: { 'content-type': 'application/octet-stream' } })).status).toBe(200);
    const [event] = await events(check.id);
    const { event: stored } = await detail(check.id, event!.id);
    expect(stored.body).toHaveLength(10_000);
    expect(stored.truncated).toBe(true);
    clock.advance(MIN);
    const huge = await ping(token, { method: 'POST', body: Buffer.alloc(11 * 1024 * 1024, 'x'), headers: { 'content-type': 'text/plain' } }).catch(() => null);
    // The server may close the connection before the whole body is sent; when it answers, it is a 413.
    if (huge) expectError(huge, 413);
    expect((await events(check.id)).length).toBe(1);
  });

  it('slug URLs: unknown key or slug → 404, ?create=1 creates the check once, signals work on slugs', async () => {
    const { pingKey } = (await server.http.get('/v1/accounts/ping-key', { key: account.key })).body as { pingKey: string };
    expectError(await ping(`${pingKey}/nightly-db`), 404);
    expectError(await ping(`AAAAAAAAAAAAAAAAAAAAAA/nightly-db?create=1`), 404);
    expectError(await ping(`${pingKey}/Bad%20Slug?create=1`), 404);
    expect((await ping(`${pingKey}/nightly-db?create=1`)).status).toBe(200);
    expect((await ping(`${pingKey}/nightly-db/start`)).status).toBe(200);
    clock.advance(1000);
    expect((await ping(`${pingKey}/nightly-db/1`)).status).toBe(200);
    expectError(await ping(`${pingKey}/nightly-db/256`), 400);
    const checks = (await server.http.get('/v1/checks?limit=100', { key: account.key })).body.entries as { id: string; slug: string | null; heartbeat: { period: number } }[];
    const created = checks.filter((c) => c.slug === 'nightly-db');
    expect(created).toHaveLength(1);
    expect(created[0]!.heartbeat.period).toBe(1);
    const list = await events(created[0]!.id);
    expect(list.map((e) => e.state)).toEqual(['FAILING', 'STARTED', 'RECEIVED']);
    expect(list[0]).toMatchObject({ exitCode: 1, duration: 1000 });
    // A UUID in the first segment is always a token.
    expectError(await ping(`${RID}/nightly-db`), 404);
  });

  it('?create=1 creates at most 10 checks per account, then one a minute: 429 with Retry-After, pings of existing slugs unaffected', async () => {
    const own = await server.account('Creates');
    const { pingKey } = (await server.http.get('/v1/accounts/ping-key', { key: own.key })).body as { pingKey: string };
    for (let i = 0; i < 10; i++) expect((await ping(`${pingKey}/job-${i}?create=1`)).status).toBe(200);
    const refused = await ping(`${pingKey}/job-10?create=1`);
    expectError(refused, 429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await ping(`${pingKey}/job-3?create=1`)).status).toBe(200);
    expect((await ping(`${pingKey}/job-10`)).status).toBe(404);
    const checks = (await server.http.get('/v1/checks?limit=100', { key: own.key })).body.entries as { slug: string }[];
    expect(checks.map((c) => c.slug).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `job-${i}`).sort());
    // Another account has its own allowance.
    const other = await server.account('Other creates');
    const otherKey = (await server.http.get('/v1/accounts/ping-key', { key: other.key })).body.pingKey as string;
    expect((await ping(`${otherKey}/job-10?create=1`)).status).toBe(200);
    clock.advance(60_000);
    expect((await ping(`${pingKey}/job-10?create=1`)).status).toBe(200);
  });

  it('pause stops the timer until the next ping: no FAILING while paused', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    await ping(token);
    const paused = await server.http.post(`/v1/checks/${check.id}/pause`, undefined, { key: account.key });
    expect(paused.status).toBe(200);
    expect(paused.body.heartbeat.nextDueAt).toBeNull();
    clock.advance(60 * MIN);
    await watchdog.runOnce();
    expect((await events(check.id)).map((e) => e.state)).toEqual(['RECEIVED']);
    await ping(token);
    clock.advance(16 * MIN);
    await watchdog.runOnce();
    expect((await events(check.id)).map((e) => e.state)).toEqual(['FAILING', 'RECEIVED', 'RECEIVED']);
    expect((await server.http.post(`/v1/checks/3b241101-e2bb-4255-8caf-4136c566a962/pause`, undefined, { key: account.key })).status).toBe(404);
    expect((await server.http.post(`/v1/checks/nope/pause`, undefined, { key: account.key })).status).toBe(404);
  });
});

describe('maintenance windows and the watchdog (contract §4.1)', () => {
  const clock = new ManualClock('2026-06-01T08:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off' } });
    account = await server.account();
  });
  afterAll(() => server.close());

  const states = async (checkId: string) =>
    ((await server.http.get(`/v1/checks/heartbeats/${checkId}/events?startTime=2026-06-01T00:00:00Z`, { key: account.key })).body[0].events as EventView[]).map(
      (e) => `${e.state}@${e.timestamp.slice(11, 16)}`,
    );

  it('a silent check in a window gets no FAILING; its deadline restarts at the window’s end; other tags still fail', async () => {
    const make = async (tags: string[]) => {
      const created = await server.http.post('/v1/checks/heartbeat', { name: 'db backup', tags, heartbeat: TEN_AND_FIVE }, { key: account.key });
      expect(created.status).toBe(201);
      await server.http.get(`/ping/${created.body.heartbeat.pingToken}`);
      return created.body.id as string;
    };
    const inWindow = await make(['db']);
    const outside = await make(['web']);
    const window = await server.http.post(
      '/v1/maintenance-windows',
      { name: 'db upgrade', tags: ['db'], startsAt: '2026-06-01T08:10:00.000Z', endsAt: '2026-06-01T09:00:00.000Z' },
      { key: account.key },
    );
    expect(window.status).toBe(201);
    const watchdog = server.app.get(HeartbeatWatchdog);
    // Deadline 08:15 falls in the window.
    clock.set('2026-06-01T08:30:00.000Z');
    await watchdog.runOnce();
    expect(await states(inWindow)).toEqual(['RECEIVED@08:00']);
    expect(await states(outside)).toEqual(['FAILING@08:15', 'RECEIVED@08:00']);
    // Pings are still recorded during the window.
    // After the window: deadline = 09:00 + 10 min + 5 min.
    clock.set('2026-06-01T09:14:00.000Z');
    await watchdog.runOnce();
    expect(await states(inWindow)).toEqual(['RECEIVED@08:00']);
    clock.set('2026-06-01T09:16:00.000Z');
    await watchdog.runOnce();
    expect(await states(inWindow)).toEqual(['FAILING@09:15', 'RECEIVED@08:00']);
  });
});

describe('maintenance windows and alerts (real webhook receiver, daemon on)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'on', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('a /fail in a window is recorded but not alerted; the same outside a window is alerted', async () => {
    const hook = await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/hook` } }, { key: account.key });
    expect(hook.status).toBe(201);
    const make = async (name: string, tags: string[]) =>
      (
        await server.http.post(
          '/v1/checks/heartbeat',
          { name, tags, heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' }, alertChannelSubscriptions: [{ alertChannelId: hook.body.id, activated: true }] },
          { key: account.key },
        )
      ).body as { id: string; heartbeat: { pingToken: string } };
    const quiet = await make('in window', ['db']);
    const loud = await make('outside', ['web']);
    const window = await server.http.post(
      '/v1/maintenance-windows',
      { name: 'db upgrade', tags: ['db'], startsAt: '2026-07-01T11:00:00.000Z', endsAt: '2026-07-01T13:00:00.000Z' },
      { key: account.key },
    );
    expect(window.status).toBe(201);
    expect((await server.http.get(`/ping/${quiet.heartbeat.pingToken}/fail`)).status).toBe(200);
    expect((await server.http.get(`/ping/${loud.heartbeat.pingToken}/fail`)).status).toBe(200);
    await eventually(() => receiver.requests.length, (n) => n >= 1);
    await new Promise((r) => setTimeout(r, 800)); // nothing more may come
    const alerted = receiver.requests.map((r) => JSON.parse(r.body).check?.id);
    expect(alerted).toEqual([loud.id]);
    const events = (await server.http.get(`/v1/checks/heartbeats/${quiet.id}/events`, { key: account.key })).body[0].events;
    expect(events.map((e: EventView) => e.state)).toEqual(['FAILING']);
  });
});

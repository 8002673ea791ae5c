import { ManualClock } from '../../libs/core/src/clock';
import { HeartbeatWatchdog } from '../../libs/heartbeats/src/heartbeats.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const MIN = 60_000;
/** Period 5 min, grace 2 min: expected 5 min after a ping (± 30 s), failing 7 min after it. */
const FIVE_AND_TWO = { period: 5, periodUnit: 'minutes', grace: 2, graceUnit: 'minutes' };

describe("a check's state, last ping and last failure; Checkly's check statuses (manual clock)", () => {
  const clock = new ManualClock('2026-04-01T08:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;
  let watchdog: HeartbeatWatchdog;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off' } });
    account = await server.account();
    other = await server.account('Other');
    watchdog = server.app.get(HeartbeatWatchdog);
  });
  afterAll(() => server.close());

  const create = async (extra: Record<string, unknown> = {}) => {
    const response = await server.http.post('/v1/checks/heartbeat', { name: 'nightly', heartbeat: FIVE_AND_TWO, ...extra }, { key: account.key });
    expect(response.status).toBe(201);
    return response.body as { id: string; state: string; lastPingAt: string | null; lastFailedAt: string | null; heartbeat: { pingToken: string } };
  };
  const check = async (id: string) => (await server.http.get(`/v1/checks/${id}`, { key: account.key })).body;
  const status = async (id: string, as = account) => server.http.get(`/v1/check-statuses/${id}`, { key: as.key });
  const ping = (token: string, signal = '') => server.http.get(`/ping/${token}${signal}`);

  it('goes NEW, UP, LATE, FAILING and UP again, with when it was last pinged and last failed, the same in the list', async () => {
    const created = await create();
    expect(created).toMatchObject({ state: 'NEW', lastPingAt: null, lastFailedAt: null });
    const token = created.heartbeat.pingToken;

    await ping(token);
    const pingedAt = clock.now().toISOString();
    expect(await check(created.id)).toMatchObject({ state: 'UP', lastPingAt: pingedAt, lastFailedAt: null });
    expect((await status(created.id)).body).toMatchObject({ checkId: created.id, name: 'nightly', hasFailures: false, hasErrors: false, isDegraded: false, updated_at: pingedAt });

    clock.advance(5 * MIN + 30_001); // past the expected time and its tolerance, within grace
    expect((await check(created.id)).state).toBe('LATE');
    expect((await status(created.id)).body).toMatchObject({ hasFailures: false, isDegraded: true });

    clock.advance(2 * MIN); // past the deadline
    await watchdog.runOnce();
    const failedAt = new Date(Date.parse(pingedAt) + 7 * MIN).toISOString();
    expect(await check(created.id)).toMatchObject({ state: 'FAILING', lastPingAt: pingedAt, lastFailedAt: failedAt });
    expect((await status(created.id)).body).toMatchObject({ hasFailures: true, isDegraded: false, updated_at: failedAt });

    clock.advance(MIN);
    await ping(token);
    const listed = (await server.http.get('/v1/checks', { key: account.key })).body.entries.find((c: { id: string }) => c.id === created.id);
    expect(listed).toMatchObject({ state: 'UP', lastPingAt: clock.now().toISOString(), lastFailedAt: failedAt });
  });

  it('says FAILING at once when the job reports a failure, and PAUSED when paused or deactivated', async () => {
    const reported = await create();
    await ping(reported.heartbeat.pingToken, '/1');
    expect(await check(reported.id)).toMatchObject({ state: 'FAILING', lastFailedAt: clock.now().toISOString() });

    const paused = await create();
    await ping(paused.heartbeat.pingToken);
    expect((await server.http.post(`/v1/checks/${paused.id}/pause`, {}, { key: account.key })).body.state).toBe('PAUSED');

    const off = await create({ activated: false });
    expect(off.state).toBe('PAUSED');
  });

  it("answers every check of the account in Checkly's shape, and no other account's", async () => {
    const mine = await create();
    const all = await server.http.get('/v1/check-statuses', { key: account.key });
    expect(all.status).toBe(200);
    const ids = (await server.http.get('/v1/checks?limit=100', { key: account.key })).body.entries.map((c: { id: string }) => c.id);
    expect(all.body.map((s: { checkId: string }) => s.checkId).sort()).toEqual([...ids].sort());
    expect(all.body.find((s: { checkId: string }) => s.checkId === mine.id)).toEqual({
      name: 'nightly',
      checkId: mine.id,
      hasFailures: false,
      hasErrors: false,
      isDegraded: false,
      longestRun: null,
      shortestRun: null,
      lastRunLocation: null,
      lastCheckRunId: null,
      sslDaysRemaining: null,
      created_at: expect.any(String),
      updated_at: null,
    });
    expect((await server.http.get('/v1/check-statuses', { key: other.key })).body).toEqual([]);
    expect((await status(mine.id, other)).status).toBe(404);
    expect((await status('not-a-uuid')).status).toBe(404);
  });
});

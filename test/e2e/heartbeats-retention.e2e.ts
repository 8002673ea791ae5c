import { ManualClock } from '../../libs/core/src/clock';
import { EventRetention } from '../../libs/heartbeats/src/heartbeats.api';
import { PROJECTION_ENGINE } from '../../libs/platform/src/tokens';
import { ProjectionEngine } from '../../libs/read-store/src/projection-engine';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';

const DAY = 86_400_000;

describe('heartbeat event retention', () => {
  const clock = new ManualClock('2026-06-01T08:00:00.000Z');
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_EVENT_RETENTION_DAYS: '30' } });
  });
  afterAll(() => server.close());

  it('deletes old pings for real: gone from the list and by id, and a rebuild does not bring them back, while the rollups keep counting them', async () => {
    const account = await server.account();
    const check = (await server.http.post('/v1/checks/heartbeat', { name: 'kept 30 days', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'days' } }, { key: account.key })).body;
    const oldPing = await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    const oldId = oldPing.headers.get('x-heartbeat-event-id');
    clock.advance(40 * DAY);
    expect((await server.http.get(`/ping/${check.heartbeat.pingToken}`)).status).toBe(200);
    const window = `startTime=2026-05-01T00:00:00Z&endTime=${clock.now().toISOString()}`;
    const list = async () => (await server.http.get(`/v1/checks/heartbeats/${check.id}/events?${window}`, { key: account.key })).body[0].events;
    expect(await list()).toHaveLength(2);

    expect(await server.app.get(EventRetention).runOnce()).toBeGreaterThanOrEqual(1);

    expect(await list()).toHaveLength(1);
    expect((await server.http.get(`/v1/checks/heartbeats/${check.id}/events/${oldId}`, { key: account.key })).status).toBe(404);
    const availability = (await server.http.get(`/v1/checks/heartbeats/${check.id}/availability?startTime=2026-05-01T00:00:00Z&endTime=${clock.now().toISOString()}`, { key: account.key })).body;
    expect(availability.totalEntitiesCurrentPeriod).toBe(2);
    await server.app.get<ProjectionEngine>(PROJECTION_ENGINE).rebuild(['heartbeat_checks', 'heartbeat_timers']);
    expect(await list()).toHaveLength(1);
  }, 20_000);
});

import { startTestServer, TestServer } from '../../libs/testing/src/test-server';

/** The one heartbeat test on real time: the background watchdog of a running server fails a silent check. */
describe('watchdog in a running server (real time)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_DAEMON: 'on' } });
  });
  afterAll(() => server.close());

  it('writes FAILING within 2 s of the deadline of a 30 s check with no grace', async () => {
    const account = await server.account();
    const check = (
      await server.http.post('/v1/checks/heartbeat', { name: 'real time', heartbeat: { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' } }, { key: account.key })
    ).body;
    const pinged = await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    expect(pinged.status).toBe(200);
    const events = async () =>
      (await server.http.get(`/v1/checks/heartbeats/${check.id}/events`, { key: account.key })).body[0].events as { state: string; timestamp: string }[];
    const [first] = await events();
    const deadline = Date.parse(first.timestamp) + 30_000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now() - 1000)));
    expect((await events()).map((e) => e.state)).toEqual(['RECEIVED']);
    let seenAt: number | null = null;
    while (Date.now() < deadline + 5000) {
      const latest = await events();
      if (latest[0].state === 'FAILING') {
        seenAt = Date.now();
        expect(latest[0]).toMatchObject({ source: 'watchdog', timestamp: new Date(deadline).toISOString() });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seenAt).not.toBeNull();
    expect(seenAt! - deadline).toBeLessThanOrEqual(2000);
  }, 60_000);
});

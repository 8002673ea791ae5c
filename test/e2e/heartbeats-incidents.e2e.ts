import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const MIN = 60_000;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('triggerIncident (background watchdog and incident reactor, manual clock)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'on' } });
    account = await server.account();
  });
  afterAll(() => server.close());

  const incidentsOf = async (serviceId: string) =>
    (await server.http.get(`/v1/status-pages/incidents?serviceId=${serviceId}`, { key: account.key })).body.entries as {
      name: string;
      severity: string;
      lastUpdateStatus: string;
      incidentUpdates: { status: string }[];
    }[];

  it('opens the incident on the first FAILING only and resolves it on recovery; muted checks alert no one', async () => {
    const service = (await server.http.post('/v1/status-pages/services', { name: 'Backups' }, { key: account.key })).body;
    const quiet = (await server.http.post('/v1/status-pages/services', { name: 'Quiet' }, { key: account.key })).body;
    const heartbeat = { period: 1, periodUnit: 'minutes', grace: 0, graceUnit: 'seconds' };
    const check = (
      await server.http.post(
        '/v1/checks/heartbeat',
        { name: 'backup', heartbeat, triggerIncident: { serviceId: service.id, severity: 'MAJOR', name: 'Backups stopped' } },
        { key: account.key },
      )
    ).body;
    const muted = (
      await server.http.post(
        '/v1/checks/heartbeat',
        { name: 'muted', muted: true, heartbeat, triggerIncident: { serviceId: quiet.id, severity: 'MINOR', name: 'Should not open' } },
        { key: account.key },
      )
    ).body;
    await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    await server.http.get(`/ping/${muted.heartbeat.pingToken}`);

    clock.advance(3 * MIN + 1000); // three deadlines: three FAILINGs, one outage
    const opened = await eventually(() => incidentsOf(service.id), (list) => list.length > 0);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ name: 'Backups stopped', severity: 'MAJOR', lastUpdateStatus: 'INVESTIGATING' });
    const failing = await eventually(
      async () => (await server.http.get(`/v1/checks/heartbeats/${check.id}/events`, { key: account.key })).body[0].events.filter((e: { state: string }) => e.state === 'FAILING'),
      (list) => list.length >= 3,
    );
    expect(failing.length).toBe(3);
    expect(await incidentsOf(service.id)).toHaveLength(1);

    expect((await server.http.get(`/ping/${check.heartbeat.pingToken}`)).status).toBe(200);
    const resolved = await eventually(() => incidentsOf(service.id), (list) => list[0]?.lastUpdateStatus === 'RESOLVED');
    expect(resolved).toHaveLength(1);
    expect(resolved[0].incidentUpdates.map((u) => u.status)).toEqual(['INVESTIGATING', 'RESOLVED']);

    // The muted check failed too, and recorded it, but opened nothing.
    const mutedEvents = (await server.http.get(`/v1/checks/heartbeats/${muted.id}/events`, { key: account.key })).body[0].events;
    expect(mutedEvents.some((e: { state: string }) => e.state === 'FAILING')).toBe(true);
    expect(await incidentsOf(quiet.id)).toEqual([]);
  });
});

describe('triggerIncident across a restart', () => {
  it('opens the incident of an outage that began while the process was down', async () => {
    const clock = new ManualClock('2026-07-01T12:00:00.000Z');
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-reactor-'));
    try {
      const first = await startTestServer({ clock, dataDir, env: { VIGIL_DAEMON: 'on' } });
      const account = await first.account();
      const service = (await first.http.post('/v1/status-pages/services', { name: 'Nightly' }, { key: account.key })).body;
      const heartbeat = { period: 1, periodUnit: 'minutes', grace: 0, graceUnit: 'seconds' };
      const check = (
        await first.http.post(
          '/v1/checks/heartbeat',
          { name: 'nightly', heartbeat, triggerIncident: { serviceId: service.id, severity: 'CRITICAL', name: 'Nightly job silent' } },
          { key: account.key },
        )
      ).body;
      await first.http.get(`/ping/${check.heartbeat.pingToken}`);
      await first.close();

      clock.advance(5 * MIN); // the deadline passes while nothing runs
      const second = await startTestServer({ clock, dataDir, env: { VIGIL_DAEMON: 'on' } });
      try {
        const opened = await eventually(
          async () => (await second.http.get(`/v1/status-pages/incidents?serviceId=${service.id}`, { key: account.key })).body.entries,
          (list: unknown[]) => list.length > 0,
        );
        expect(opened).toHaveLength(1);
        expect(opened[0]).toMatchObject({ name: 'Nightly job silent', severity: 'CRITICAL', lastUpdateStatus: 'INVESTIGATING' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

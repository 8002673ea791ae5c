import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../libs/core/src/clock';
import { HeartbeatWatchdog } from '../../libs/heartbeats/src/heartbeats.api';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';

const MIN = 60_000;
const HEARTBEAT = { period: 1, periodUnit: 'minutes', grace: 0, graceUnit: 'seconds' };

describe('two watchdogs racing on one data set', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-watchdogs-'));
  const clock = new ManualClock('2026-06-01T08:00:00.000Z');
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    // Two complete instances (own connections, caches, registries) on one SQLite file.
    a = await startTestServer({ clock, dataDir, env: { VIGIL_DAEMON: 'off' } });
    b = await startTestServer({ clock, dataDir, env: { VIGIL_DAEMON: 'off' } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('write exactly one FAILING per deadline, also while pings race them', async () => {
    const account = await a.account();
    const checks: { id: string; token: string; lastPing: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const created = (await a.http.post('/v1/checks/heartbeat', { name: `c${i}`, heartbeat: HEARTBEAT }, { key: account.key })).body;
      checks.push({ id: created.id, token: created.heartbeat.pingToken, lastPing: 0 });
    }
    for (const [i, check] of checks.entries()) {
      // Pings go to either instance.
      expect((await (i % 2 ? a : b).http.get(`/ping/${check.token}`)).status).toBe(200);
      check.lastPing = clock.now().getTime();
    }
    const watchdogs = [a.app.get(HeartbeatWatchdog), b.app.get(HeartbeatWatchdog)];
    let written = 0;
    let conflicts = 0;
    // Five rounds of 1.5 periods: both watchdogs and, for half the checks, a ping all at once.
    for (let round = 0; round < 5; round++) {
      clock.advance(90_000);
      const pings = checks.filter((_, i) => i % 2 === 0 && round === 2).map((check) => (round % 2 ? a : b).http.get(`/ping/${check.token}`));
      const passes = await Promise.all([...watchdogs.map((w) => w.runOnce()), ...watchdogs.map((w) => w.runOnce())]);
      const answered = await Promise.all(pings);
      expect(answered.every((r) => r.status === 200)).toBe(true);
      written += passes.reduce((sum, pass) => sum + pass.failed, 0);
      conflicts += passes.reduce((sum, pass) => sum + pass.conflicts, 0);
    }

    let expectedTotal = 0;
    for (const check of checks) {
      const response = await a.http.get(`/v1/checks/heartbeats/${check.id}/events?startTime=2026-06-01T00:00:00Z&limit=10`, { key: account.key });
      const events = response.body[0].events as { state: string; timestamp: string }[];
      const failing = events.filter((e) => e.state === 'FAILING').map((e) => e.timestamp);
      // Each deadline at most once, and every FAILING sits on a deadline one minute after the previous event.
      expect(new Set(failing).size).toBe(failing.length);
      const chronological = [...events].reverse();
      for (let i = 1; i < chronological.length; i++) {
        if (chronological[i].state !== 'FAILING') continue;
        expect(Date.parse(chronological[i].timestamp) - Date.parse(chronological[i - 1].timestamp)).toBe(MIN);
      }
      // Every deadline up to now was written.
      const last = Date.parse(chronological[chronological.length - 1].timestamp);
      expect(clock.now().getTime() - last).toBeLessThanOrEqual(MIN);
      expectedTotal += failing.length;
    }
    expect(written).toBe(expectedTotal);
    expect(expectedTotal).toBeGreaterThan(100);
    // They did race: some appends lost and were not written twice.
    expect(conflicts).toBeGreaterThan(0);
  });
});

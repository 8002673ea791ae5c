import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from '../../libs/testing/src/http-client';
import { startChildServer } from '../../libs/testing/src/child-server';

const KEY = 'durability-key-0123456789abcdef';

describe('kill -9 during a ping load (built server as a child process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-kill9-'));
  const env = { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_API_KEY: KEY, VIGIL_PING_RATE_BURST: '0', VIGIL_RATE_LIMIT_PER_MINUTE: '10000000' };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loses no ping that was answered 200', async () => {
    const first = await startChildServer(env);
    const http = new HttpClient(first.url);
    const checks: { id: string; token: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await http.post('/v1/checks/heartbeat', { name: `c${i}`, heartbeat: { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'seconds' } }, { key: KEY });
      expect(created.status).toBe(201);
      checks.push({ id: created.body.id, token: created.body.heartbeat.pingToken });
    }
    const acknowledged = new Map<string, string[]>(checks.map((c) => [c.id, []]));
    let stop = false;
    const worker = async (n: number) => {
      for (let i = n; !stop; i++) {
        const check = checks[i % checks.length];
        try {
          const response = await fetch(`${first.url}/ping/${check.token}`);
          const eventId = response.headers.get('x-heartbeat-event-id');
          if (response.status === 200 && eventId) acknowledged.get(check.id)!.push(eventId);
        } catch {
          return; // the server is gone
        }
      }
    };
    const load = Promise.all(Array.from({ length: 40 }, (_, n) => worker(n)));
    const answered = () => [...acknowledged.values()].reduce((sum, ids) => sum + ids.length, 0);
    // The kill lands mid-load, after 1.5 s and more than 100 answered pings, however slow the machine.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const loadedBy = Date.now() + 60_000;
    while (answered() <= 100 && Date.now() < loadedBy) await new Promise((resolve) => setTimeout(resolve, 50));
    await first.stop('SIGKILL');
    stop = true;
    await load;
    expect(answered()).toBeGreaterThan(100);

    const second = await startChildServer(env);
    try {
      const after = new HttpClient(second.url);
      for (const check of checks) {
        const ids = acknowledged.get(check.id)!;
        const availability = await after.get(`/v1/checks/heartbeats/${check.id}/availability`, { key: KEY });
        // Everything answered 200 is there; pings committed but not yet answered may be there too.
        expect(availability.body.totalEntitiesCurrentPeriod).toBeGreaterThanOrEqual(ids.length);
        for (const eventId of ids) {
          const found = await after.get(`/v1/checks/heartbeats/${check.id}/events/${eventId}`, { key: KEY });
          expect({ eventId, status: found.status }).toEqual({ eventId, status: 200 });
        }
      }
      // The restarted server keeps taking pings.
      expect((await fetch(`${second.url}/ping/${checks[0].token}`)).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 180_000);
});

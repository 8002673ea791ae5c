import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from '../../libs/testing/src/http-client';
import { ChildServer, startChildServer } from '../../libs/testing/src/child-server';

const KEY = 'two-instances-key-0123456789abcdef';
const PINGS = 300;
// Two process starts and 300 pings: on a loaded two-core runner that can take longer than jest's 30 s default.
const TIMEOUT_MS = 120_000;

describe('two API instances on one data set racing on one ping token (built server as child processes)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-two-'));
  const env = { VIGIL_DATA_DIR: dataDir, VIGIL_BOOTSTRAP_API_KEY: KEY, VIGIL_PING_RATE_BURST: '0', VIGIL_RATE_LIMIT_PER_MINUTE: '10000000' };
  const servers: ChildServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every ping 200 (a conflict is decided again, never shown) and records each exactly once', async () => {
    servers.push(await startChildServer(env));
    servers.push(await startChildServer({ ...env, VIGIL_DAEMON: 'off' }));
    const http = new HttpClient(servers[0].url);
    const created = await http.post('/v1/checks/heartbeat', { name: 'shared', heartbeat: { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'seconds' } }, { key: KEY });
    expect(created.status).toBe(201);
    const { id, heartbeat } = created.body as { id: string; heartbeat: { pingToken: string } };

    const statuses = await Promise.all(
      Array.from({ length: PINGS }, async (_, i) => (await fetch(`${servers[i % 2].url}/ping/${heartbeat.pingToken}`)).status),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    // Either instance reads every ping of both (the rollups are written inside each instance's commit).
    for (const server of servers) {
      const availability = await new HttpClient(server.url).get(`/v1/checks/heartbeats/${id}/availability`, { key: KEY });
      expect(availability.body.totalEntitiesCurrentPeriod).toBe(PINGS);
    }
  }, TIMEOUT_MS);
});

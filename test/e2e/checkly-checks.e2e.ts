import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/**
 * The real `checkly` CLI (a dev dependency) pointed at Vigil: `checks list`, `checks get` and `checks stats` show
 * monitors and heartbeat checks with their state. What it calls (node_modules/checkly/dist/rest and commands/checks):
 * `GET /v1/checks?page=&limit=` (an array, the total in Content-Range), `GET /v1/check-statuses`,
 * `GET /v1/checks/{id}`, `GET /v1/check-statuses/{id}`, `GET /v2/check-results/{id}`,
 * `GET /v1/analytics/{type}/{id}` and `POST /v1/analytics/checks`.
 */
const CHECKLY = join(__dirname, '..', '..', 'node_modules', 'checkly', 'bin', 'run');
const CLI_TIMEOUT_MS = 60_000;
jest.setTimeout(240_000);

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: TestServer;
let home: string;
let account: TestAccount;
let target: http.Server;
let failing = false;
const ids = { site: '', broken: '', heartbeat: '' };

function checkly(args: string[]): Promise<CliResult> {
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    CHECKLY_ENV: 'local',
    CHECKLY_API_URL: server.url,
    CHECKLY_API_KEY: account.key,
    CHECKLY_ACCOUNT_ID: account.id,
    CHECKLY_SKIP_NEW_VERSION_CHECK: 'true',
    CHECKLY_CLI_MODE: 'ci',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [CHECKLY, ...args], { env, cwd: home, timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function reaches(type: string, id: string, state: string): Promise<void> {
  for (;;) {
    const res = await server.http.get(`/v1/checks/${type}/${id}`, { key: account.key });
    if (res.body.status?.state === state) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  target = http.createServer((req, res) => (req.url === '/broken' && failing ? res.writeHead(500).end('no') : res.end('ok')));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const port = (target.address() as AddressInfo).port;
  server = await startTestServer({ env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  home = mkdtempSync(join(tmpdir(), 'vigil-checkly-checks-'));
  account = await server.account('CLI checks');
  const every10s = { frequency: 0, frequencyOffset: 10, locations: ['local'] };
  const create = async (type: string, body: object) => {
    const res = await server.http.post(`/v1/checks/${type}`, { ...every10s, ...body }, { key: account.key });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  ids.site = await create('url', { name: 'Public site', tags: ['web'], request: { url: `http://127.0.0.1:${port}/` } });
  failing = true;
  ids.broken = await create('api', { name: 'Broken API', request: { url: `http://127.0.0.1:${port}/broken` } });
  const heartbeat = await server.http.post('/v1/checks/heartbeat', { name: 'Nightly backup', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }, { key: account.key });
  expect(heartbeat.status).toBe(201);
  ids.heartbeat = heartbeat.body.id;
  expect((await server.http.get(`/ping/${heartbeat.body.heartbeat.pingToken}`)).status).toBe(200);
  await reaches('url', ids.site, 'PASSING');
  await reaches('api', ids.broken, 'FAILING');
}, 120_000);

afterAll(async () => {
  await server?.close();
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('checkly checks', () => {
  it('list shows monitors and heartbeat checks with their type and state', async () => {
    const result = await checkly(['checks', 'list', '-o', 'json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { data: { id: string; checkType: string; status?: { hasFailures: boolean } }[]; pagination: { total: number } };
    expect(listed.pagination.total).toBe(3);
    const byId = new Map(listed.data.map((c) => [c.id, c]));
    expect(byId.get(ids.site)).toMatchObject({ checkType: 'URL', status: { hasFailures: false } });
    expect(byId.get(ids.broken)).toMatchObject({ checkType: 'API', status: { hasFailures: true } });
    expect(byId.get(ids.heartbeat)).toMatchObject({ checkType: 'HEARTBEAT' });

    const table = await checkly(['checks', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Broken API.*failing/);
    expect(table.stdout).toMatch(/Public site.*passing/);

    const filtered = JSON.parse((await checkly(['checks', 'list', '--type', 'URL', '-o', 'json'])).stdout);
    expect(filtered.data.map((c: { id: string }) => c.id)).toEqual([ids.site]);
  });

  it('get shows a monitor, its recent results and its stats; a heartbeat check too', async () => {
    const result = await checkly(['checks', 'get', ids.broken, '-o', 'json']);
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout);
    expect(shown.check).toMatchObject({ id: ids.broken, checkType: 'API', name: 'Broken API' });
    expect(shown.status).toMatchObject({ checkId: ids.broken, hasFailures: true });
    expect(shown.results.length).toBeGreaterThan(0);
    expect(shown.results[0]).toMatchObject({ checkId: ids.broken, hasFailures: true, runLocation: 'local' });
    expect(shown.analytics.series[0].data[0]).toMatchObject({ availability: 0 });

    const detail = await checkly(['checks', 'get', ids.site]);
    expect(detail.code).toBe(0);
    expect(detail.stdout).toContain('Public site');
    expect(detail.stdout).toContain('100.00%');

    const heartbeat = JSON.parse((await checkly(['checks', 'get', ids.heartbeat, '-o', 'json'])).stdout);
    expect(heartbeat.check).toMatchObject({ id: ids.heartbeat, checkType: 'HEARTBEAT' });
    expect(heartbeat.results[0]).toMatchObject({ checkId: ids.heartbeat, hasFailures: false });
    expect(heartbeat.analytics.series[0].data[0]).toMatchObject({ availability: 100 });
  });

  it('stats shows availability and response times from the rollups', async () => {
    const result = await checkly(['checks', 'stats', '-o', 'json']);
    expect(result.code).toBe(0);
    const stats = JSON.parse(result.stdout) as { data: { checkId: string; status: string; availability: number | null; responseTime_avg: number | null }[] };
    const byId = new Map(stats.data.map((r) => [r.checkId, r]));
    expect(byId.get(ids.site)).toMatchObject({ status: 'passing', availability: 100, responseTime_avg: expect.any(Number) });
    expect(byId.get(ids.broken)).toMatchObject({ status: 'failing', availability: 0 });
    expect(byId.get(ids.heartbeat)).toMatchObject({ availability: 100 });
    const table = await checkly(['checks', 'stats']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Public site.*100\.00%/);
  });
});

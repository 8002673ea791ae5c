import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_MAIN, ChildServer, CLI_MAIN, runCli, startChildServer } from '../../libs/testing/src/child-server';
import { HttpClient } from '../../libs/testing/src/http-client';

/**
 * The built server and CLI as separate processes on one data dir (needs `npm run build`): bootstrap,
 * kill -9 durability, restart, a CLI rebuild while serving, and start-up configuration errors.
 */
const SERVICES = '/v1/status-pages/services';
const BOOTSTRAP_KEY = 'vigil-e2e-bootstrap-key-0123456789abcdef';
const BOOTSTRAP_ACCOUNT = '01900000-0000-7000-8000-00000000b007';

let dataDir: string;
let server: ChildServer;
const logs: string[] = [];

const env = () => ({
  VIGIL_DATA_DIR: dataDir,
  VIGIL_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
  VIGIL_BOOTSTRAP_ACCOUNT_ID: BOOTSTRAP_ACCOUNT,
  LOG_LEVEL: 'info',
  // The rebuild test reads in a tight loop.
  VIGIL_RATE_LIMIT_PER_MINUTE: '1000000',
});
const http = () => new HttpClient(server.url);
const auth = { key: BOOTSTRAP_KEY };

async function restart(signal: NodeJS.Signals): Promise<void> {
  await server.stop(signal);
  logs.push(server.output());
  server = await startChildServer(env());
}

// Built processes start slowly on a loaded two-core runner (20 s and more was seen): jest's 30 s default is too short.
jest.setTimeout(120_000);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigil-process-'));
  server = await startChildServer(env());
});

afterAll(async () => {
  await server?.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bootstrap key', () => {
  it('creates the account and an ADMIN key with exactly that value on first start, logging the account id only', async () => {
    const account = await http().get(`/next/accounts/${BOOTSTRAP_ACCOUNT}`, auth);
    expect(account.status).toBe(200);
    expect(account.body.id).toBe(BOOTSTRAP_ACCOUNT);
    // ADMIN: it may write.
    expect((await http().post(SERVICES, { name: 'bootstrap can write' }, auth)).status).toBe(201);

    const keys = runCli(['keys', 'list', '--account', BOOTSTRAP_ACCOUNT, '--json'], { VIGIL_DATA_DIR: dataDir });
    expect(keys.status).toBe(0);
    expect(JSON.parse(keys.stdout)).toEqual([expect.objectContaining({ role: 'ADMIN', accountIds: [BOOTSTRAP_ACCOUNT], revoked: false })]);
    expect(keys.stdout).not.toContain(BOOTSTRAP_KEY);

    const output = server.output();
    const bootstrapLine = output.split('\n').find((line) => line.includes('bootstrap'));
    expect(bootstrapLine).toContain(BOOTSTRAP_ACCOUNT);
    expect(output).not.toContain(BOOTSTRAP_KEY);

    // One JSON line per request, with the request id, the account and the key id (never the key).
    const findRequestLine = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line))
        .find((entry) => entry.msg === 'request' && entry.method === 'POST' && entry.path === SERVICES);
    // Written after the response went out, so it may still be in the pipe.
    for (let i = 0; i < 40 && !findRequestLine(); i++) await new Promise((r) => setTimeout(r, 50));
    const requestLine = findRequestLine();
    expect(requestLine).toMatchObject({ status: 201, accountId: BOOTSTRAP_ACCOUNT, keyId: expect.any(String), reqId: expect.any(String) });
    expect(requestLine.ms).toEqual(expect.any(Number));
  });
});

describe('durability and restarts', () => {
  it('kill -9 right after a 201: the resource is there after a restart on the same data dir', async () => {
    const created = await http().post(SERVICES, { name: 'survives kill -9' }, auth);
    expect(created.status).toBe(201);
    server.process.kill('SIGKILL');
    await restart('SIGKILL');

    const read = await http().get(`${SERVICES}/${created.body.id}`, auth);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('a burst of writes all answered 201 before kill -9 are all there after the restart', async () => {
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => http().post(SERVICES, { name: `burst ${i}` }, auth)));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(201));
    server.process.kill('SIGKILL');
    await restart('SIGKILL');
    const list = await http().get(`${SERVICES}?limit=100`, auth);
    const ids = list.body.entries.map((s: { id: string }) => s.id);
    for (const response of burst) expect(ids).toContain(response.body.id);
  });

  it('a restart does not bootstrap again: still one account and one key, and the key is never logged', async () => {
    await restart('SIGTERM');
    expect((await http().get(`/next/accounts/${BOOTSTRAP_ACCOUNT}`, auth)).status).toBe(200);
    const keys = runCli(['keys', 'list', '--account', BOOTSTRAP_ACCOUNT, '--json'], { VIGIL_DATA_DIR: dataDir });
    expect(JSON.parse(keys.stdout)).toHaveLength(1);
    expect(server.output()).not.toMatch(/bootstrap account and ADMIN API key created/);
    for (const log of [...logs, server.output()]) expect(log).not.toContain(BOOTSTRAP_KEY);
  });
});

describe('a CLI rebuild while the server runs', () => {
  it('leaves every read identical, before, during and after the switch', async () => {
    for (let i = 0; i < 15; i++) expect((await http().post(SERVICES, { name: `rebuild ${i}` }, auth)).status).toBe(201);
    const reads = async (): Promise<string[]> => {
      const bodies: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { text: string; body: { nextId: string | null; entries: { id: string }[] } } = await http().get(
          `${SERVICES}?limit=7${cursor ? `&nextId=${encodeURIComponent(cursor)}` : ''}`,
          auth,
        );
        bodies.push(page.text);
        if (!Array.isArray(page.body.entries)) return [...bodies, 'not a page'];
        for (const entry of page.body.entries) {
          const one = await http().get(`${SERVICES}/${entry.id}`, auth);
          bodies.push(`${one.headers.get('etag')} ${one.text}`);
        }
        cursor = page.body.nextId;
      } while (cursor);
      bodies.push((await http().get(`/next/accounts/${BOOTSTRAP_ACCOUNT}`, auth)).text);
      return bodies;
    };
    const before = await reads();

    const cli = spawn(process.execPath, [CLI_MAIN, 'projections', 'rebuild'], { env: { ...process.env, VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
    let cliOutput = '';
    cli.stdout.on('data', (d) => (cliOutput += d));
    cli.stderr.on('data', (d) => (cliOutput += d));
    const exited = new Promise<number | null>((resolve) => cli.on('exit', resolve));
    let during = 0;
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      expect(await reads()).toEqual(before);
      during++;
    }
    expect(await exited).toBe(0);
    expect(cliOutput).toMatch(/Rebuilt .*services/);
    expect(during).toBeGreaterThan(0);

    // Past the switch and the retired generation's drop: still the same answers, and ready.
    expect(await reads()).toEqual(before);
    const status = runCli(['projections', 'status', '--json'], { VIGIL_DATA_DIR: dataDir });
    const services = JSON.parse(status.stdout).find((s: { name: string }) => s.name === 'services');
    expect(services).toMatchObject({ generation: 2, lag: 0, building: null });
    expect((await http().get('/readyz')).body).toEqual({ status: 'ready' });
    // And writes after the rebuild land in the new generation.
    const after = await http().post(SERVICES, { name: 'after the rebuild' }, auth);
    expect((await http().get(`${SERVICES}/${after.body.id}`, auth)).body).toEqual(after.body);
  });
});

describe('an API instance without the daemon (VIGIL_DAEMON=off, as beside a worker)', () => {
  it('follows a CLI rebuild to the new generation and keeps answering reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-no-daemon-'));
    const api = await startChildServer({ ...env(), VIGIL_DATA_DIR: dir, VIGIL_DAEMON: 'off' });
    try {
      const client = new HttpClient(api.url);
      const created = await client.post(SERVICES, { name: 'served without a daemon' }, auth);
      expect(created.status).toBe(201);
      const before = (await client.get(`${SERVICES}?limit=100`, auth)).text;

      const rebuilt = runCli(['projections', 'rebuild'], { VIGIL_DATA_DIR: dir });
      expect(rebuilt.status).toBe(0);
      // The CLI has switched and dropped the generation it retired: reads must have moved on.
      const list = await client.get(`${SERVICES}?limit=100`, auth);
      expect(list.status).toBe(200);
      expect(list.text).toBe(before);
      expect((await client.get(`${SERVICES}/${created.body.id}`, auth)).body).toEqual(created.body);
      expect((await client.get(`/next/accounts/${BOOTSTRAP_ACCOUNT}`, auth)).status).toBe(200);
    } finally {
      await api.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('configuration errors at start', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ HOST: 'http://example.com' }, 'HOST'],
    [{ MONGODB_URL: 'mongodb://localhost:27017' }, 'EVENTSTORE_URL'],
    [{ VIGIL_RATE_LIMIT_PER_MINUTE: '0' }, 'VIGIL_RATE_LIMIT_PER_MINUTE'],
  ])('%j: the built server exits non-zero with a message naming %s', (bad, variable) => {
    const result = spawnSync(process.execPath, [API_MAIN], {
      env: { ...process.env, VIGIL_DATA_DIR: dataDir, PORT: '0', ...bad },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBeNull();
    expect(result.stderr).toContain(variable);
    // A message, not a stack trace.
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/**
 * The real `checkly` CLI (8.x, a dev dependency) pointed at Vigil, as an operator would run it:
 * `CHECKLY_ENV=local CHECKLY_API_URL=… checkly status-pages list|get`.
 */
const CHECKLY = join(__dirname, '..', '..', 'node_modules', 'checkly', 'bin', 'run');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let server: TestServer;
let account: TestAccount;
let home: string;
let acme: { id: string; cards: { services: { id: string }[] }[] };
let bare: { id: string };
let apiServiceId: string;

/** Async on purpose: the server answering the CLI runs in this very process. */
function checkly(args: string[], apiKey = account.key): Promise<CliResult> {
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    CHECKLY_ENV: 'local',
    CHECKLY_API_URL: server.url,
    CHECKLY_API_KEY: apiKey,
    CHECKLY_ACCOUNT_ID: account.id,
    CHECKLY_SKIP_NEW_VERSION_CHECK: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [CHECKLY, ...args], { env, cwd: home, timeout: 45_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const rows = (text: string) => text.split('\n').map((line) => line.trim().split(/\s{2,}/));

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  home = mkdtempSync(join(tmpdir(), 'vigil-checkly-'));
  account = await server.account('CLI account');
  const key = { key: account.key };
  apiServiceId = (await server.http.post('/v1/status-pages/services', { name: 'API' }, key)).body.id;
  const web = (await server.http.post('/v1/status-pages/services', { name: 'Web' }, key)).body.id;
  acme = (
    await server.http.post(
      '/v1/status-pages',
      {
        name: 'Acme',
        url: 'acme-cli',
        customDomain: 'status.acme-cli.com',
        cards: [
          { name: 'Core', services: [{ id: apiServiceId }, { id: web }] },
          { name: 'Empty', services: [] },
        ],
      },
      key,
    )
  ).body;
  bare = (await server.http.post('/v1/status-pages', { name: 'Bare', url: 'bare-cli', cards: [] }, key)).body;
  // Another account's page must never show up.
  const stranger = await server.account('Stranger');
  await server.http.post('/v1/status-pages', { name: 'Hidden', url: 'hidden-cli', cards: [] }, { key: stranger.key });
}, 30_000);

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe('checkly status-pages against Vigil', () => {
  it('list -o json: the entries of GET /v1/status-pages with their pagination', async () => {
    const result = await checkly(['status-pages', 'list', '-o', 'json']);
    expect(result).toMatchObject({ code: 0 });
    const api = await server.http.get('/v1/status-pages?limit=25', { key: account.key });
    expect(JSON.parse(result.stdout)).toEqual({ data: api.body.entries, pagination: { nextId: null, length: 2 } });
    expect(api.body.entries.map((e: { name: string }) => e.name)).toEqual(['Bare', 'Acme']);
  }, 60_000);

  it('list -o json --limit 1, then --cursor: walks every page once', async () => {
    const first = JSON.parse((await checkly(['status-pages', 'list', '-o', 'json', '--limit', '1'])).stdout);
    expect(first.data.map((p: { id: string }) => p.id)).toEqual([bare.id]);
    expect(first.pagination).toEqual({ nextId: expect.any(String), length: 1 });
    const second = await checkly(['status-pages', 'list', '-o', 'json', '--limit', '1', '--cursor', first.pagination.nextId]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ data: [expect.objectContaining({ id: acme.id, name: 'Acme' })], pagination: { nextId: null, length: 1 } });
  }, 60_000);

  it('list (table): one row per service, the custom domain as URL, empty cards and pages shown with "-"', async () => {
    const result = await checkly(['status-pages', 'list']);
    expect(result.code).toBe(0);
    const table = rows(result.stdout);
    expect(table).toContainEqual(['NAME', 'URL', 'CARD', 'SERVICE', 'ID']);
    expect(table).toContainEqual(['Acme', 'status.acme-cli.com', 'Core', 'API', acme.id]);
    expect(table).toContainEqual(['Acme', 'status.acme-cli.com', 'Core', 'Web', acme.id]);
    expect(table).toContainEqual(['Acme', 'status.acme-cli.com', 'Empty', '-', acme.id]);
    expect(table).toContainEqual(['Bare', 'bare-cli', '-', '-', bare.id]);
    expect(result.stdout).toContain('2 status pages');
    expect(result.stdout).not.toContain('Hidden');
  }, 60_000);

  it('list --compact: one row per page with its card count', async () => {
    const result = await checkly(['status-pages', 'list', '--compact']);
    expect(result.code).toBe(0);
    const table = rows(result.stdout);
    expect(table).toContainEqual(['NAME', 'URL', 'PRIVATE', 'CARDS', 'ID']);
    expect(table).toContainEqual(['Acme', 'status.acme-cli.com', '-', '2', acme.id]);
    expect(table).toContainEqual(['Bare', 'bare-cli', '-', '0', bare.id]);
  }, 60_000);

  it('get <id> -o json: exactly GET /v1/status-pages/{id}', async () => {
    const result = await checkly(['status-pages', 'get', acme.id, '-o', 'json']);
    expect(result.code).toBe(0);
    const api = await server.http.get(`/v1/status-pages/${acme.id}`, { key: account.key });
    expect(JSON.parse(result.stdout)).toEqual(api.body);
  }, 60_000);

  it('get <id> (detail): url, theme, card count and the services of every card', async () => {
    const result = await checkly(['status-pages', 'get', acme.id]);
    expect(result.code).toBe(0);
    const lines = rows(result.stdout);
    expect(lines).toContainEqual(['Acme']);
    expect(lines).toContainEqual(['URL:', 'status.acme-cli.com']);
    expect(lines).toContainEqual(['Theme:', 'AUTO']);
    expect(lines).toContainEqual(['Cards:', '2']);
    expect(lines).toContainEqual(['ID:', acme.id]);
    expect(lines).toContainEqual(['CARD', 'SERVICE', 'SERVICE ID']);
    expect(lines).toContainEqual(['Core', 'API', apiServiceId]);
  }, 60_000);

  it('get of a page that is not there fails with the API’s message', async () => {
    const result = await checkly(['status-pages', 'get', '01900000-0000-7000-8000-000000000abc']);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('Status page not found');
  }, 60_000);

  it('a wrong API key fails authentication before any command runs', async () => {
    const result = await checkly(['status-pages', 'list'], 'vigil_not-a-real-key');
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/Authentication failed/);
  }, 60_000);
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_MAIN } from '../../libs/testing/src/child-server';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, pathOf } from './people-fixtures';

/** The built CLI (`npm run build`) on a fresh data dir, as an operator bootstraps the first person. */
// Each CLI run (or the provider) is a process start: seconds apiece on a loaded two-core runner, past jest's 30 s default.
jest.setTimeout(120_000);
let dataDir: string;

function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { env: { ...process.env, VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', VIGIL_PUBLIC_URL: 'https://vigil.example.com' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigil-people-cli-'));
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('users on the command line', () => {
  let accountId: string;
  let url: string;

  it('users create makes the first ADMIN of an account; list shows them', async () => {
    accountId = JSON.parse((await cli('accounts', 'create', '--name', 'Acme', '--json')).stdout).id;
    const created = await cli('users', 'create', '--email', 'Ada@Example.com', '--account', accountId, '--role', 'ADMIN', '--json');
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ userId: expect.any(String), email: 'ada@example.com', accountId, role: 'ADMIN' });
    const listed = await cli('users', 'list', '--account', accountId, '--json');
    expect(JSON.parse(listed.stdout)).toEqual([{ userId: expect.any(String), email: 'ada@example.com', role: 'ADMIN', since: expect.any(String) }]);
  });

  it('refuses bad input with a usage error, and an unknown account or address with a clear message', async () => {
    expect((await cli('users', 'create', '--email', 'nope', '--account', accountId, '--role', 'ADMIN')).status).toBe(2);
    expect((await cli('users', 'create', '--email', 'bob@example.com', '--account', accountId, '--role', 'OWNER')).status).toBe(2);
    const missing = await cli('users', 'create', '--email', 'bob@example.com', '--account', '00000000-0000-4000-8000-000000000000', '--role', 'ADMIN');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('does not exist');
    const unknown = await cli('users', 'login-link', '--email', 'nobody@example.com');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No user has this email address');
  });

  it('users login-link --json prints {"url"} on VIGIL_PUBLIC_URL', async () => {
    const link = await cli('users', 'login-link', '--email', 'ada@example.com', '--json');
    expect(link.status).toBe(0);
    const printed = JSON.parse(link.stdout);
    expect(printed).toEqual({ url: expect.stringMatching(/^https:\/\/vigil\.example\.com\/console\/sign-in\/link\?token=[A-Za-z0-9_-]{43}$/) });
    url = printed.url;
  });

  it('the server started on the same data signs the person in with that link, once', async () => {
    const server: TestServer = await startTestServer({ dataDir });
    try {
      const token = new URL(url).searchParams.get('token')!;
      expect((await consoleRequest(server, 'GET', pathOf(url))).status).toBe(200);
      const used = await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token } });
      expect(used.status).toBe(303);
      const home = await consoleRequest(server, 'GET', '/console', { cookie: used.cookie });
      expect(home.text).toContain('Signed in as ada@example.com');
      expect((await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token } })).status).toBe(400);
    } finally {
      await server.close();
    }
  });
});

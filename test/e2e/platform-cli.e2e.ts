import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_MAIN } from '../../libs/testing/src/child-server';

/** The admin CLI as an operator runs it (the built one: `npm run build`), on a fresh data dir. */
interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

let dataDir: string;

/** Asynchronous, so independent invocations run side by side. */
function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { env: { ...process.env, VIGIL_DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('accounts and keys', () => {
  let accountId: string;
  let keyId: string;

  it('accounts create --json prints exactly {"id","name"}', async () => {
    const result = await cli('accounts', 'create', '--name', '  Acme Corp  ', '--json');
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(['id', 'name']);
    expect(printed).toEqual({ id: expect.stringMatching(UUID), name: 'Acme Corp' });
    accountId = printed.id;
  });

  it('accounts create --id uses the given id, once', async () => {
    const id = '01900000-0000-7000-8000-00000000c11a';
    const first = await cli('accounts', 'create', '--name', 'Given id', '--id', id.toUpperCase());
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(id);
    const again = await cli('accounts', 'create', '--name', 'Given id', '--id', id, '--json');
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/already exists/);
    expect(again.stdout).toBe('');
  });

  it('keys create --json prints exactly {"id","apiKey","accountId","role"}', async () => {
    const result = await cli('keys', 'create', '--account', accountId, '--role', 'READ_WRITE', '--name', 'ci', '--json');
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(['id', 'apiKey', 'accountId', 'role']);
    expect(printed).toEqual({ id: expect.stringMatching(UUID), apiKey: expect.stringMatching(/^vgl_/), accountId, role: 'READ_WRITE' });
    keyId = printed.id;
  });

  it('keys create without --json shows the key once, with a warning', async () => {
    const result = await cli('keys', 'create', '--account', accountId, '--role', 'READ_ONLY');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/vgl_[A-Za-z0-9_-]{43}/);
    expect(result.stdout).toMatch(/only once/);
  });

  it('keys list shows the keys without secrets or hashes, newest first', async () => {
    const [text, json] = await Promise.all([cli('keys', 'list', '--account', accountId), cli('keys', 'list', '--account', accountId, '--json')]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(keyId);
    expect(text.stdout).toMatch(/READ_WRITE/);
    expect(json.status).toBe(0);
    const keys = JSON.parse(json.stdout);
    expect(keys.map((k: { role: string }) => k.role)).toEqual(['READ_ONLY', 'READ_WRITE']);
    for (const key of keys) {
      expect(key).not.toHaveProperty('hash');
      expect(key).not.toHaveProperty('apiKey');
      expect(key.prefix).toMatch(/^vgl_/);
    }
    expect(json.stdout).not.toMatch(/vgl_[A-Za-z0-9_-]{20,}/);
  });

  it('keys revoke revokes, and again is harmless', async () => {
    const result = await cli('keys', 'revoke', keyId);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(keyId);
    expect((await cli('keys', 'revoke', keyId)).status).toBe(0);
    const keys = JSON.parse((await cli('keys', 'list', '--account', accountId, '--json')).stdout);
    expect(keys.find((k: { id: string }) => k.id === keyId)).toMatchObject({ revoked: true, revoked_at: expect.any(String) });
  });

  it('keys create may grant several accounts', async () => {
    const other = JSON.parse((await cli('accounts', 'create', '--name', 'Other', '--json')).stdout);
    const result = await cli('keys', 'create', '--account', accountId, '--account', other.id, '--role', 'ADMIN', '--json');
    expect(result.status).toBe(0);
    const listed = JSON.parse((await cli('keys', 'list', '--account', other.id, '--json')).stdout);
    expect(listed).toEqual([expect.objectContaining({ id: JSON.parse(result.stdout).id, accountIds: [accountId, other.id], role: 'ADMIN' })]);
  });
});

describe('projections', () => {
  it('status lists every read model with its lag, as text and JSON', async () => {
    const [text, json] = await Promise.all([cli('projections', 'status'), cli('projections', 'status', '--json')]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/services\s+v\d+ g\d+/);
    const status = JSON.parse(json.stdout);
    const names = status.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'services']));
    for (const entry of status) expect(entry).toMatchObject({ lag: 0, building: null });
  });

  it('rebuild of an unknown read model fails and names the known ones', async () => {
    const result = await cli('projections', 'rebuild', 'nope');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/Unknown projection nope/);
    expect(result.stderr).toMatch(/services/);
  });
});

describe('bad arguments: a non-zero exit and a message', () => {
  const cases: [string[], RegExp][] = [
    [[], /Usage/],
    [['accounts', 'create'], /--name is required/],
    [['accounts', 'create', '--name', '   '], /--name is required/],
    [['accounts', 'create', '--name', 'x'.repeat(256)], /at most 255/],
    [['accounts', 'create', '--name', 'x', '--id', 'acme'], /--id must be a UUID/],
    [['keys', 'create', '--role', 'ADMIN'], /--account is required/],
    [['keys', 'create', '--account', 'not-a-uuid', '--role', 'ADMIN'], /--account must be a UUID/],
    [['keys', 'create', '--account', '01900000-0000-7000-8000-000000000001', '--role', 'ROOT'], /--role must be one of READ_ONLY, READ_WRITE, ADMIN/],
    [['keys', 'create', '--account', '01900000-0000-7000-8000-000000000001', '--role', 'ADMIN'], /does not exist/],
    [['keys', 'list'], /--account must be a UUID/],
    [['keys', 'revoke'], /KEY_ID must be a UUID/],
    [['keys', 'revoke', '01900000-0000-7000-8000-000000000009'], /does not exist/],
    [['accounts', 'create', '--name', 'x', '--bogus'], /Unknown option '--bogus'/],
    [['frobnicate', 'now'], /Unknown command "frobnicate now"/],
  ];
  // Independent invocations, run side by side once; each case then checks its own result.
  let results: CliResult[];
  // Fifteen CLI processes start at once on a machine that may have two cores: a generous hook timeout.
  beforeAll(async () => {
    results = await Promise.all(cases.map(([args]) => cli(...args)));
  }, 180_000);

  it.each(cases.map(([args, message], index) => [args.join(' ') || '(nothing)', message, index] as const))('%s', (_args, message, index) => {
    const result = results[index];
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBeNull();
    expect(`${result.stdout}${result.stderr}`).toMatch(message);
    // A message, not a stack trace.
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help prints the usage and succeeds', async () => {
    const result = await cli('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/accounts create --name NAME/);
  });
});

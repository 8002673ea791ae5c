import { QueryBus } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsQuery } from '../../libs/accounts/src/accounts.api';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';

const PING_KEY = '/v1/accounts/ping-key';

describe('the account ping key: reading is not writing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const stored = (accountId: string) => server.app.get(QueryBus).execute(new AccountsQuery({ type: 'GetPingKey', accountId }));

  it('a READ_ONLY key never mints one: 404 while none was issued, and nothing is written', async () => {
    const account = await server.account('Read only first');
    const readOnly = await account.newKey('READ_ONLY');
    const response = await server.http.get(PING_KEY, { key: readOnly.apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.stringContaining('READ_WRITE or ADMIN') });
    expect(await stored(account.id)).toBeNull();
    expect((await server.http.post(PING_KEY, undefined, { key: readOnly.apiKey })).status).toBe(403);
    expect(await stored(account.id)).toBeNull();

    // Once a writing key has issued it, the read-only key reads that one.
    const issued = await server.http.get(PING_KEY, { key: account.key });
    expect(issued.status).toBe(200);
    expect((await server.http.get(PING_KEY, { key: readOnly.apiKey })).body.pingKey).toBe(issued.body.pingKey);
  });

  it('a READ_WRITE key issues it on first read', async () => {
    const account = await server.account('Read write first');
    const readWrite = await account.newKey('READ_WRITE');
    const response = await server.http.get(PING_KEY, { key: readWrite.apiKey });
    expect(response.status).toBe(200);
    expect((await stored(account.id))?.pingKey).toBe(response.body.pingKey);
  });
});

describe('the bootstrap account', () => {
  const key = `vgl_${randomBytes(32).toString('base64url')}`;
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  async function bootstrapped(dataDir: string): Promise<string[]> {
    const server = await startTestServer({ dataDir, env: { VIGIL_BOOTSTRAP_API_KEY: key } });
    try {
      const accounts = await server.app.get(QueryBus).execute(new AccountsQuery({ type: 'ListAccounts' }));
      for (const { id } of accounts) expect((await server.http.get(`/next/accounts/${id}`, { key })).status).toBe(200);
      return accounts.map((a) => a.id);
    } finally {
      await server.close();
    }
  }

  it('is not derived from the key: two installs with one key get different accounts; a restart finds its own', async () => {
    const first = mkdtempSync(join(tmpdir(), 'vigil-bootstrap-'));
    const second = mkdtempSync(join(tmpdir(), 'vigil-bootstrap-'));
    dirs.push(first, second);
    const [a] = await bootstrapped(first);
    const [b] = await bootstrapped(second);
    expect(a).not.toBe(b);
    expect(await bootstrapped(first)).toEqual([a]);
  });
});

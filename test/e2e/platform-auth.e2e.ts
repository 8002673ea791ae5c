import { runCli } from '../../libs/testing/src/child-server';
import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Contract §1, authentication and accounts, over real HTTP. The CLI cases run the built CLI (`npm run build`). */
let server: TestServer;
let a: TestAccount;
let b: TestAccount;

const SERVICES = '/v1/status-pages/services';

beforeAll(async () => {
  server = await startTestServer();
  a = await server.account('Account A');
  b = await server.account('Account B');
});

afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => server.http.get(path, { headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function expectError(response: HttpResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(Object.keys(response.body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(response.body.statusCode).toBe(status);
  expect(response.body.message).toEqual(expect.any(String));
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

describe('401: no usable key', () => {
  it('without Authorization, with WWW-Authenticate: Bearer', async () => {
    const response = await get(SERVICES);
    expectError(response, 401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    ['another scheme', (key: string) => `Basic ${key}`],
    ['the scheme alone', () => 'Bearer'],
    ['the scheme and blanks', () => 'Bearer    '],
    ['the key alone', (key: string) => key],
    ['two words after the scheme', (key: string) => `Bearer ${key} extra`],
    ['no space after the scheme', (key: string) => `Bearer${key}`],
    ['a non-ASCII key', () => 'Bearer clé-secrète'],
  ])('with a malformed header: %s', async (_case, header) => {
    const response = await get(SERVICES, { authorization: header(a.key) });
    expectError(response, 401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('with a key that does not exist', async () => {
    for (const key of ['vgl_' + 'x'.repeat(43), a.key.slice(0, -1), a.key + 'x', a.key.toUpperCase()]) {
      const response = await get(SERVICES, bearer(key));
      expectError(response, 401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('on every protected prefix: /v1, /next', async () => {
    expectError(await get(`/next/accounts/${a.id}`), 401);
    expectError(await get(`${SERVICES}/${'0'.repeat(8)}-0000-7000-8000-000000000000`), 401);
  });

  it('for a key revoked with the CLI in another process, within 2 s', async () => {
    const key = await a.newKey('READ_WRITE');
    // Used first, so any cache in the server holds it as valid.
    expect((await get(SERVICES, bearer(key.apiKey))).status).toBe(200);
    const revoked = runCli(['keys', 'revoke', key.id], { VIGIL_DATA_DIR: server.dataDir });
    expect(revoked.status).toBe(0);
    const cliDone = Date.now();
    await waitFor(async () => (await get(SERVICES, bearer(key.apiKey))).status === 401, 2000);
    expect(Date.now() - cliDone).toBeLessThan(2000);
    const response = await get(SERVICES, bearer(key.apiKey));
    expectError(response, 401);
    // The account's other keys keep working.
    expect((await get(SERVICES, bearer(a.key))).status).toBe(200);
  });
});

describe('the scheme word', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('is case-insensitive: %s', async (scheme) => {
    expect((await get(SERVICES, { authorization: `${scheme} ${a.key}` })).status).toBe(200);
  });

  it('may be followed by several spaces or a tab, and trailing blanks', async () => {
    expect((await get(SERVICES, { authorization: `Bearer  \t${a.key}  ` })).status).toBe(200);
  });
});

describe('403: the key may not act here', () => {
  it('naming an account the key does not grant, in x-service-account', async () => {
    expectError(await get(SERVICES, { ...bearer(a.key), 'x-service-account': b.id }), 403);
  });

  it('naming an account the key does not grant, in the x-checkly-account alias', async () => {
    expectError(await get(SERVICES, { ...bearer(a.key), 'x-checkly-account': b.id }), 403);
  });

  it('naming an account that does not exist, or a malformed one', async () => {
    expectError(await get(SERVICES, { ...bearer(a.key), 'x-service-account': '01900000-0000-7000-8000-000000000000' }), 403);
    expectError(await get(SERVICES, { ...bearer(a.key), 'x-service-account': 'acme' }), 403);
  });

  it('a key granting several accounts, without the header', async () => {
    const shared = await a.newKey('READ_WRITE', [b.id]);
    const response = await get(SERVICES, bearer(shared.apiKey));
    expectError(response, 403);
    expect(response.body.message).toMatch(/x-service-account/);
  });

  it('a READ_ONLY key on every write', async () => {
    const readOnly = await a.newKey('READ_ONLY');
    const created = await server.http.post(SERVICES, { name: 'by admin' }, { key: a.key });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expectError(await server.http.post(SERVICES, { name: 'x' }, { key: readOnly.apiKey }), 403);
    expectError(await server.http.put(`${SERVICES}/${id}`, { name: 'x' }, { key: readOnly.apiKey }), 403);
    expectError(await server.http.delete(`${SERVICES}/${id}`, { key: readOnly.apiKey }), 403);
    // Reads are allowed, and nothing was written.
    const read = await server.http.get(`${SERVICES}/${id}`, { key: readOnly.apiKey });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('by admin');
    expect(read.headers.get('etag')).toBe('"0"');
  });

  it('GET /next/accounts/{id} of an account the key does not grant (another, unknown or malformed)', async () => {
    expectError(await get(`/next/accounts/${b.id}`, bearer(a.key)), 403);
    expectError(await get('/next/accounts/01900000-0000-7000-8000-000000000000', bearer(a.key)), 403);
    expectError(await get('/next/accounts/not-an-id', bearer(a.key)), 403);
  });
});

describe('account selection', () => {
  it('a key granting one account may omit the header, or name its account in any case', async () => {
    expect((await get(SERVICES, bearer(a.key))).status).toBe(200);
    expect((await get(SERVICES, { ...bearer(a.key), 'x-service-account': a.id.toUpperCase() })).status).toBe(200);
  });

  it('a key granting several accounts acts on the one it names, by either header', async () => {
    const shared = await a.newKey('READ_WRITE', [b.id]);
    const inA = await server.http.post(SERVICES, { name: 'only in A' }, { key: shared.apiKey, headers: { 'x-service-account': a.id } });
    expect(inA.status).toBe(201);
    expect(inA.body.accountId).toBe(a.id);
    const inB = await server.http.post(SERVICES, { name: 'only in B' }, { key: shared.apiKey, headers: { 'x-checkly-account': b.id } });
    expect(inB.status).toBe(201);
    expect(inB.body.accountId).toBe(b.id);

    const listA = await get(`${SERVICES}?limit=100`, { ...bearer(shared.apiKey), 'x-service-account': a.id });
    const listB = await get(`${SERVICES}?limit=100`, { ...bearer(shared.apiKey), 'x-checkly-account': b.id });
    expect(listA.body.entries.map((s: { name: string }) => s.name)).toContain('only in A');
    expect(listA.body.entries.map((s: { name: string }) => s.name)).not.toContain('only in B');
    expect(listB.body.entries.map((s: { name: string }) => s.name)).toEqual(['only in B']);
    // Another account's service is a 404, whatever key asks.
    expectError(await get(`${SERVICES}/${inB.body.id}`, bearer(a.key)), 404);
  });

  it('GET /next/accounts/{id} answers the account document the checkly CLI expects', async () => {
    const response = await get(`/next/accounts/${a.id}`, bearer(a.key));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: a.id,
      name: 'Account A',
      runtimeId: expect.any(String),
      plan: expect.any(String),
      planDisplayName: expect.any(String),
      features: [],
    });
    // The path names the account; a key granting several needs no header there.
    const shared = await a.newKey('READ_ONLY', [b.id]);
    expect((await get(`/next/accounts/${b.id}`, bearer(shared.apiKey))).body).toMatchObject({ id: b.id, name: 'Account B' });
    expect((await get(`/next/accounts/${a.id.toUpperCase()}`, bearer(a.key))).body.id).toBe(a.id);
  });
});

describe('keys and accounts made by the CLI in another process', () => {
  it('work against the running server at once (within 2 s)', async () => {
    const env = { VIGIL_DATA_DIR: server.dataDir };
    const account = runCli(['accounts', 'create', '--name', 'Made by the CLI', '--json'], env);
    expect(account.status).toBe(0);
    const { id } = JSON.parse(account.stdout);
    const key = runCli(['keys', 'create', '--account', id, '--role', 'READ_WRITE', '--json'], env);
    expect(key.status).toBe(0);
    const { apiKey } = JSON.parse(key.stdout);
    const cliDone = Date.now();

    await waitFor(async () => (await get(`/next/accounts/${id}`, bearer(apiKey))).status === 200, 2000);
    expect(Date.now() - cliDone).toBeLessThan(2000);
    expect((await get(`/next/accounts/${id}`, bearer(apiKey))).body.name).toBe('Made by the CLI');
    const created = await server.http.post(SERVICES, { name: 'from a CLI key' }, { key: apiKey });
    expect(created.status).toBe(201);
    expect(created.body.accountId).toBe(id);
  });
});

import { CommandBus } from '@nestjs/cqrs';
import { RunApiKeyCommand } from '../../libs/accounts/src/accounts.api';
import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Contract §1 conventions and §3 services, over real HTTP against one server on a temp SQLite file. */
let server: TestServer;
let acct: TestAccount;

const SERVICES = '/v1/status-pages/services';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ID = '01900000-0000-7000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer();
  acct = await server.account();
});

afterAll(() => server.close());

const as = (account: TestAccount, headers: Record<string, string> = {}) => ({ key: account.key, headers });

function expectError(response: HttpResponse, status: number, details?: string[]): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const keys = Object.keys(response.body).sort();
  expect(keys).toEqual(details ? ['details', 'error', 'message', 'statusCode'] : ['error', 'message', 'statusCode']);
  expect(response.body.statusCode).toBe(status);
  expect(response.body.error).toEqual(expect.any(String));
  expect(response.body.message).toEqual(expect.any(String));
  if (details) {
    for (const detail of response.body.details) expect(detail).toEqual({ path: expect.any(String), message: expect.any(String) });
    expect([...new Set(response.body.details.map((d: { path: string }) => d.path))]).toEqual(details);
  }
}

async function createService(name: string, account = acct): Promise<{ id: string; [k: string]: unknown }> {
  const response = await server.http.post(SERVICES, { name }, as(account));
  expect(response.status).toBe(201);
  return response.body;
}

describe('services: the happy path', () => {
  it('creates (201), reads back the same document with its ETag, updates, deletes', async () => {
    const created = await server.http.post(SERVICES, { name: '  Public API  ' }, as(acct));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      accountId: acct.id,
      name: 'Public API',
      created_at: expect.stringMatching(ISO_MS),
      updated_at: created.body.created_at,
      checks: [],
    });
    expect(created.headers.get('etag')).toBe('"0"');
    const id = created.body.id;

    const read = await server.http.get(`${SERVICES}/${id}`, as(acct));
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(read.headers.get('etag')).toBe('"0"');
    // Ids are case-insensitive in paths.
    expect((await server.http.get(`${SERVICES}/${id.toUpperCase()}`, as(acct))).body).toEqual(created.body);

    const updated = await server.http.put(`${SERVICES}/${id}`, { name: 'API v2' }, as(acct));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'API v2', created_at: created.body.created_at });
    expect(updated.headers.get('etag')).toBe('"1"');
    expect((await server.http.get(`${SERVICES}/${id}`, as(acct))).body).toEqual(updated.body);

    // The same name again changes nothing, not even the ETag.
    const same = await server.http.put(`${SERVICES}/${id}`, { name: 'API v2' }, as(acct));
    expect(same.status).toBe(200);
    expect(same.body).toEqual(updated.body);
    expect(same.headers.get('etag')).toBe('"1"');

    const deleted = await server.http.delete(`${SERVICES}/${id}`, as(acct));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await server.http.get(`${SERVICES}/${id}`, as(acct)), 404);
    expectError(await server.http.put(`${SERVICES}/${id}`, { name: 'back' }, as(acct)), 404);
    expectError(await server.http.delete(`${SERVICES}/${id}`, as(acct)), 404);
    const list = await server.http.get(`${SERVICES}?limit=100`, as(acct));
    expect(list.body.entries.map((s: { id: string }) => s.id)).not.toContain(id);
  });

  it('ignores unknown and server-managed fields in the body', async () => {
    const other = await server.account();
    const created = await server.http.post(
      SERVICES,
      { name: 'Lenient', id: MISSING_ID, accountId: other.id, created_at: '2000-01-01T00:00:00.000Z', updated_at: 'x', checks: [{ id: 'c' }], extra: { deep: true } },
      as(acct),
    );
    expect(created.status).toBe(201);
    expect(created.body.id).not.toBe(MISSING_ID);
    expect(created.body.accountId).toBe(acct.id);
    expect(created.body.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    expect(created.body.checks).toEqual([]);
    expect(created.body).not.toHaveProperty('extra');
  });

  it('accepts Content-Type with a charset, and a name of exactly 255 characters', async () => {
    const response = await server.http.request('POST', SERVICES, {
      key: acct.key,
      rawBody: JSON.stringify({ name: 'n'.repeat(255) }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
    expect(response.body.name).toHaveLength(255);
  });

  it("hides another account's service: 404 on read, update and delete, and absent from lists", async () => {
    const other = await server.account();
    const theirs = await createService('Theirs', other);
    expectError(await server.http.get(`${SERVICES}/${theirs.id}`, as(acct)), 404);
    expectError(await server.http.put(`${SERVICES}/${theirs.id}`, { name: 'mine now' }, as(acct)), 404);
    expectError(await server.http.delete(`${SERVICES}/${theirs.id}`, as(acct)), 404);
    expect((await server.http.get(`${SERVICES}/${theirs.id}`, as(other))).body.name).toBe('Theirs');
  });
});

describe('services: bad input', () => {
  const bodies: [string, unknown][] = [
    ['missing name', {}],
    ['empty name', { name: '' }],
    ['whitespace-only name', { name: '   \t ' }],
    ['name of 256 characters', { name: 'n'.repeat(256) }],
    ['name that is a number', { name: 5 }],
    ['name that is null', { name: null }],
    ['name that is an array', { name: ['a'] }],
    ['name that is an object', { name: { text: 'a' } }],
  ];

  it.each(bodies)('POST with a %s → 400 naming `name`', async (_case, body) => {
    expectError(await server.http.post(SERVICES, body, as(acct)), 400, ['name']);
  });

  it.each(bodies)('PUT with a %s → 400 naming `name`, nothing written', async (_case, body) => {
    const service = await createService('Before');
    expectError(await server.http.put(`${SERVICES}/${service.id}`, body, as(acct)), 400, ['name']);
    const read = await server.http.get(`${SERVICES}/${service.id}`, as(acct));
    expect(read.body.name).toBe('Before');
    expect(read.headers.get('etag')).toBe('"0"');
  });

  it.each([
    ['an array', '[{"name":"a"}]'],
    ['a string', '"a"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('a body that is %s → 400', async (_case, raw) => {
    expectError(
      await server.http.request('POST', SERVICES, { key: acct.key, rawBody: raw, headers: { 'content-type': 'application/json' } }),
      400,
      [''],
    );
  });

  it('no body at all → 400', async () => {
    expectError(await server.http.request('POST', SERVICES, { key: acct.key, headers: { 'content-type': 'application/json' } }), 400, ['']);
  });

  it.each(['{"name": "a"', '{name: "a"}', "{'name': 'a'}", '{"name": "a",}', 'nope'])('malformed JSON %j → 400', async (raw) => {
    const response = await server.http.request('POST', SERVICES, { key: acct.key, rawBody: raw, headers: { 'content-type': 'application/json' } });
    expectError(response, 400);
    expect(response.body.message).toMatch(/JSON/);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'])(
    'Content-Type %s → 415',
    async (type) => {
      expectError(await server.http.request('POST', SERVICES, { key: acct.key, rawBody: '{"name":"a"}', headers: { 'content-type': type } }), 415);
      const service = await createService('Typed');
      expectError(
        await server.http.request('PUT', `${SERVICES}/${service.id}`, { key: acct.key, rawBody: '{"name":"b"}', headers: { 'content-type': type } }),
        415,
      );
    },
  );

  it('a body over 1 MiB → 413, and nothing is created', async () => {
    const before = (await server.http.get(`${SERVICES}?limit=100`, as(acct))).body.length;
    const response = await server.http.post(SERVICES, { name: 'big', padding: 'x'.repeat(1024 * 1024) }, as(acct));
    expectError(response, 413);
    expect((await server.http.get(`${SERVICES}?limit=100`, as(acct))).body.length).toBe(before);
  });

  it.each([
    ['__proto__ at the top', '{"name":"a","__proto__":{"isAdmin":true}}', '__proto__'],
    ['constructor nested', '{"name":"a","meta":{"constructor":{"prototype":{}}}}', 'meta.constructor'],
    ['prototype in an array', '{"name":"a","list":[{"ok":1},{"prototype":1}]}', 'list[1].prototype'],
    ['__proto__ deep in arrays', '{"name":"a","cards":[{"services":[{"id":"x","__proto__":null}]}]}', 'cards[0].services[0].__proto__'],
  ])('%s → 400 with its path', async (_case, raw, path) => {
    const response = await server.http.request('POST', SERVICES, { key: acct.key, rawBody: raw, headers: { 'content-type': 'application/json' } });
    expectError(response, 400, [path]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each(['not-a-uuid', '123', `${MISSING_ID}x`, MISSING_ID.replace(/-/g, ''), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', "'%20OR%201=1"])(
    'a malformed id %j → 404 on GET, PUT and DELETE',
    async (id) => {
      expectError(await server.http.get(`${SERVICES}/${id}`, as(acct)), 404);
      expectError(await server.http.put(`${SERVICES}/${id}`, { name: 'x' }, as(acct)), 404);
      expectError(await server.http.delete(`${SERVICES}/${id}`, as(acct)), 404);
    },
  );

  it('an unknown id → 404', async () => {
    expectError(await server.http.get(`${SERVICES}/${MISSING_ID}`, as(acct)), 404);
  });

  it.each(['0', '101', 'abc', '2.5', '-1', '', '1e1', '10&limit=20'])('limit=%s → 400 naming limit', async (limit) => {
    expectError(await server.http.get(`${SERVICES}?limit=${limit}`, as(acct)), 400, ['limit']);
  });
});

describe('routes', () => {
  it.each(['/v1/nothing', '/v1/status-pages/services/x/y', '/nope', '/v2/status-pages/services'])('unknown route %s → 404', async (path) => {
    expectError(await server.http.get(path, as(acct)), 404);
  });

  it('a known path with the wrong method → 405 with Allow', async () => {
    const list = await server.http.request('PATCH', SERVICES, as(acct));
    expectError(list, 405);
    // (PUT and DELETE may be allowed here: /v1/status-pages/{statusPageId} also matches this path.)
    expect(list.headers.get('allow')?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(list.headers.get('allow')).not.toMatch(/PATCH/);

    const one = await server.http.request('PATCH', `${SERVICES}/${MISSING_ID}`, { ...as(acct), body: { name: 'x' } });
    expectError(one, 405);
    expect(one.headers.get('allow')?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'PUT', 'DELETE']));
    expect(one.headers.get('allow')).not.toMatch(/PATCH|POST/);

    const health = await server.http.request('POST', '/healthz', { body: {} });
    expectError(health, 405);
    expect(health.headers.get('allow')).toMatch(/GET/);
  });
});

describe('pagination', () => {
  it('pages newest first with the envelope {length, entries, nextId}; default limit 20', async () => {
    const account = await server.account();
    const made: string[] = [];
    for (let i = 0; i < 23; i++) made.push((await createService(`s${i}`, account)).id);
    const first = await server.http.get(SERVICES, as(account));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['entries', 'length', 'nextId']);
    expect(first.body.length).toBe(20);
    expect(first.body.entries).toHaveLength(20);
    expect(first.body.entries.map((s: { id: string }) => s.id)).toEqual([...made].reverse().slice(0, 20));
    expect(first.body.entries[0]).toEqual((await server.http.get(`${SERVICES}/${made[22]}`, as(account))).body);

    const second = await server.http.get(`${SERVICES}?nextId=${encodeURIComponent(first.body.nextId)}`, as(account));
    expect(second.body).toEqual({ length: 3, entries: expect.any(Array), nextId: null });
    expect(second.body.entries.map((s: { id: string }) => s.id)).toEqual([...made].reverse().slice(20));

    const all = await server.http.get(`${SERVICES}?limit=100`, as(account));
    expect(all.body.length).toBe(23);
    expect(all.body.nextId).toBeNull();
    const exact = await server.http.get(`${SERVICES}?limit=23`, as(account));
    expect(exact.body.nextId).toBeNull();
  });

  it('an empty list', async () => {
    const account = await server.account();
    expect((await server.http.get(SERVICES, as(account))).body).toEqual({ length: 0, entries: [], nextId: null });
  });

  it('a walk under concurrent inserts returns every entry that existed at the first call exactly once', async () => {
    const account = await server.account();
    const existing = new Set<string>();
    for (let i = 0; i < 30; i++) existing.add((await createService(`before ${i}`, account)).id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      // Other writers keep inserting while the client walks, several between any two pages.
      const inserts = Promise.all([0, 1, 2].map((j) => createService(`during ${pages}.${j}`, account)));
      const query: string = cursor ? `&nextId=${encodeURIComponent(cursor)}` : '';
      const page = await server.http.get(`${SERVICES}?limit=4${query}`, as(account));
      expect(page.status).toBe(200);
      expect(page.body.length).toBe(page.body.entries.length);
      seen.push(...page.body.entries.map((s: { id: string }) => s.id));
      cursor = page.body.nextId;
      await inserts;
      pages++;
    } while (cursor !== null && pages < 50);

    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen.filter((s) => s === id)).toHaveLength(1);
  });

  it('refuses a forged, tampered or foreign cursor with a 400', async () => {
    const account = await server.account();
    for (let i = 0; i < 3; i++) await createService(`p${i}`, account);
    const page = await server.http.get(`${SERVICES}?limit=1`, as(account));
    const cursor: string = page.body.nextId;
    expect(cursor).toEqual(expect.any(String));
    expect((await server.http.get(`${SERVICES}?limit=1&nextId=${encodeURIComponent(cursor)}`, as(account))).status).toBe(200);

    const [payload, signature] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const reencoded = Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', decoded[1]])).toString('base64url');
    const forged = [
      'abc',
      '',
      `${reencoded}.${signature}`,
      `${payload}.${signature.slice(0, -2)}xx`,
      `${payload}.${signature}.extra`,
      Buffer.from(JSON.stringify(decoded)).toString('base64url'),
      MISSING_ID,
    ];
    for (const nextId of forged) {
      expectError(await server.http.get(`${SERVICES}?nextId=${encodeURIComponent(nextId)}`, as(account)), 400, ['nextId']);
    }
    // Another account's list refuses it, even through a key granting both accounts.
    expectError(await server.http.get(`${SERVICES}?nextId=${encodeURIComponent(cursor)}`, as(acct)), 400, ['nextId']);
  });
});

describe('ETag and If-Match', () => {
  it('a stale If-Match → 412 and nothing written; a matching one → 200 with the next ETag', async () => {
    const service = await createService('v0');
    const id = service.id;
    expect((await server.http.put(`${SERVICES}/${id}`, { name: 'v1' }, as(acct, { 'if-match': '"0"' }))).headers.get('etag')).toBe('"1"');

    for (const stale of ['"0"', '"7"', 'W/"0"', 'garbage']) {
      expectError(await server.http.put(`${SERVICES}/${id}`, { name: 'lost' }, as(acct, { 'if-match': stale })), 412);
    }
    const read = await server.http.get(`${SERVICES}/${id}`, as(acct));
    expect(read.body.name).toBe('v1');
    expect(read.headers.get('etag')).toBe('"1"');

    const matched = await server.http.put(`${SERVICES}/${id}`, { name: 'v2' }, as(acct, { 'if-match': read.headers.get('etag')! }));
    expect(matched.status).toBe(200);
    expect(matched.body.name).toBe('v2');
    expect(matched.headers.get('etag')).toBe('"2"');
    const weak = await server.http.put(`${SERVICES}/${id}`, { name: 'v3' }, as(acct, { 'if-match': 'W/"2"' }));
    expect(weak.headers.get('etag')).toBe('"3"');
    const any = await server.http.put(`${SERVICES}/${id}`, { name: 'v4' }, as(acct, { 'if-match': '*' }));
    expect(any.headers.get('etag')).toBe('"4"');
  });

  it('DELETE honours If-Match too', async () => {
    const service = await createService('doomed');
    await server.http.put(`${SERVICES}/${service.id}`, { name: 'renamed' }, as(acct));
    expectError(await server.http.delete(`${SERVICES}/${service.id}`, as(acct, { 'if-match': '"0"' })), 412);
    expect((await server.http.get(`${SERVICES}/${service.id}`, as(acct))).status).toBe(200);
    expect((await server.http.delete(`${SERVICES}/${service.id}`, as(acct, { 'if-match': '"1"' }))).status).toBe(204);
  });

  it('a missing service with If-Match is still a 404, revealing nothing', async () => {
    expectError(await server.http.put(`${SERVICES}/${MISSING_ID}`, { name: 'x' }, as(acct, { 'if-match': '"0"' })), 404);
  });

  it('concurrent updates without If-Match are all applied, one after another', async () => {
    const service = await createService('race');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => server.http.put(`${SERVICES}/${service.id}`, { name: `name ${i}` }, as(acct))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await server.http.get(`${SERVICES}/${service.id}`, as(acct))).headers.get('etag')).toBe('"10"');
  });
});

describe('Idempotency-Key', () => {
  it('a retry with the same key and body gets the original status and body, and writes nothing', async () => {
    const account = await server.account();
    const headers = { 'idempotency-key': 'create-api-1' };
    const first = await server.http.post(SERVICES, { name: 'Once' }, as(account, headers));
    expect(first.status).toBe(201);
    const retry = await server.http.post(SERVICES, { name: 'Once' }, as(account, headers));
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    const list = await server.http.get(`${SERVICES}?limit=100`, as(account));
    expect(list.body.entries.map((s: { id: string }) => s.id)).toEqual([first.body.id]);
  });

  it('the same key with another body → 409, nothing written', async () => {
    const account = await server.account();
    const headers = { 'idempotency-key': 'k-409' };
    expect((await server.http.post(SERVICES, { name: 'One' }, as(account, headers))).status).toBe(201);
    expectError(await server.http.post(SERVICES, { name: 'Two' }, as(account, headers)), 409);
    expect((await server.http.get(SERVICES, as(account))).body.length).toBe(1);
  });

  it('a key is scoped to the caller: another account may use the same key', async () => {
    const one = await server.account();
    const two = await server.account();
    const headers = { 'idempotency-key': 'shared-key' };
    const a = await server.http.post(SERVICES, { name: 'Same' }, as(one, headers));
    const b = await server.http.post(SERVICES, { name: 'Same' }, as(two, headers));
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.accountId).toBe(two.id);
  });

  it('a failed request does not use up its key', async () => {
    const account = await server.account();
    const headers = { 'idempotency-key': 'after-400' };
    expectError(await server.http.post(SERVICES, { name: '' }, as(account, headers)), 400, ['name']);
    expect((await server.http.post(SERVICES, { name: 'Fixed' }, as(account, headers))).status).toBe(201);
  });

  it('a replay is only for a key that still works: revoked → 401, and no key → 401', async () => {
    const account = await server.account();
    const key = await account.newKey('READ_WRITE');
    const headers = { 'idempotency-key': 'before-revoke' };
    expect((await server.http.post(SERVICES, { name: 'Kept' }, { key: key.apiKey, headers })).status).toBe(201);
    await server.app.get(CommandBus).execute(new RunApiKeyCommand({ type: 'RevokeApiKey', id: key.id }, { accountId: null }));
    // Past the key cache's second.
    await new Promise((r) => setTimeout(r, 1100));
    expectError(await server.http.post(SERVICES, { name: 'Kept' }, { key: key.apiKey, headers }), 401);
    expectError(await server.http.post(SERVICES, { name: 'Kept' }, { headers }), 401);
  });

  it('a READ_ONLY key gets its 403 even with an Idempotency-Key', async () => {
    const readOnly = await acct.newKey('READ_ONLY');
    expectError(await server.http.post(SERVICES, { name: 'no' }, { key: readOnly.apiKey, headers: { 'idempotency-key': 'ro-1' } }), 403);
  });

  it('concurrent requests with the same key: one is answered, the other is told it is in progress', async () => {
    const account = await server.account();
    const headers = { 'idempotency-key': 'concurrent' };
    const results = await Promise.all([0, 1, 2].map(() => server.http.post(SERVICES, { name: 'Racing' }, as(account, headers))));
    const created = results.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const other of results.filter((r) => r.status !== 201)) expectError(other, 409);
    expect((await server.http.get(SERVICES, as(account))).body.length).toBe(1);
  });

  it('an unusable key → 400', async () => {
    expectError(await server.http.post(SERVICES, { name: 'x' }, as(acct, { 'idempotency-key': 'k'.repeat(300) })), 400, ['Idempotency-Key']);
  });
});

describe('request ids', () => {
  it('echoes a client x-request-id, on successes and on errors', async () => {
    for (const [path, key] of [[SERVICES, acct.key], [SERVICES, undefined], ['/v1/none', acct.key], ['/healthz', undefined]] as const) {
      const response = await server.http.get(path, { key, headers: { 'x-request-id': 'trace-abc.123' } });
      expect(response.headers.get('x-request-id')).toBe('trace-abc.123');
    }
  });

  it('generates one when the client sends none, or an unusable one', async () => {
    const a = await server.http.get(SERVICES, as(acct));
    const b = await server.http.get(SERVICES, as(acct, { 'x-request-id': 'has spaces and <html>' }));
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(b.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    const big = await server.http.post(SERVICES, { name: 'big', padding: 'x'.repeat(1024 * 1024) }, as(acct));
    expect(big.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('operations endpoints', () => {
  it('/healthz answers without a key', async () => {
    const response = await server.http.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('/readyz answers ready once the read models have caught up', async () => {
    const response = await server.http.get('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
  });

  it('/openapi.json is an OpenAPI 3.1 document listing the services paths', async () => {
    const response = await server.http.get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
    const doc = response.body;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(doc.paths[SERVICES]).sort()).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths[`${SERVICES}/{serviceId}`]).sort()).toEqual(expect.arrayContaining(['delete', 'get', 'put']));
    expect(doc.paths['/next/accounts/{accountId}']).toHaveProperty('get');
    expect(doc.components?.securitySchemes).toBeDefined();
  });

  it('/docs is HTML that loads its assets from this server, none from a CDN', async () => {
    const response = await server.http.get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.text).toMatch(/<html/i);
    const assets = [...response.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const loaded = await fetch(new URL(asset, `${server.url}/docs`));
      expect(loaded.status).toBe(200);
      await loaded.arrayBuffer();
    }
    // No absolute URL anywhere but XML namespaces.
    const urls = [...response.text.matchAll(/https?:\/\/[^"'\s)]+/g)].map((m) => m[0]).filter((u) => !u.startsWith('http://www.w3.org/'));
    expect(urls).toEqual([]);
  });
});

import { ManualClock } from '../../libs/core/src/clock';
import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const T0 = '2026-04-01T09:00:00.000Z';

const clock = new ManualClock(T0);
let server: TestServer;
let count = 0;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(() => server.close());

const key = (account: TestAccount) => ({ key: account.key });
const email = (config: string) => ({ type: 'EMAIL', config });

async function newPage(account: TestAccount): Promise<{ id: string; url: string }> {
  const response = await server.http.post('/v1/status-pages', { name: 'Acme', url: `subs-${++count}`, cards: [] }, key(account));
  expect(response.status).toBe(201);
  return response.body;
}

const subscriptions = (account: TestAccount, pageId: string) => server.http.get(`/v1/status-pages/${pageId}/subscriptions`, key(account));
const bulk = (account: TestAccount, pageId: string, body: unknown) => server.http.post(`/v1/status-pages/${pageId}/subscriptions/bulk`, body, key(account));

function expectError(response: HttpResponse, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual(expect.objectContaining({ statusCode: status, error, message: expect.any(String) }));
}

describe('status page subscriptions', () => {
  it('a new page has none: a plain empty array', async () => {
    const account = await server.account();
    const page = await newPage(account);
    const response = await subscriptions(account, page.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('bulk create: 201 with counts; invalid addresses and duplicates (in the batch, any case) are skipped; PENDING without autoVerify', async () => {
    clock.set(T0);
    const account = await server.account();
    const page = await newPage(account);
    const response = await bulk(account, page.id, {
      subscriptions: [
        email('ops@example.com'),
        email('  dev@example.com '),
        email('not an address'),
        email('OPS@Example.com'),
        email('nobody@localhost'),
        email(''),
        email('cto@example.org'),
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ created: 3, skipped: 4, status: 'PENDING' });
    const list = await subscriptions(account, page.id);
    expect(list.body).toEqual(
      ['ops@example.com', 'dev@example.com', 'cto@example.org'].map((address) => ({
        id: expect.stringMatching(UUID),
        type: 'EMAIL',
        address,
        status: 'PENDING',
        created_at: T0,
        updated_at: T0,
      })),
    );
  });

  it('autoVerify: true makes them VERIFIED; addresses already subscribed are skipped; the list stays in sign-up order', async () => {
    clock.set(T0);
    const account = await server.account();
    const page = await newPage(account);
    expect((await bulk(account, page.id, { subscriptions: [email('a@example.com')], autoVerify: false })).body).toEqual({ created: 1, skipped: 0, status: 'PENDING' });
    clock.set('2026-04-01T10:00:00.000Z');
    const second = await bulk(account, page.id, { subscriptions: [email('A@EXAMPLE.COM'), email('b@example.com')], autoVerify: true });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({ created: 1, skipped: 1, status: 'VERIFIED' });
    const list = (await subscriptions(account, page.id)).body;
    expect(list.map((s: { address: string; status: string; created_at: string }) => [s.address, s.status, s.created_at])).toEqual([
      ['a@example.com', 'PENDING', T0],
      ['b@example.com', 'VERIFIED', '2026-04-01T10:00:00.000Z'],
    ]);
    const nothingNew = await bulk(account, page.id, { subscriptions: [email('b@example.com')] });
    expect(nothingNew.status).toBe(201);
    expect(nothingNew.body).toEqual({ created: 0, skipped: 1, status: 'PENDING' });
  });

  it('webhook URLs are one subscriber when only their scheme or host differ in case; path and query are compared exactly', async () => {
    const account = await server.account();
    const page = await newPage(account);
    const hook = (config: string) => ({ type: 'WEBHOOK', config });
    const first = await bulk(account, page.id, { subscriptions: [hook('https://hooks.example.com/Hook?k=A'), hook('HTTPS://HOOKS.EXAMPLE.COM/Hook?k=A')] });
    expect(first.body).toEqual({ created: 1, skipped: 1, status: 'PENDING' });
    const second = await bulk(account, page.id, {
      subscriptions: [hook('https://hooks.example.com/hook?k=A'), hook('https://hooks.example.com/Hook?k=a'), hook('https://Hooks.Example.com:443/Hook?k=A')],
    });
    expect(second.body).toEqual({ created: 2, skipped: 1, status: 'PENDING' });
    expect((await subscriptions(account, page.id)).body.map((s: { address: string }) => s.address)).toEqual([
      'https://hooks.example.com/Hook?k=A',
      'https://hooks.example.com/hook?k=A',
      'https://hooks.example.com/Hook?k=a',
    ]);
  });

  it('takes 100 at once, the same addresses on two pages are two subscriptions', async () => {
    const account = await server.account();
    const [first, second] = [await newPage(account), await newPage(account)];
    const hundred = Array.from({ length: 100 }, (_, i) => email(`user${i}@example.com`));
    expect((await bulk(account, first.id, { subscriptions: hundred })).body).toEqual({ created: 100, skipped: 0, status: 'PENDING' });
    expect((await bulk(account, second.id, { subscriptions: hundred.slice(0, 3) })).body).toEqual({ created: 3, skipped: 0, status: 'PENDING' });
    expect((await subscriptions(account, first.id)).body).toHaveLength(100);
    expect((await subscriptions(account, second.id)).body).toHaveLength(3);
  });

  it('concurrent bulk requests with the same address create it once', async () => {
    const account = await server.account();
    const page = await newPage(account);
    const responses = await Promise.all([0, 1, 2, 3, 4].map(() => bulk(account, page.id, { subscriptions: [email('same@example.com')] })));
    expect(responses.map((r) => r.body.created).reduce((a: number, b: number) => a + b, 0)).toBe(1);
    expect((await subscriptions(account, page.id)).body).toHaveLength(1);
  });

  it('delete: 204, gone from the list, the address may subscribe again; a second delete is 404', async () => {
    const account = await server.account();
    const page = await newPage(account);
    await bulk(account, page.id, { subscriptions: [email('a@example.com'), email('b@example.com')] });
    const [a, b] = (await subscriptions(account, page.id)).body;
    const response = await server.http.delete(`/v1/status-pages/${page.id}/subscriptions/${a.id}`, key(account));
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await subscriptions(account, page.id)).body).toEqual([b]);
    expectError(await server.http.delete(`/v1/status-pages/${page.id}/subscriptions/${a.id}`, key(account)), 404, 'Not Found');
    expect((await bulk(account, page.id, { subscriptions: [email('a@example.com')] })).body).toEqual({ created: 1, skipped: 0, status: 'PENDING' });
  });

  it('404 for an unknown or malformed subscription id, or one of another page', async () => {
    const account = await server.account();
    const [page, other] = [await newPage(account), await newPage(account)];
    await bulk(account, other.id, { subscriptions: [email('a@example.com')] });
    const [theirs] = (await subscriptions(account, other.id)).body;
    for (const id of ['01900000-0000-7000-8000-000000000abc', 'nope', theirs.id]) {
      expectError(await server.http.delete(`/v1/status-pages/${page.id}/subscriptions/${id}`, key(account)), 404, 'Not Found');
    }
    expect((await subscriptions(account, other.id)).body).toEqual([theirs]);
  });

  it('signing up subscribers does not change the page (its ETag stays)', async () => {
    const account = await server.account();
    const page = await newPage(account);
    await bulk(account, page.id, { subscriptions: [email('a@example.com')] });
    const read = await server.http.get(`/v1/status-pages/${page.id}`, key(account));
    expect(read.headers.get('etag')).toBe('"0"');
    expect(read.body).toEqual(page);
  });

  it('a deleted page has no subscriptions any more: 404 to list, add or delete', async () => {
    const account = await server.account();
    const page = await newPage(account);
    await bulk(account, page.id, { subscriptions: [email('a@example.com')] });
    const [sub] = (await subscriptions(account, page.id)).body;
    expect((await server.http.delete(`/v1/status-pages/${page.id}`, key(account))).status).toBe(204);
    expectError(await subscriptions(account, page.id), 404, 'Not Found');
    expectError(await bulk(account, page.id, { subscriptions: [email('b@example.com')] }), 404, 'Not Found');
    expectError(await server.http.delete(`/v1/status-pages/${page.id}/subscriptions/${sub.id}`, key(account)), 404, 'Not Found');
  });

  it('another account’s page is a 404 for every subscription route, and nothing changes', async () => {
    const owner = await server.account();
    const stranger = await server.account();
    const page = await newPage(owner);
    await bulk(owner, page.id, { subscriptions: [email('a@example.com')] });
    const [sub] = (await subscriptions(owner, page.id)).body;
    expectError(await subscriptions(stranger, page.id), 404, 'Not Found');
    expectError(await bulk(stranger, page.id, { subscriptions: [email('evil@example.com')] }), 404, 'Not Found');
    expectError(await server.http.delete(`/v1/status-pages/${page.id}/subscriptions/${sub.id}`, key(stranger)), 404, 'Not Found');
    expect((await subscriptions(owner, page.id)).body).toEqual([sub]);
  });

  it('unknown and malformed page ids are 404, whatever the body', async () => {
    const account = await server.account();
    for (const id of ['01900000-0000-7000-8000-000000000abc', 'nope']) {
      expectError(await subscriptions(account, id), 404, 'Not Found');
      expectError(await bulk(account, id, { subscriptions: [email('a@example.com')] }), 404, 'Not Found');
    }
    expectError(await bulk(account, 'nope', { subscriptions: 'bad' }), 404, 'Not Found');
  });

  it('a READ_ONLY key lists but cannot add or delete', async () => {
    const account = await server.account();
    const page = await newPage(account);
    await bulk(account, page.id, { subscriptions: [email('a@example.com')] });
    const [sub] = (await subscriptions(account, page.id)).body;
    const readOnly = (await account.newKey('READ_ONLY')).apiKey;
    expect((await server.http.get(`/v1/status-pages/${page.id}/subscriptions`, { key: readOnly })).body).toEqual([sub]);
    expectError(await server.http.post(`/v1/status-pages/${page.id}/subscriptions/bulk`, { subscriptions: [email('b@example.com')] }, { key: readOnly }), 403, 'Forbidden');
    expectError(await server.http.delete(`/v1/status-pages/${page.id}/subscriptions/${sub.id}`, { key: readOnly }), 403, 'Forbidden');
  });

  describe('bulk validation: 400 naming the field, nothing created', () => {
    const cases: [string, unknown, string][] = [
      ['missing subscriptions', {}, 'subscriptions'],
      ['subscriptions not an array', { subscriptions: email('a@example.com') }, 'subscriptions'],
      ['no subscriptions', { subscriptions: [] }, 'subscriptions'],
      ['101 subscriptions', { subscriptions: Array.from({ length: 101 }, (_, i) => email(`u${i}@example.com`)) }, 'subscriptions'],
      ['an entry not an object', { subscriptions: ['a@example.com'] }, 'subscriptions[0]'],
      ['an entry that is an array', { subscriptions: [[email('a@example.com')]] }, 'subscriptions[0]'],
      ['an entry of another type', { subscriptions: [email('a@example.com'), { type: 'SMS', config: '+15555555555' }] }, 'subscriptions[1].type'],
      ['an entry without type', { subscriptions: [{ config: 'a@example.com' }] }, 'subscriptions[0].type'],
      ['an entry without config', { subscriptions: [{ type: 'EMAIL' }] }, 'subscriptions[0].config'],
      ['a config not a string', { subscriptions: [{ type: 'EMAIL', config: ['a@example.com'] }] }, 'subscriptions[0].config'],
      ['autoVerify not a boolean', { subscriptions: [email('a@example.com')], autoVerify: 'yes' }, 'autoVerify'],
    ];

    it.each(cases)('%s', async (_label, body, path) => {
      const account = await server.account();
      const page = await newPage(account);
      const response = await bulk(account, page.id, body);
      expect(response.status).toBe(400);
      expect(response.body.details).toContainEqual({ path, message: expect.any(String) });
      expect((await subscriptions(account, page.id)).body).toEqual([]);
    });
  });
});

import { ManualClock } from '../../libs/core/src/clock';
import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const T0 = '2026-03-01T10:00:00.000Z';

/** Vigil's palette for pages that set none, as the contract promises it: all twelve colours, light and dark. */
const DEFAULT_COLORS = {
  light: {
    bodyBackgroundColor: '#F8FAFC',
    headerBackgroundColor: '#FFFFFF',
    headerFontColor: '#0F172A',
    titleFontColor: '#0F172A',
    bodyFontColor: '#1E293B',
    bodyFontColorMuted: '#475569',
    navigationFontColor: '#334155',
    linkFontColor: '#1D4ED8',
    cardBackgroundColor: '#FFFFFF',
    borderColor: '#CBD5E1',
    primaryButtonBackgroundColor: '#1D4ED8',
    primaryButtonFontColor: '#FFFFFF',
  },
  dark: {
    bodyBackgroundColor: '#0B1120',
    headerBackgroundColor: '#111827',
    headerFontColor: '#F9FAFB',
    titleFontColor: '#F9FAFB',
    bodyFontColor: '#E5E7EB',
    bodyFontColorMuted: '#9CA3AF',
    navigationFontColor: '#D1D5DB',
    linkFontColor: '#93C5FD',
    cardBackgroundColor: '#1F2937',
    borderColor: '#374151',
    primaryButtonBackgroundColor: '#2563EB',
    primaryButtonFontColor: '#FFFFFF',
  },
};

const CUSTOM_COLORS = {
  light: { ...DEFAULT_COLORS.light, bodyBackgroundColor: '#fff', linkFontColor: '#0a0B0c' },
  dark: { ...DEFAULT_COLORS.dark, borderColor: '#ABC' },
};

const ENTRY_KEYS = [
  'accountId',
  'cards',
  'created_at',
  'customDomain',
  'defaultTheme',
  'favicon',
  'id',
  'incidents',
  'logo',
  'name',
  // Issue 33, item 12: an added field, where the public page answers.
  'publicUrl',
  'redirectTo',
  'themeColors',
  'updated_at',
  'url',
];

const PUBLIC = 'https://vigil.example.test';
const clock = new ManualClock(T0);
let server: TestServer;
let slugCount = 0;
/** Urls are unique across every account of the server, so each test takes fresh ones. */
const slug = (base = 'page') => `${base}-${++slugCount}`;
const domain = () => `status${++slugCount}.example.com`;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_PUBLIC_URL: PUBLIC } });
});
afterAll(() => server.close());

const key = (account: TestAccount) => ({ key: account.key });

async function createService(account: TestAccount, name: string) {
  const response = await server.http.post('/v1/status-pages/services', { name }, key(account));
  expect(response.status).toBe(201);
  return response.body as { id: string; accountId: string; name: string; created_at: string; updated_at: string; checks: unknown[] };
}

async function createPage(account: TestAccount, body: Record<string, unknown>) {
  const response = await server.http.post('/v1/status-pages', body, key(account));
  expect(response.status).toBe(201);
  return response.body;
}

function expectError(response: HttpResponse, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual(expect.objectContaining({ statusCode: status, error, message: expect.any(String) }));
}

describe('POST /v1/status-pages', () => {
  it('answers 201 with the page: what was sent, null for unset strings, AUTO and the default palette', async () => {
    clock.set(T0);
    const account = await server.account();
    const url = slug('acme');
    const response = await server.http.post('/v1/status-pages', { name: 'Acme', url, cards: [] }, key(account));
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('"0"');
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID),
      accountId: account.id,
      name: 'Acme',
      description: null,
      url,
      publicUrl: `${PUBLIC}/status/${url}`,
      customDomain: null,
      logo: null,
      logoDark: null,
      favicon: null,
      redirectTo: null,
      defaultTheme: 'AUTO',
      themeColors: DEFAULT_COLORS,
      cards: [],
      incidents: [],
      created_at: T0,
      updated_at: T0,
    });
  });

  it('echoes every field, keeps the order of cards and of services, and shows cards with full services', async () => {
    clock.set(T0);
    const account = await server.account();
    const [api, web, db] = [await createService(account, 'API'), await createService(account, 'Web'), await createService(account, 'DB')];
    clock.set('2026-03-01T11:00:00.000Z');
    const url = slug('full');
    const customDomain = domain();
    const body = {
      name: 'Acme status',
      url,
      description: 'd'.repeat(500),
      customDomain,
      logo: 'https://cdn.example.com/logo.png',
      logoDark: 'https://cdn.example.com/logo-dark.png',
      favicon: 'http://cdn.example.com/favicon.ico',
      redirectTo: 'https://example.com/',
      defaultTheme: 'DARK',
      themeColors: CUSTOM_COLORS,
      cards: [
        { name: 'Edge', services: [{ id: web.id }] },
        { name: 'Core', services: [{ id: db.id }, { id: api.id }] },
        { name: 'Empty', services: [] },
      ],
    };
    const response = await server.http.post('/v1/status-pages', body, key(account));
    expect(response.status).toBe(201);
    const card = (name: string, services: unknown[]) => ({
      id: expect.stringMatching(UUID),
      name,
      services,
      created_at: '2026-03-01T11:00:00.000Z',
      updated_at: '2026-03-01T11:00:00.000Z',
    });
    expect(response.body).toEqual({
      ...body,
      id: expect.stringMatching(UUID),
      accountId: account.id,
      // The custom domain is not proven yet: the page answers under Vigil's own address.
      publicUrl: `${PUBLIC}/status/${url}`,
      cards: [card('Edge', [web]), card('Core', [db, api]), card('Empty', [])],
      incidents: [],
      created_at: '2026-03-01T11:00:00.000Z',
      updated_at: '2026-03-01T11:00:00.000Z',
      // Issue 32, item 6: the custom domain answers once proven; how to prove it.
      customDomainVerification: {
        status: 'PENDING',
        dns: { type: 'TXT', name: `_vigil-challenge.${customDomain.toLowerCase()}`, value: expect.stringMatching(/^vigil-domain-verification=[\w-]{43}$/) },
        http: { url: `http://${customDomain.toLowerCase()}/.well-known/vigil-domain-verification`, body: expect.stringMatching(/^[\w-]{43}$/) },
      },
    });
    expect(web).toEqual({ id: web.id, accountId: account.id, name: 'Web', created_at: T0, updated_at: T0, checks: [] });
    const ids = response.body.cards.map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('is lenient about what existing clients send: ids, timestamps, accountId, service refs {id, name: ""}, unknown fields', async () => {
    clock.set(T0);
    const account = await server.account();
    const other = await server.account();
    const api = await createService(account, 'API');
    const url = slug('lenient');
    const response = await server.http.post(
      '/v1/status-pages',
      {
        id: '01900000-0000-7000-8000-000000000999',
        accountId: other.id,
        created_at: '2020-01-01',
        updated_at: '2020-01-01',
        incidents: [{ id: 'x' }],
        isPrivate: true,
        pingToken: '',
        name: '  Acme  ',
        url,
        customDomain: '',
        logo: '   ',
        themeColors: null,
        defaultTheme: null,
        cards: [
          {
            id: '01900000-0000-7000-8000-000000000998',
            created_at: '2020-01-01',
            name: 'Core',
            services: [{ id: api.id, name: '', accountId: other.id, checks: [{ id: 'c', name: 'x' }] }],
          },
        ],
      },
      key(account),
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ accountId: account.id, name: 'Acme', customDomain: null, logo: null, defaultTheme: 'AUTO', themeColors: DEFAULT_COLORS, incidents: [], created_at: T0 });
    expect(response.body.id).not.toBe('01900000-0000-7000-8000-000000000999');
    expect(response.body.cards[0].id).not.toBe('01900000-0000-7000-8000-000000000998');
    expect(response.body.cards[0].services).toEqual([api]);
    expect(response.body).not.toHaveProperty('isPrivate');
  });

  it('an Idempotency-Key retry gets the first answer back, not a 409 for its own url', async () => {
    const account = await server.account();
    const body = { name: 'Once', url: slug('once'), cards: [] };
    const headers = { 'idempotency-key': `k-${slugCount}` };
    const first = await server.http.post('/v1/status-pages', body, { ...key(account), headers });
    const again = await server.http.post('/v1/status-pages', body, { ...key(account), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await server.http.get('/v1/status-pages', key(account))).body.length).toBe(1);
  });
});

describe('GET /v1/status-pages/{id}', () => {
  it('equals the write response, with its ETag; an upper-case id names the same page', async () => {
    const account = await server.account();
    const api = await createService(account, 'API');
    const created = await createPage(account, { name: 'Acme', url: slug(), cards: [{ name: 'Core', services: [{ id: api.id }] }] });
    const response = await server.http.get(`/v1/status-pages/${created.id}`, key(account));
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"0"');
    expect(response.body).toEqual(created);
    expect((await server.http.get(`/v1/status-pages/${created.id.toUpperCase()}`, key(account))).body).toEqual(created);
  });

  it('404 for an unknown id, a malformed id, another account’s page', async () => {
    const account = await server.account();
    const other = await server.account();
    const page = await createPage(other, { name: 'Theirs', url: slug(), cards: [] });
    for (const id of ['01900000-0000-7000-8000-000000000abc', 'not-a-uuid', '123', page.id]) {
      expectError(await server.http.get(`/v1/status-pages/${id}`, key(account)), 404, 'Not Found');
    }
  });
});

describe('GET /v1/status-pages (endpoint 8)', () => {
  it('lists the account’s pages newest first, each entry exactly the fields of api.md', async () => {
    const account = await server.account();
    const other = await server.account();
    const api = await createService(account, 'API');
    clock.set('2026-03-02T08:00:00.000Z');
    const first = await createPage(account, { name: 'First', url: slug(), description: 'only in the single view', logoDark: 'https://x.example.com/d.png', cards: [{ name: 'Core', services: [{ id: api.id }] }] });
    clock.set('2026-03-02T09:00:00.000Z');
    const second = await createPage(account, { name: 'Second', url: slug(), cards: [] });
    await createPage(other, { name: 'Not mine', url: slug(), cards: [] });

    const response = await server.http.get('/v1/status-pages', key(account));
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['length', 'entries', 'nextId']);
    expect(response.body.length).toBe(2);
    expect(response.body.nextId).toBeNull();
    expect(response.body.entries.map((e: { name: string }) => e.name)).toEqual(['Second', 'First']);
    for (const entry of response.body.entries) expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
    const { description: _d, logoDark: _l, ...entry } = first;
    expect(response.body.entries[1]).toEqual(entry);
    expect(response.body.entries[1]).toEqual({
      id: first.id,
      accountId: account.id,
      name: 'First',
      url: first.url,
      publicUrl: `${PUBLIC}/status/${first.url}`,
      customDomain: null,
      logo: null,
      favicon: null,
      redirectTo: null,
      defaultTheme: 'AUTO',
      themeColors: DEFAULT_COLORS,
      cards: [{ id: first.cards[0].id, name: 'Core', services: [api], created_at: '2026-03-02T08:00:00.000Z', updated_at: '2026-03-02T08:00:00.000Z' }],
      incidents: [],
      created_at: '2026-03-02T08:00:00.000Z',
      updated_at: '2026-03-02T08:00:00.000Z',
    });
    expect(response.body.entries[0].id).toBe(second.id);
  });

  it('pages with limit and nextId, every page once, a cursor stable under new inserts', async () => {
    const account = await server.account();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(60_000);
      ids.unshift((await createPage(account, { name: `P${i}`, url: slug(), cards: [] })).id);
    }
    const first = await server.http.get('/v1/status-pages?limit=2', key(account));
    expect(first.body.length).toBe(2);
    expect(typeof first.body.nextId).toBe('string');
    clock.advance(60_000);
    await createPage(account, { name: 'Later', url: slug(), cards: [] });
    const seen = first.body.entries.map((e: { id: string }) => e.id);
    let nextId = first.body.nextId;
    while (nextId) {
      const page = await server.http.get(`/v1/status-pages?limit=2&nextId=${encodeURIComponent(nextId)}`, key(account));
      expect(page.status).toBe(200);
      seen.push(...page.body.entries.map((e: { id: string }) => e.id));
      nextId = page.body.nextId;
    }
    expect(seen).toEqual(ids);
    const all = await server.http.get('/v1/status-pages?limit=100', key(account));
    expect(all.body.length).toBe(6);
    const exact = await server.http.get('/v1/status-pages?limit=6', key(account));
    expect(exact.body.nextId).toBeNull();
  });

  it('400 for a bad limit or a nextId this list did not issue (another account’s included)', async () => {
    const account = await server.account();
    const other = await server.account();
    for (let i = 0; i < 2; i++) await createPage(other, { name: `O${i}`, url: slug(), cards: [] });
    const foreign = (await server.http.get('/v1/status-pages?limit=1', key(other))).body.nextId;
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5', 'limit=-1', 'nextId=forged', `nextId=${encodeURIComponent(foreign)}`]) {
      const response = await server.http.get(`/v1/status-pages?${query}`, key(account));
      expectError(response, 400, 'Bad Request');
    }
    expect((await server.http.get('/v1/status-pages', key(account))).body).toEqual({ length: 0, entries: [], nextId: null });
  });
});

describe('PUT /v1/status-pages/{id}', () => {
  it('replaces the page; a card sent with its id keeps id and created_at; ETag and updated_at move; GET agrees', async () => {
    clock.set('2026-03-03T10:00:00.000Z');
    const account = await server.account();
    const [api, web] = [await createService(account, 'API'), await createService(account, 'Web')];
    const created = await createPage(account, {
      name: 'Acme',
      url: slug(),
      cards: [
        { name: 'Core', services: [{ id: api.id }] },
        { name: 'Edge', services: [{ id: web.id }] },
      ],
    });
    const [core, edge] = created.cards;
    clock.set('2026-03-03T12:00:00.000Z');
    const url = slug('renamed');
    const body = {
      name: 'Acme Inc',
      url,
      defaultTheme: 'LIGHT',
      themeColors: CUSTOM_COLORS,
      cards: [
        { ...edge, services: edge.services },
        { id: core.id, name: 'Core', services: [{ id: web.id, name: '' }, { id: api.id, name: '' }] },
        { id: 'not-a-card-of-this-page', name: 'New', services: [] },
      ],
    };
    const response = await server.http.put(`/v1/status-pages/${created.id}`, body, key(account));
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.body).toEqual({
      ...created,
      name: 'Acme Inc',
      url,
      publicUrl: `${PUBLIC}/status/${url}`,
      defaultTheme: 'LIGHT',
      themeColors: CUSTOM_COLORS,
      cards: [
        edge,
        { id: core.id, name: 'Core', services: [web, api], created_at: core.created_at, updated_at: '2026-03-03T12:00:00.000Z' },
        { id: expect.stringMatching(UUID), name: 'New', services: [], created_at: '2026-03-03T12:00:00.000Z', updated_at: '2026-03-03T12:00:00.000Z' },
      ],
      updated_at: '2026-03-03T12:00:00.000Z',
    });
    const read = await server.http.get(`/v1/status-pages/${created.id}`, key(account));
    expect(read.body).toEqual(response.body);
    expect(read.headers.get('etag')).toBe('"1"');
  });

  it('sending back what the page has changes nothing: same ETag, same updated_at', async () => {
    const account = await server.account();
    const created = await createPage(account, { name: 'Acme', url: slug(), cards: [{ name: 'Core', services: [] }] });
    clock.advance(3_600_000);
    const response = await server.http.put(`/v1/status-pages/${created.id}`, created, key(account));
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"0"');
    expect(response.body).toEqual(created);
  });

  it('If-Match: a stale ETag is a 412 and nothing changes; the current one passes', async () => {
    const account = await server.account();
    const created = await createPage(account, { name: 'Acme', url: slug(), cards: [] });
    const body = { name: 'v2', url: created.url, cards: [] };
    expect((await server.http.put(`/v1/status-pages/${created.id}`, body, { ...key(account), headers: { 'if-match': '"0"' } })).status).toBe(200);
    const stale = await server.http.put(`/v1/status-pages/${created.id}`, { ...body, name: 'v3', url: slug() }, { ...key(account), headers: { 'if-match': '"0"' } });
    expectError(stale, 412, 'Precondition Failed');
    const read = await server.http.get(`/v1/status-pages/${created.id}`, key(account));
    expect(read.body.name).toBe('v2');
    expect(read.body.url).toBe(created.url);
  });

  it('404 for an unknown, malformed or foreign id, whatever the body', async () => {
    const account = await server.account();
    const other = await server.account();
    const theirs = await createPage(other, { name: 'Theirs', url: slug(), cards: [] });
    const body = { name: 'x', url: slug(), cards: [] };
    for (const id of ['01900000-0000-7000-8000-000000000abc', 'nope', theirs.id]) {
      expectError(await server.http.put(`/v1/status-pages/${id}`, body, key(account)), 404, 'Not Found');
    }
    expectError(await server.http.put('/v1/status-pages/nope', { bad: true }, key(account)), 404, 'Not Found');
    expect((await server.http.get(`/v1/status-pages/${theirs.id}`, key(other))).body.name).toBe('Theirs');
  });
});

describe('DELETE /v1/status-pages/{id}', () => {
  it('204, then gone from GET and the list; a second delete is 404', async () => {
    const account = await server.account();
    const page = await createPage(account, { name: 'Acme', url: slug(), cards: [] });
    const response = await server.http.delete(`/v1/status-pages/${page.id}`, key(account));
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectError(await server.http.get(`/v1/status-pages/${page.id}`, key(account)), 404, 'Not Found');
    expect((await server.http.get('/v1/status-pages', key(account))).body.length).toBe(0);
    expectError(await server.http.delete(`/v1/status-pages/${page.id}`, key(account)), 404, 'Not Found');
  });

  it('If-Match mismatch is a 412; another account’s page is a 404 and stays', async () => {
    const account = await server.account();
    const other = await server.account();
    const page = await createPage(account, { name: 'Acme', url: slug(), cards: [] });
    expectError(await server.http.delete(`/v1/status-pages/${page.id}`, { ...key(account), headers: { 'if-match': '"7"' } }), 412, 'Precondition Failed');
    expectError(await server.http.delete(`/v1/status-pages/${page.id}`, key(other)), 404, 'Not Found');
    expect((await server.http.get(`/v1/status-pages/${page.id}`, key(account))).status).toBe(200);
  });
});

describe('url and customDomain are unique across all accounts', () => {
  it('409 for a url or a custom domain (any case) another account holds', async () => {
    const first = await server.account();
    const second = await server.account();
    const url = slug('taken');
    const customDomain = domain();
    await createPage(first, { name: 'First', url, customDomain, cards: [] });
    const byUrl = await server.http.post('/v1/status-pages', { name: 'Second', url, cards: [] }, key(second));
    expect(byUrl.status).toBe(409);
    expect(byUrl.body).toEqual({ statusCode: 409, error: 'Conflict', message: `url "${url}" is already taken` });
    const byDomain = await server.http.post('/v1/status-pages', { name: 'Second', url: slug(), customDomain: customDomain.toUpperCase(), cards: [] }, key(second));
    expect(byDomain.status).toBe(409);
    expect(byDomain.body).toEqual({ statusCode: 409, error: 'Conflict', message: `customDomain "${customDomain.toUpperCase()}" is already taken` });
    expect((await server.http.post('/v1/status-pages', { name: 'Again', url, cards: [] }, key(first))).status).toBe(409);
    expect((await server.http.get('/v1/status-pages', key(second))).body.length).toBe(0);
  });

  it('a page keeps its own url on update; moving to a taken url is a 409 and changes nothing', async () => {
    const account = await server.account();
    const other = await server.account();
    const taken = await createPage(other, { name: 'Other', url: slug(), customDomain: domain(), cards: [] });
    const page = await createPage(account, { name: 'Mine', url: slug(), cards: [] });
    expect((await server.http.put(`/v1/status-pages/${page.id}`, { name: 'Renamed', url: page.url, cards: [] }, key(account))).status).toBe(200);
    expect((await server.http.put(`/v1/status-pages/${page.id}`, { name: 'x', url: taken.url, cards: [] }, key(account))).status).toBe(409);
    expect((await server.http.put(`/v1/status-pages/${page.id}`, { name: 'x', url: page.url, customDomain: taken.customDomain, cards: [] }, key(account))).status).toBe(409);
    const read = await server.http.get(`/v1/status-pages/${page.id}`, key(account));
    expect(read.body).toMatchObject({ name: 'Renamed', url: page.url, customDomain: null });
  });

  it('renaming or deleting a page frees its url and domain for anyone', async () => {
    const account = await server.account();
    const other = await server.account();
    const [oldUrl, oldDomain] = [slug('old'), domain()];
    const page = await createPage(account, { name: 'Mine', url: oldUrl, customDomain: oldDomain, cards: [] });
    const [newUrl, newDomain] = [slug('new'), domain()];
    expect((await server.http.put(`/v1/status-pages/${page.id}`, { name: 'Mine', url: newUrl, customDomain: newDomain, cards: [] }, key(account))).status).toBe(200);
    await createPage(other, { name: 'Theirs now', url: oldUrl, customDomain: oldDomain, cards: [] });
    expect((await server.http.post('/v1/status-pages', { name: 'x', url: newUrl, cards: [] }, key(other))).status).toBe(409);
    expect((await server.http.delete(`/v1/status-pages/${page.id}`, key(account))).status).toBe(204);
    await createPage(other, { name: 'Also theirs', url: newUrl, customDomain: newDomain, cards: [] });
  });

  it('of concurrent creates with one url, exactly one succeeds; the losers hold nothing afterwards', async () => {
    const accounts = [await server.account(), await server.account()];
    const url = slug('race');
    const losersUrls = Array.from({ length: 8 }, () => slug('loser'));
    const responses = await Promise.all(
      losersUrls.map((ownDomainUrl, i) =>
        server.http.post('/v1/status-pages', { name: `Racer ${i}`, url, customDomain: `${ownDomainUrl}.example.com`, cards: [] }, key(accounts[i % 2])),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const lists = await Promise.all(accounts.map((a) => server.http.get('/v1/status-pages', key(a))));
    expect(lists.reduce((sum, l) => sum + l.body.length, 0)).toBe(1);
    // The losers released the custom domains they had claimed before losing the url.
    const loser = responses.findIndex((r) => r.status === 409);
    await createPage(accounts[0], { name: 'Later', url: slug(), customDomain: `${losersUrls[loser]}.example.com`, cards: [] });
  });

  it('of concurrent renames to one url, exactly one succeeds', async () => {
    const account = await server.account();
    const pages = await Promise.all([0, 1, 2, 3].map((i) => createPage(account, { name: `P${i}`, url: slug(), cards: [] })));
    const url = slug('contested');
    const responses = await Promise.all(pages.map((p) => server.http.put(`/v1/status-pages/${p.id}`, { name: p.name, url, cards: [] }, key(account))));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const list = await server.http.get('/v1/status-pages', key(account));
    expect(list.body.entries.filter((e: { url: string }) => e.url === url)).toHaveLength(1);
  });
});

describe('validation: every bad input is a 400 naming the field, and nothing is written', () => {
  let account: TestAccount;
  let foreignService: string;
  let api: string;
  const valid = () => ({ name: 'Acme', url: slug('v'), cards: [{ name: 'Core', services: [{ id: api }] }] });
  const colors = (mode: 'light' | 'dark', patch: Record<string, unknown>) => ({ ...DEFAULT_COLORS, [mode]: { ...DEFAULT_COLORS[mode], ...patch } });
  const without = (field: string) => {
    const body: Record<string, unknown> = valid();
    delete body[field];
    return body;
  };

  beforeAll(async () => {
    account = await server.account();
    api = (await createService(account, 'API')).id;
    foreignService = (await createService(await server.account(), 'Foreign')).id;
  });

  const cases: [string, () => unknown, string][] = [
    ['missing name', () => without('name'), 'name'],
    ['empty name', () => ({ ...valid(), name: '' }), 'name'],
    ['blank name', () => ({ ...valid(), name: '   ' }), 'name'],
    ['name of 256 characters', () => ({ ...valid(), name: 'n'.repeat(256) }), 'name'],
    ['name not a string', () => ({ ...valid(), name: 42 }), 'name'],
    ['missing url', () => without('url'), 'url'],
    ['url too short', () => ({ ...valid(), url: 'ab' }), 'url'],
    ['url too long', () => ({ ...valid(), url: 'a'.repeat(64) }), 'url'],
    ['url with upper case', () => ({ ...valid(), url: 'Acme-x' }), 'url'],
    ['url with an underscore', () => ({ ...valid(), url: 'acme_x' }), 'url'],
    ['url with a space', () => ({ ...valid(), url: 'acme x' }), 'url'],
    ['url with a dot', () => ({ ...valid(), url: 'acme.x' }), 'url'],
    ['url not ASCII', () => ({ ...valid(), url: 'acmé' }), 'url'],
    ['url not a string', () => ({ ...valid(), url: 12345 }), 'url'],
    ['url null', () => ({ ...valid(), url: null }), 'url'],
    ['missing cards', () => without('cards'), 'cards'],
    ['cards not an array', () => ({ ...valid(), cards: 'Core' }), 'cards'],
    ['cards an object', () => ({ ...valid(), cards: { name: 'Core' } }), 'cards'],
    ['a card not an object', () => ({ ...valid(), cards: [42] }), 'cards[0]'],
    ['a card that is an array', () => ({ ...valid(), cards: [[{ name: 'Core', services: [] }]] }), 'cards[0]'],
    ['a card without a name', () => ({ ...valid(), cards: [{ services: [] }] }), 'cards[0].name'],
    ['a card with a blank name', () => ({ ...valid(), cards: [{ name: ' ', services: [] }] }), 'cards[0].name'],
    ['a card name of 256 characters', () => ({ ...valid(), cards: [{ name: 'c'.repeat(256), services: [] }] }), 'cards[0].name'],
    ['a card without services', () => ({ ...valid(), cards: [{ name: 'Core' }] }), 'cards[0].services'],
    ['card services not an array', () => ({ ...valid(), cards: [{ name: 'Core', services: api }] }), 'cards[0].services'],
    ['a service ref not an object', () => ({ ...valid(), cards: [{ name: 'Core', services: [api] }] }), 'cards[0].services[0]'],
    ['a service ref that is an array', () => ({ ...valid(), cards: [{ name: 'Core', services: [[{ id: api }]] }] }), 'cards[0].services[0]'],
    ['a service ref without id', () => ({ ...valid(), cards: [{ name: 'Core', services: [{ name: 'API' }] }] }), 'cards[0].services[0].id'],
    ['a service id not a string', () => ({ ...valid(), cards: [{ name: 'Core', services: [{ id: 7 }] }] }), 'cards[0].services[0].id'],
    ['an unknown service', () => ({ ...valid(), cards: [{ name: 'Core', services: [{ id: api }, { id: '01900000-0000-7000-8000-00000000dead' }] }] }), 'cards[0].services[1].id'],
    ['a service id that is no uuid', () => ({ ...valid(), cards: [{ name: 'Core', services: [{ id: 'api' }] }] }), 'cards[0].services[0].id'],
    ['another account’s service', () => ({ ...valid(), cards: [{ name: 'A', services: [] }, { name: 'Core', services: [{ id: foreignService }] }] }), 'cards[1].services[0].id'],
    ['a service twice in one card', () => ({ ...valid(), cards: [{ name: 'Core', services: [{ id: api }, { id: api }] }] }), 'cards[0].services'],
    ['51 cards', () => ({ ...valid(), cards: Array.from({ length: 51 }, (_, i) => ({ name: `C${i}`, services: [] })) }), 'cards'],
    ['description of 501 characters', () => ({ ...valid(), description: 'd'.repeat(501) }), 'description'],
    ['description not a string', () => ({ ...valid(), description: 42 }), 'description'],
    ['customDomain not a host name', () => ({ ...valid(), customDomain: 'not a domain' }), 'customDomain'],
    ['customDomain with a scheme', () => ({ ...valid(), customDomain: 'https://status.example.com' }), 'customDomain'],
    ['customDomain of one label', () => ({ ...valid(), customDomain: 'localhost' }), 'customDomain'],
    ['customDomain with a port', () => ({ ...valid(), customDomain: 'status.example.com:8080' }), 'customDomain'],
    ['customDomain not a string', () => ({ ...valid(), customDomain: 42 }), 'customDomain'],
    ['logo not a URL', () => ({ ...valid(), logo: 'not a url' }), 'logo'],
    ['logo with javascript:', () => ({ ...valid(), logo: 'javascript:alert(1)' }), 'logo'],
    ['logo over ftp', () => ({ ...valid(), logo: 'ftp://example.com/logo.png' }), 'logo'],
    ['logo without scheme', () => ({ ...valid(), logo: 'example.com/logo.png' }), 'logo'],
    ['logoDark not a URL', () => ({ ...valid(), logoDark: 'data:image/png;base64,AAAA' }), 'logoDark'],
    ['favicon not a string', () => ({ ...valid(), favicon: ['https://example.com/f.ico'] }), 'favicon'],
    ['redirectTo not a URL', () => ({ ...valid(), redirectTo: 'mailto:ops@example.com' }), 'redirectTo'],
    ['unknown defaultTheme', () => ({ ...valid(), defaultTheme: 'BLUE' }), 'defaultTheme'],
    ['defaultTheme in lower case', () => ({ ...valid(), defaultTheme: 'auto' }), 'defaultTheme'],
    ['defaultTheme not a string', () => ({ ...valid(), defaultTheme: 1 }), 'defaultTheme'],
    ['themeColors not an object', () => ({ ...valid(), themeColors: '#fff' }), 'themeColors'],
    ['themeColors an array', () => ({ ...valid(), themeColors: [] }), 'themeColors'],
    ['themeColors without dark', () => ({ ...valid(), themeColors: { light: DEFAULT_COLORS.light } }), 'themeColors.dark'],
    ['a colour set not an object', () => ({ ...valid(), themeColors: { ...DEFAULT_COLORS, light: '#fff' } }), 'themeColors.light'],
    ['a colour missing', () => ({ ...valid(), themeColors: colors('light', { borderColor: undefined }) }), 'themeColors.light.borderColor'],
    ['a colour by name', () => ({ ...valid(), themeColors: colors('dark', { linkFontColor: 'red' }) }), 'themeColors.dark.linkFontColor'],
    ['a colour of 2 digits', () => ({ ...valid(), themeColors: colors('dark', { borderColor: '#12' }) }), 'themeColors.dark.borderColor'],
    ['a colour of 7 digits', () => ({ ...valid(), themeColors: colors('light', { headerFontColor: '#1234567' }) }), 'themeColors.light.headerFontColor'],
    ['a colour with alpha', () => ({ ...valid(), themeColors: colors('light', { headerFontColor: '#11223344' }) }), 'themeColors.light.headerFontColor'],
    ['a colour without #', () => ({ ...valid(), themeColors: colors('light', { titleFontColor: 'ffffff' }) }), 'themeColors.light.titleFontColor'],
    ['a colour not a string', () => ({ ...valid(), themeColors: colors('light', { titleFontColor: 0xffffff }) }), 'themeColors.light.titleFontColor'],
  ];

  it.each(cases)('%s', async (_label, body, path) => {
    for (const send of [
      () => server.http.post('/v1/status-pages', body(), key(account)),
      async () => {
        const page = await createPage(account, valid());
        const response = await server.http.put(`/v1/status-pages/${page.id}`, body(), key(account));
        await server.http.delete(`/v1/status-pages/${page.id}`, key(account));
        return response;
      },
    ]) {
      const response = await send();
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String), details: expect.any(Array) });
      expect(response.body.details).toContainEqual({ path, message: expect.any(String) });
    }
    expect((await server.http.get('/v1/status-pages', key(account))).body.length).toBe(0);
  });

  it('lists every violation at once', async () => {
    const response = await server.http.post('/v1/status-pages', { name: '', url: 'X', cards: [{ name: '', services: 'x' }], defaultTheme: 'NO' }, key(account));
    expect(response.status).toBe(400);
    const paths = response.body.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'url', 'cards[0].name', 'cards[0].services', 'defaultTheme']));
  });

  it('a body that is not a JSON object, not JSON, or poisons a prototype is a 400; another type a 415', async () => {
    for (const rawBody of ['[]', '"page"', '42', 'null', '{"name": "x",', '{"name":"x","url":"abc","cards":[{"name":"c","services":[],"__proto__":{"x":1}}]}']) {
      const response = await server.http.request('POST', '/v1/status-pages', { ...key(account), rawBody, headers: { 'content-type': 'application/json' } });
      expectError(response, 400, 'Bad Request');
    }
    const text = await server.http.request('POST', '/v1/status-pages', { ...key(account), rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 'Unsupported Media Type');
    expect((await server.http.get('/v1/status-pages', key(account))).body.length).toBe(0);
  });
});

describe('accounts and keys', () => {
  it('an account sees, changes and deletes only its own pages', async () => {
    const owner = await server.account();
    const stranger = await server.account();
    const page = await createPage(owner, { name: 'Private', url: slug(), cards: [] });
    expect((await server.http.get('/v1/status-pages', key(stranger))).body).toEqual({ length: 0, entries: [], nextId: null });
    expectError(await server.http.get(`/v1/status-pages/${page.id}`, key(stranger)), 404, 'Not Found');
    expectError(await server.http.put(`/v1/status-pages/${page.id}`, { name: 'Mine', url: page.url, cards: [] }, key(stranger)), 404, 'Not Found');
    expectError(await server.http.delete(`/v1/status-pages/${page.id}`, key(stranger)), 404, 'Not Found');
    expect((await server.http.get(`/v1/status-pages/${page.id}`, key(owner))).body).toEqual(page);
  });

  it('no key is a 401, a READ_ONLY key reads but cannot write (403), a key of several accounts picks one by header', async () => {
    const account = await server.account();
    const other = await server.account();
    const page = await createPage(account, { name: 'Acme', url: slug(), cards: [] });
    expectError(await server.http.get('/v1/status-pages'), 401, 'Unauthorized');
    const readOnly = await account.newKey('READ_ONLY');
    expect((await server.http.get(`/v1/status-pages/${page.id}`, { key: readOnly.apiKey })).status).toBe(200);
    expectError(await server.http.post('/v1/status-pages', { name: 'x', url: slug(), cards: [] }, { key: readOnly.apiKey }), 403, 'Forbidden');
    expectError(await server.http.put(`/v1/status-pages/${page.id}`, { name: 'x', url: page.url, cards: [] }, { key: readOnly.apiKey }), 403, 'Forbidden');
    expectError(await server.http.delete(`/v1/status-pages/${page.id}`, { key: readOnly.apiKey }), 403, 'Forbidden');
    const both = await account.newKey('READ_WRITE', [other.id]);
    expectError(await server.http.get('/v1/status-pages', { key: both.apiKey }), 403, 'Forbidden');
    const mine = await server.http.get('/v1/status-pages', { key: both.apiKey, headers: { 'x-service-account': account.id } });
    expect(mine.body.entries.map((e: { id: string }) => e.id)).toEqual([page.id]);
    const theirs = await server.http.get('/v1/status-pages', { key: both.apiKey, headers: { 'x-checkly-account': other.id } });
    expect(theirs.body.length).toBe(0);
  });
});

describe('services on cards', () => {
  it('a service a card shows cannot be deleted (409) until no card shows it', async () => {
    const account = await server.account();
    const [api, web] = [await createService(account, 'API'), await createService(account, 'Web')];
    const page = await createPage(account, { name: 'Acme', url: slug(), cards: [{ name: 'Core', services: [{ id: web.id }, { id: api.id }] }] });
    const blocked = await server.http.delete(`/v1/status-pages/services/${api.id}`, key(account));
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ statusCode: 409, error: 'Conflict', message: 'Service is still used by status page "Acme"' });
    expect((await server.http.put(`/v1/status-pages/${page.id}`, { name: 'Acme', url: page.url, cards: [{ name: 'Core', services: [{ id: web.id }] }] }, key(account))).status).toBe(200);
    expect((await server.http.delete(`/v1/status-pages/services/${api.id}`, key(account))).status).toBe(204);
    expect((await server.http.delete(`/v1/status-pages/services/${web.id}`, key(account))).status).toBe(409);
    expect((await server.http.delete(`/v1/status-pages/${page.id}`, key(account))).status).toBe(204);
    expect((await server.http.delete(`/v1/status-pages/services/${web.id}`, key(account))).status).toBe(204);
  });

  it('a renamed service shows its new name on every card', async () => {
    const account = await server.account();
    const api = await createService(account, 'API');
    const page = await createPage(account, { name: 'Acme', url: slug(), cards: [{ name: 'Core', services: [{ id: api.id }] }, { name: 'Again', services: [{ id: api.id }] }] });
    clock.advance(1000);
    const renamed = (await server.http.put(`/v1/status-pages/services/${api.id}`, { name: 'Public API' }, key(account))).body;
    const read = await server.http.get(`/v1/status-pages/${page.id}`, key(account));
    expect(read.body.cards.map((c: { services: unknown[] }) => c.services)).toEqual([[renamed], [renamed]]);
    expect(read.body.updated_at).toBe(page.updated_at);
  });
});

describe('routes', () => {
  it('the static /v1/status-pages/services keeps winning over /v1/status-pages/{id}', async () => {
    const account = await server.account();
    const created = await server.http.post('/v1/status-pages/services', { name: 'Static' }, key(account));
    expect(created.status).toBe(201);
    const list = await server.http.get('/v1/status-pages/services', key(account));
    expect(list.status).toBe(200);
    expect(list.body.entries.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
  });

  it('a method the static route does not take is a 405 with Allow, not a missing page', async () => {
    const account = await server.account();
    for (const method of ['PUT', 'DELETE']) {
      const response = await server.http.request(method, '/v1/status-pages/services', { ...key(account), body: { name: 'x', url: 'abc', cards: [] } });
      expectError(response, 405, 'Method Not Allowed');
      const allow = (response.headers.get('allow') ?? '').split(', ');
      expect(allow).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(allow).not.toContain('PUT');
      expect(allow).not.toContain('DELETE');
    }
  });

  // Issue 33, item 12: pages answer PATCH now (status-pages-patch.e2e.ts); POST is what a page does not take.
  it('POST on a page is a 405 naming GET, PUT, PATCH and DELETE', async () => {
    const account = await server.account();
    const page = await createPage(account, { name: 'Acme', url: slug(), cards: [] });
    const response = await server.http.post(`/v1/status-pages/${page.id}`, { name: 'x' }, key(account));
    expectError(response, 405, 'Method Not Allowed');
    expect((response.headers.get('allow') ?? '').split(', ')).toEqual(expect.arrayContaining(['GET', 'PUT', 'PATCH', 'DELETE']));
  });
});

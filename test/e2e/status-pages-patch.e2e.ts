import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/**
 * Issue 33, item 12: PATCH of a status page (only the fields sent change, If-Match honoured, the result
 * validated as a PUT body), services with a description shown on the public page, and each page's public URL.
 */
const PUBLIC = 'https://vigil.example.test';
let server: TestServer;
let account: TestAccount;
let count = 0;
const slug = () => `patched-${++count}`;
const key = () => ({ key: account.key });

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_PUBLIC_URL: PUBLIC } });
  account = await server.account('Patching');
});
afterAll(() => server?.close());

async function service(name: string, description?: string | null) {
  const response = await server.http.post('/v1/status-pages/services', description === undefined ? { name } : { name, description }, key());
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string; description: string | null };
}

async function page(extra: Record<string, unknown> = {}) {
  const api = await service('API');
  const url = slug();
  const response = await server.http.post(
    '/v1/status-pages',
    { name: 'Acme', url, description: 'All of Acme', logo: 'https://cdn.example.com/logo.png', defaultTheme: 'DARK', cards: [{ name: 'Core', services: [{ id: api.id }] }], ...extra },
    key(),
  );
  expect(response.status).toBe(201);
  return response.body;
}

describe('PATCH /v1/status-pages/{id}', () => {
  it('changes only the fields sent; cards keep their ids; the ETag moves on', async () => {
    const created = await page();
    const response = await server.http.patch(`/v1/status-pages/${created.id}`, { name: 'Acme Inc' }, key());
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.body).toEqual({ ...created, name: 'Acme Inc', updated_at: expect.any(String) });
    expect((await server.http.get(`/v1/status-pages/${created.id}`, key())).body).toEqual(response.body);
  });

  it('null unsets an optional field; cards sent replace the cards; a new url moves the public URL', async () => {
    const created = await page();
    const web = await service('Web');
    const url = slug();
    const response = await server.http.patch(`/v1/status-pages/${created.id}`, { logo: null, url, cards: [{ id: created.cards[0].id, name: 'Core', services: [{ id: web.id }] }] }, key());
    expect(response.status).toBe(200);
    expect(response.body.logo).toBeNull();
    expect(response.body.description).toBe('All of Acme');
    expect(response.body.defaultTheme).toBe('DARK');
    expect(response.body.url).toBe(url);
    expect(response.body.publicUrl).toBe(`${PUBLIC}/status/${url}`);
    expect(response.body.cards.map((c: { id: string; services: { id: string }[] }) => [c.id, c.services.map((s) => s.id)])).toEqual([[created.cards[0].id, [web.id]]]);
    // The old url is free again.
    expect((await server.http.get(`/status/${created.url}`)).status).toBe(404);
    expect((await server.http.get(`/status/${url}`)).status).toBe(200);
  });

  it('honours If-Match: a stale ETag is a 412 and changes nothing; the current one passes', async () => {
    const created = await page();
    const stale = await server.http.patch(`/v1/status-pages/${created.id}`, { name: 'Later' }, { ...key(), headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual(expect.objectContaining({ statusCode: 412, error: 'Precondition Failed' }));
    expect((await server.http.get(`/v1/status-pages/${created.id}`, key())).body.name).toBe('Acme');
    const current = await server.http.patch(`/v1/status-pages/${created.id}`, { name: 'Later' }, { ...key(), headers: { 'if-match': '"0"' } });
    expect(current.status).toBe(200);
    expect(current.body.name).toBe('Later');
  });

  it('validates as PUT does, at the same paths, and changes nothing when refused', async () => {
    const created = await page();
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: null }, 'name'],
      [{ url: 'Not A Slug' }, 'url'],
      [{ logo: 'javascript:alert(1)' }, 'logo'],
      [{ defaultTheme: 'PINK' }, 'defaultTheme'],
      [{ description: 'd'.repeat(501) }, 'description'],
      [{ cards: [{ name: 'X', services: [{ id: '01900000-0000-7000-8000-00000000dead' }] }] }, 'cards[0].services[0].id'],
      [{}, ''],
      [{ unknownField: 1 }, ''],
    ];
    for (const [body, path] of cases) {
      const response = await server.http.patch(`/v1/status-pages/${created.id}`, body, key());
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String), details: expect.any(Array) });
      expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    for (const body of ['"text"', '[1]', 'null']) {
      const response = await server.http.request('PATCH', `/v1/status-pages/${created.id}`, { ...key(), rawBody: body, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
    }
    const after = await server.http.get(`/v1/status-pages/${created.id}`, key());
    expect(after.headers.get('etag')).toBe('"0"');
  });

  it("is a 404 for a missing page and for another account's page", async () => {
    const created = await page();
    const stranger = await server.account('Stranger');
    expect((await server.http.patch(`/v1/status-pages/${created.id}`, { name: 'Mine' }, { key: stranger.key })).status).toBe(404);
    expect((await server.http.patch('/v1/status-pages/01900000-0000-7000-8000-000000000999', { name: 'Mine' }, key())).status).toBe(404);
  });
});

describe('service descriptions', () => {
  it('are optional, trimmed, at most 500 characters, in every service response and on the public page', async () => {
    expect((await service('Plain')).description).toBeUndefined();
    const described = await service('Billing', '  Invoices & <payments>  ');
    expect(described.description).toBe('Invoices & <payments>');
    const tooLong = await server.http.post('/v1/status-pages/services', { name: 'Long', description: 'x'.repeat(501) }, key());
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toEqual([expect.objectContaining({ path: 'description' })]);
    const notText = await server.http.post('/v1/status-pages/services', { name: 'Odd', description: 42 }, key());
    expect(notText.status).toBe(400);
    expect((await server.http.get(`/v1/status-pages/services/${described.id}`, key())).body.description).toBe('Invoices & <payments>');

    const url = slug();
    const created = await server.http.post('/v1/status-pages', { name: 'Described', url, cards: [{ name: 'Money', services: [{ id: described.id }] }] }, key());
    expect(created.body.cards[0].services[0].description).toBe('Invoices & <payments>');
    const html = (await server.http.get(`/status/${url}`)).text;
    expect(html).toContain('<p class="svc-desc">Invoices &amp; &lt;payments&gt;</p>');
    const summary = (await server.http.get(`/status/${url}/api/v2/components.json`)).body;
    expect(summary.components.find((c: { id: string }) => c.id === described.id).description).toBe('Invoices & <payments>');

    // PUT replaces: a description left out is gone, from the page too.
    const replaced = await server.http.put(`/v1/status-pages/services/${described.id}`, { name: 'Billing' }, key());
    expect(replaced.body.description).toBeUndefined();
    expect((await server.http.get(`/status/${url}`)).text).not.toContain('svc-desc');
  });
});

describe('publicUrl', () => {
  it('is in every page response: create, get, list', async () => {
    const created = await page();
    expect(created.publicUrl).toBe(`${PUBLIC}/status/${created.url}`);
    const list = await server.http.get('/v1/status-pages?limit=100', key());
    expect(list.body.entries.find((e: { id: string }) => e.id === created.id).publicUrl).toBe(`${PUBLIC}/status/${created.url}`);
    // An unproven custom domain does not serve the page yet: the URL stays Vigil's own.
    const withDomain = await page({ customDomain: `status${count}.example.org` });
    expect(withDomain.publicUrl).toBe(`${PUBLIC}/status/${withDomain.url}`);
  });
});

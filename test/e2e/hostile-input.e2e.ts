import { rawRequest, RawResponse, uploadThenRead } from '../../libs/testing/src/raw-http';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Issue 23: one request must never take Vigil down. Each test names the item of the issue it pins. */

let server: TestServer;
let account: TestAccount;
let count = 0;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '1000000' } });
  account = await server.account();
});
afterAll(() => server.close());

const auth = () => ({ authorization: `Bearer ${account.key}` });
const json = { 'content-type': 'application/json' };

function send(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(server.url, { method, path, body, headers: { ...(body !== undefined ? json : {}), ...headers }, timeoutMs: 20_000 });
}

function expectErrorShape(response: RawResponse, status: number) {
  expect(response.status).toBe(status);
  expect(response.json).toEqual(expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }));
  expect(response.headers['x-request-id']).toEqual(expect.any(String));
}

async function expectAlive() {
  const health = await send('GET', '/healthz');
  expect(health.status).toBe(200);
}

async function newPage(): Promise<{ id: string }> {
  const response = await server.http.post('/v1/status-pages', { name: 'Acme', url: `hostile-${++count}`, cards: [] }, { key: account.key });
  expect(response.status).toBe(201);
  return response.body;
}

describe('hostile input', () => {
  it('item 1: JSON nested 6,000 deep, with or without a key, on a known or unknown path, is a 400 and the process stays up', async () => {
    const deep = '['.repeat(6000) + ']'.repeat(6000);
    const deepObject = '{"a":'.repeat(6000) + '1' + '}'.repeat(6000);
    for (const [path, headers] of [
      ['/v1/status-pages', auth()],
      ['/v1/status-pages', {}],
      ['/no/such/path', {}],
    ] as const) {
      for (const body of [deep, deepObject]) {
        const response = await send('POST', path, body, headers);
        expectErrorShape(response, 400);
        expect(response.json.details[0].message).toMatch(/deeper than 32 levels/);
      }
    }
    await expectAlive();
  });

  it('item 2: an unknown field holding deep JSON is never a 500: refused past the depth limit, ignored within it', async () => {
    let inside = '1';
    for (let i = 0; i < 1500; i++) inside = `{"x":${inside}}`;
    expectErrorShape(await send('POST', '/v1/status-pages/services', `{"name":"Api","extra":${inside}}`, auth()), 400);
    const within = '['.repeat(30) + ']'.repeat(30);
    const created = await send('POST', '/v1/status-pages/services', `{"name":"Api","extra":${within}}`, auth());
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty('extra');
  });

  it('item 3: a lone UTF-16 surrogate in an address is a 400, not a 500', async () => {
    const page = await newPage();
    for (const address of ['\\ud800', 'a\\ud800@example.com', 'a\\udfff@example.com']) {
      const response = await send('POST', `/v1/status-pages/${page.id}/subscriptions/bulk`, `{"subscriptions":[{"type":"EMAIL","config":"${address}"}]}`, auth());
      expectErrorShape(response, 400);
      expect(response.json.details).toEqual([{ path: 'subscriptions[0].config', message: expect.stringMatching(/lone UTF-16 surrogate/) }]);
    }
    // A surrogate pair is a character like any other: the address is judged (and skipped) as usual.
    const pair = await send('POST', `/v1/status-pages/${page.id}/subscriptions/bulk`, '{"subscriptions":[{"type":"EMAIL","config":"\\ud83d\\ude00@example.com"}]}', auth());
    expect(pair.status).toBe(201);
  });

  it('item 4: DELETE of a subscription honours If-Match: 412 and nothing deleted on a mismatch', async () => {
    const page = await newPage();
    const bulk = await server.http.post(`/v1/status-pages/${page.id}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'a@example.com' }] }, { key: account.key });
    expect(bulk.status).toBe(201);
    const etag = bulk.headers.get('etag');
    expect(etag).toMatch(/^"\d+"$/);
    const [subscription] = (await server.http.get(`/v1/status-pages/${page.id}/subscriptions`, { key: account.key })).body;
    const path = `/v1/status-pages/${page.id}/subscriptions/${subscription.id}`;
    for (const wrong of ['"999"', 'garbage']) {
      expectErrorShape(await send('DELETE', path, undefined, { ...auth(), 'if-match': wrong }), 412);
    }
    expect((await server.http.get(`/v1/status-pages/${page.id}/subscriptions`, { key: account.key })).body).toHaveLength(1);
    expect((await send('DELETE', path, undefined, { ...auth(), 'if-match': etag! })).status).toBe(204);
    expect((await server.http.get(`/v1/status-pages/${page.id}/subscriptions`, { key: account.key })).body).toHaveLength(0);
  });

  it('item 5: a path parameter over 256 characters is a 404 in the standard shape, never echoing the URL', async () => {
    const long = 'x'.repeat(300);
    for (const [method, path, headers] of [
      ['GET', `/v1/status-pages/${long}`, auth()],
      ['GET', `/v1/checks/${long}`, auth()],
      ['GET', `/ping/${long}`, {}],
      ['POST', `/ping/${long}`, {}],
      ['DELETE', `/v1/status-pages/incidents/${long}`, {}],
    ] as const) {
      const response = await send(method, path, undefined, headers);
      expectErrorShape(response, 404);
      expect(response.text).not.toContain(long);
    }
    expectErrorShape(await send('GET', '/v1/status-pages/%zz', undefined, auth()), 400);
  });

  it('item 5: bytes that are not HTTP, or headers too large, are answered in the standard shape with a request id', async () => {
    for (const [head, status] of [
      ['NOT HTTP AT ALL\r\n\r\n', '400 Bad Request'],
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, '431 Request Header Fields Too Large'],
    ] as const) {
      const answer = await uploadThenRead(server.url, head, Buffer.alloc(0));
      expect(answer.statusLine).toBe(`HTTP/1.1 ${status}`);
      expect(answer.text).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
      const body = JSON.parse(answer.text.split('\r\n\r\n')[1]);
      expect(body).toEqual({ statusCode: Number(status.slice(0, 3)), error: status.slice(4), message: expect.any(String) });
    }
    await expectAlive();
  });

  it('item 6: an unknown file under /docs is a 404 in the standard shape', async () => {
    for (const path of ['/docs/unknown', '/docs/no/such/file.js']) expectErrorShape(await send('GET', path), 404);
    expect((await send('GET', '/docs')).status).toBe(200);
  });

  it('item 8: validation messages say what is wrong', async () => {
    const noCards = await send('POST', '/v1/status-pages', JSON.stringify({ name: 'Acme', url: `hostile-${++count}` }), auth());
    expectErrorShape(noCards, 400);
    expect(noCards.json.details).toEqual([{ path: 'cards', message: 'cards is required' }]);
    const empty = await send('POST', '/v1/status-pages', '{"cards":[{"services":[{}]}]}', auth());
    expect(empty.json.details).toEqual([
      { path: 'name', message: 'name is required' },
      { path: 'url', message: 'url is required' },
      { path: 'cards[0].name', message: 'name is required' },
      { path: 'cards[0].services[0].id', message: 'id is required' },
    ]);

    const service = await server.http.post('/v1/status-pages/services', { name: 'Api' }, { key: account.key });
    const bareIds = await send('POST', '/v1/status-pages', JSON.stringify({ name: 'Acme', url: `hostile-${++count}`, cards: [{ name: 'Core', services: [service.body.id] }] }), auth());
    expectErrorShape(bareIds, 400);
    expect(bareIds.json.details).toEqual([{ path: 'cards[0].services[0]', message: 'services[0] must be an object {id}' }]);

    const incident = await send(
      'POST',
      '/v1/status-pages/incidents',
      JSON.stringify({ name: 'Down', severity: 'MAJOR', services: [service.body.id], incidentUpdates: [{ description: 'x' }] }),
      auth(),
    );
    expectErrorShape(incident, 400);
    expect(incident.json.details).toEqual([{ path: 'services[0]', message: 'services[0] must be an object {id}' }]);
  });

  it('item 10: a body over the limit sent all at once gets the 413, not a reset, on the API and on the ping route', async () => {
    const twoMiB = Buffer.alloc(2 * 1024 * 1024, 'x');
    const api = await send('POST', '/v1/status-pages', twoMiB, auth());
    expectErrorShape(api, 413);
    const ping = await send('POST', `/ping/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`, twoMiB, { 'content-type': 'text/plain' });
    expectErrorShape(ping, 413);
    // Without a content-length (chunked), the limit is found while reading: the same answer.
    const chunked = await rawRequest(server.url, { method: 'POST', path: '/v1/status-pages', headers: { ...json, ...auth(), 'transfer-encoding': 'chunked' }, body: twoMiB });
    expectErrorShape(chunked, 413);
    // A client that reads only once it has sent everything: 8 MiB is more than loopback buffers hold, so a
    // server that closes at once resets the connection and the client never reads the 413.
    const eight = 8 * 1024 * 1024;
    for (const path of ['/v1/status-pages', `/ping/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`]) {
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${eight}\r\n\r\n`;
      const answer = await uploadThenRead(server.url, head, Buffer.alloc(eight, 'x'));
      expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
      expect(answer.text).toContain('"statusCode":413');
    }
    await expectAlive();
  });

  it('found by the fuzz suite: a refused write appends nothing (taken customDomain → 409; bad check update with a new ping token → 400)', async () => {
    const events = server.app.get<EventStore>(EVENT_STORE);
    const domain = `d${++count}.example.com`;
    expect((await server.http.post('/v1/status-pages', { name: 'A', url: `hostile-${++count}`, cards: [], customDomain: domain }, { key: account.key })).status).toBe(201);
    let before = await events.headPosition();
    const taken = await send('POST', '/v1/status-pages', JSON.stringify({ name: 'B', url: `hostile-${++count}`, cards: [], customDomain: domain }), auth());
    expectErrorShape(taken, 409);
    expect(await events.headPosition()).toBe(before);

    const check = { name: 'Backup', heartbeat: { period: 1, periodUnit: 'hours', grace: 1, graceUnit: 'hours' } };
    const created = await server.http.post('/v1/checks/heartbeat', check, { key: account.key });
    expect(created.status).toBe(201);
    before = await events.headPosition();
    const badPeriod = { ...check, heartbeat: { ...check.heartbeat, period: 5, periodUnit: 'seconds', pingToken: '0190aaaa-0000-7000-8000-000000000001' } };
    expectErrorShape(await send('PUT', `/v1/checks/heartbeat/${created.body.id}`, JSON.stringify(badPeriod), auth()), 400);
    expectErrorShape(await send('PUT', `/v1/checks/heartbeat/${created.body.id}`, JSON.stringify({ ...check, heartbeat: { ...check.heartbeat, pingToken: '0190aaaa-0000-7000-8000-000000000002' } }), { ...auth(), 'if-match': '"99"' }), 412);
    expect(await events.headPosition()).toBe(before);
  });

  it('every body route: 1 MiB of "[", of {"a": repeated, or of deep arrays inside a known field, on one connection each → 400 or 413, and the process stays up', async () => {
    const doc = (await server.http.get('/openapi.json')).body as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
    const size = 1024 * 1024;
    const bodies = (field: string) => {
      const depth = Math.floor((size - field.length - 8) / 2);
      return {
        brackets: '['.repeat(size),
        objects: '{"a":'.repeat(Math.floor(size / 5)),
        deepInField: `{"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      };
    };
    const routes: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op?.requestBody) continue;
        const path = template.replace(/\{[^}]+\}/g, account.id);
        const content = op.requestBody.content;
        const type = content['application/json'] ? 'application/json' : Object.keys(content)[0].replace('*/*', 'text/plain');
        const ref = content['application/json']?.schema?.$ref as string | undefined;
        const schema = ref ? doc.components.schemas[ref.split('/').pop()!] : content['application/json']?.schema;
        const field = Object.keys(schema?.properties ?? {})[0] ?? 'name';
        routes.push(`${method.toUpperCase()} ${template}`);
        for (const [kind, body] of Object.entries(bodies(field))) {
          const response = await send(method.toUpperCase(), path, body, { ...auth(), 'content-type': type });
          expect({ route: `${method} ${template}`, kind, status: [400, 413].includes(response.status) }).toEqual({ route: `${method} ${template}`, kind, status: true });
          expectErrorShape(response, response.status);
        }
      }
    }
    expect(routes.length).toBeGreaterThanOrEqual(10);
    await expectAlive();
    // Three 1 MiB bodies for each of the ~100 body routes, one after another: a sweep, not a speed check.
  }, 300_000);
});

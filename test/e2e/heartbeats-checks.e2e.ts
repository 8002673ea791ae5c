import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const body = (over: Record<string, unknown> = {}, heartbeat: Record<string, unknown> = {}) => ({
  name: 'Nightly backup',
  heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours', ...heartbeat },
  ...over,
});

describe('heartbeat check API', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_DAEMON: 'off', VIGIL_PUBLIC_URL: 'https://vigil.example' } });
    account = await server.account();
  });
  afterAll(() => server.close());

  const post = (payload: unknown, key = account.key) => server.http.post('/v1/checks/heartbeat', payload, { key });

  it('creates a check with defaults, a generated token and its ping URL', async () => {
    const created = await post({ ...body(), id: 'ignored', created_at: '2000-01-01', heartbeat: { ...body().heartbeat, pingToken: '' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.body).toMatchObject({
      checkType: 'HEARTBEAT',
      name: 'Nightly backup',
      activated: true,
      muted: false,
      tags: [],
      description: null,
      triggerIncident: null,
      alertSettings: null,
      alertChannelSubscriptions: [],
      heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' },
    });
    expect(created.body.id).not.toBe('ignored');
    expect(created.body.created_at).not.toBe('2000-01-01');
    expect(created.body.heartbeat.pingToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.heartbeat.pingUrl).toBe(`https://vigil.example/ping/${created.body.heartbeat.pingToken}`);
    const read = await server.http.get(`/v1/checks/${created.body.id}`, { key: account.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('keeps a given token, refuses it to anyone else (409, across accounts), and frees it on delete', async () => {
    const token = '3b241101-e2bb-4255-8caf-4136c566a962';
    const first = await post(body({}, { pingToken: token }));
    expect(first.body.heartbeat.pingToken).toBe(token);
    expect((await post(body({}, { pingToken: token }))).status).toBe(409);
    const other = await server.account('Other');
    expect((await post(body({}, { pingToken: token.toUpperCase() }), other.key)).status).toBe(409);
    expect((await server.http.delete(`/v1/checks/${first.body.id}`, { key: account.key })).status).toBe(204);
    expect((await post(body({}, { pingToken: token }), other.key)).status).toBe(201);
  });

  it('updates with PUT: keeps the token when none is sent, honours If-Match', async () => {
    const created = (await post(body({ tags: ['a'] }))).body;
    const put = await server.http.put(`/v1/checks/heartbeat/${created.id}`, body({ name: 'Renamed', muted: true }, { pingToken: null }), {
      key: account.key,
      headers: { 'if-match': '"0"' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Renamed', muted: true, tags: [], heartbeat: { pingToken: created.heartbeat.pingToken } });
    expect(put.headers.get('etag')).toBe('"1"');
    const stale = await server.http.put(`/v1/checks/heartbeat/${created.id}`, body(), { key: account.key, headers: { 'if-match': '"0"' } });
    expect(stale.status).toBe(412);
    const token = '9c5b94b1-35ad-49bb-b118-8e8fc24abf80';
    const moved = await server.http.put(`/v1/checks/heartbeat/${created.id}`, body({}, { pingToken: token }), { key: account.key });
    expect(moved.body.heartbeat.pingToken).toBe(token);
    // The old token is free again.
    expect((await post(body({}, { pingToken: created.heartbeat.pingToken }))).status).toBe(201);
  });

  it('lists the account’s checks newest first with a cursor', async () => {
    const own = await server.account('Lister');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(body({ name: `c${i}` }), own.key)).body.id);
    const page1 = await server.http.get('/v1/checks?limit=2', { key: own.key });
    expect(page1.body.length).toBe(2);
    expect(page1.body.entries.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const page2 = await server.http.get(`/v1/checks?limit=2&nextId=${page1.body.nextId}`, { key: own.key });
    expect(page2.body).toMatchObject({ length: 1, nextId: null });
    expect(page2.body.entries[0].id).toBe(ids[0]);
    expect((await server.http.get('/v1/checks?limit=0', { key: own.key })).status).toBe(400);
    expect((await server.http.get('/v1/checks?nextId=forged', { key: own.key })).status).toBe(400);
  });

  it('links a check to its service: triggerIncident must name a service of the account; the service lists the check', async () => {
    const service = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: account.key })).body;
    const trigger = { serviceId: service.id, severity: 'MAJOR', name: 'Backups are not running' };
    const created = await post(body({ triggerIncident: trigger }));
    expect(created.status).toBe(201);
    expect(created.body.triggerIncident).toEqual({ ...trigger, description: '', notifySubscribers: false });
    const read = await server.http.get(`/v1/status-pages/services/${service.id}`, { key: account.key });
    expect(read.body.checks).toEqual([{ id: created.body.id, name: 'Nightly backup' }]);
    const other = await server.account('Foreign');
    const foreign = await post(body({ triggerIncident: trigger }), other.key);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toEqual([{ path: 'triggerIncident.serviceId', message: expect.any(String) }]);
  });

  it.each([
    ['no name', { ...body(), name: undefined }, 'name'],
    ['a blank name', body({ name: '   ' }), 'name'],
    ['a name over 255', body({ name: 'x'.repeat(256) }), 'name'],
    ['no heartbeat', { name: 'x' }, 'heartbeat'],
    ['a string period', body({}, { period: '5' }), 'heartbeat.period'],
    ['a fractional period', body({}, { period: 1.5 }), 'heartbeat.period'],
    ['an unknown unit', body({}, { periodUnit: 'weeks' }), 'heartbeat.periodUnit'],
    ['a period under 30 s', body({}, { period: 29, periodUnit: 'seconds' }), 'heartbeat.period'],
    ['a period over 365 days', body({}, { period: 366, periodUnit: 'days' }), 'heartbeat.period'],
    ['a negative grace', body({}, { grace: -1 }), 'heartbeat.grace'],
    ['a grace over 365 days', body({}, { grace: 8761, graceUnit: 'hours' }), 'heartbeat.grace'],
    ['a token that is not a UUID', body({}, { pingToken: 'abc' }), 'heartbeat.pingToken'],
    ['a description over 500', body({ description: 'x'.repeat(501) }), 'description'],
    ['activated as a string', body({ activated: 'yes' }), 'activated'],
    ['tags that are not strings', body({ tags: [1] }), 'tags'],
    ['a bad severity', body({ triggerIncident: { serviceId: '3b241101-e2bb-4255-8caf-4136c566a962', severity: 'BAD', name: 'x' } }), 'triggerIncident.severity'],
    ['alertSettings as an array', body({ alertSettings: [] }), 'alertSettings'],
  ])('refuses %s with 400 naming the field', async (_label, payload, path) => {
    const response = await post(payload);
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses a body that is not JSON (415), malformed JSON (400) and poisoned keys (400)', async () => {
    expect((await server.http.request('POST', '/v1/checks/heartbeat', { key: account.key, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await server.http.request('POST', '/v1/checks/heartbeat', { key: account.key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await server.http.request('POST', '/v1/checks/heartbeat', { key: account.key, rawBody: '{"name":"x","__proto__":{}}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('answers 404 for malformed, unknown, deleted and foreign check ids, on every route', async () => {
    const created = (await post(body())).body;
    const other = await server.account('Stranger');
    await server.http.delete(`/v1/checks/${(await post(body())).body.id}`, { key: account.key });
    for (const [id, key] of [
      ['not-a-uuid', account.key],
      ['01900000-0000-7000-8000-000000000000', account.key],
      [created.id, other.key],
    ] as const) {
      expect((await server.http.get(`/v1/checks/${id}`, { key })).status).toBe(404);
      expect((await server.http.put(`/v1/checks/heartbeat/${id}`, body(), { key })).status).toBe(404);
      expect((await server.http.delete(`/v1/checks/${id}`, { key })).status).toBe(404);
      expect((await server.http.get(`/v1/checks/heartbeats/${id}/events`, { key })).status).toBe(404);
      expect((await server.http.get(`/v1/checks/heartbeats/${id}/availability`, { key })).status).toBe(404);
    }
    expect((await server.http.delete(`/v1/checks/${created.id}`, { key: account.key })).status).toBe(204);
    expect((await server.http.get(`/v1/checks/${created.id}`, { key: account.key })).status).toBe(404);
    expect((await server.http.delete(`/v1/checks/${created.id}`, { key: account.key })).status).toBe(404);
  });

  it('needs an API key and refuses writes to READ_ONLY keys', async () => {
    expect((await server.http.get('/v1/checks')).status).toBe(401);
    const readOnly = await account.newKey('READ_ONLY');
    expect((await post(body(), readOnly.apiKey)).status).toBe(403);
    expect((await server.http.get('/v1/checks', { key: readOnly.apiKey })).status).toBe(200);
  });

  it('answers 405 with Allow for other methods on check paths', async () => {
    const created = (await post(body())).body;
    const response = await server.http.patch(`/v1/checks/heartbeat/${created.id}`, {}, { key: account.key });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('PUT');
  });
});

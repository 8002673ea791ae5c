import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** The monitor routes in Checkly's shape: create, read, list, replace, delete; every bad field a 400 with details. */
describe('monitors API', () => {
  let server: TestServer;
  let account: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    // Embedded probing off: these tests are about the API, not about runs.
    server = await startTestServer({ env: { VIGIL_MONITORS_EMBEDDED: 'off' } });
    account = await server.account();
    other = await server.account('Other');
  });
  afterAll(() => server.close());

  const bodies: Record<string, object> = {
    url: { name: 'Site', frequency: 5, request: { url: 'https://example.com', followRedirects: true, assertions: [{ source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200', regex: null }] } },
    api: { name: 'API', frequency: 1, request: { url: 'https://example.com/health', method: 'POST', body: '{}', bodyType: 'JSON', headers: [{ key: 'x-a', value: 'b' }], assertions: [{ source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true' }] } },
    tcp: { name: 'SSH', frequency: 0, frequencyOffset: 30, request: { hostname: 'example.com', port: 22 }, retryStrategy: { type: 'EXPONENTIAL', baseBackoffSeconds: 5, maxRetries: 3, maxDurationSeconds: 120, onlyOn: 'NETWORK_ERROR' } },
    dns: { name: 'DNS', frequency: 60, request: { recordType: 'MX', query: 'example.com', nameServer: '1.1.1.1', port: 53, protocol: 'TCP', assertions: [{ source: 'RESPONSE_CODE', comparison: 'EQUALS', target: 'NOERROR' }] } },
    ssl: { name: 'Cert', frequency: 1440, request: { sslConfig: { hostname: 'example.com', port: 443, alertDaysBeforeExpiry: 14 } } },
  };

  it.each(Object.keys(bodies))('%s: create, get with ETag, list, replace with If-Match, delete', async (type) => {
    const created = await server.http.post(`/v1/checks/${type}`, bodies[type], { key: account.key });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ checkType: type.toUpperCase(), activated: true, muted: false, locations: ['local'], status: { state: null } });
    const id = created.body.id;
    const got = await server.http.get(`/v1/checks/${type}/${id}`, { key: account.key });
    expect(got.status).toBe(200);
    const etag = got.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await server.http.get(`/v1/checks/${type}/${id}`, { key: other.key })).status).toBe(404);
    const wrongType = type === 'url' ? 'api' : 'url';
    expect((await server.http.get(`/v1/checks/${wrongType}/${id}`, { key: account.key })).status).toBe(404);
    const list = await server.http.get(`/v1/checks/${type}`, { key: account.key });
    expect(list.body.entries.map((m: { id: string }) => m.id)).toContain(id);
    const replaced = await server.http.put(`/v1/checks/${type}/${id}`, { ...bodies[type], name: 'Renamed', muted: true }, { key: account.key, headers: { 'if-match': etag } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Renamed', muted: true });
    expect((await server.http.put(`/v1/checks/${type}/${id}`, bodies[type], { key: account.key, headers: { 'if-match': etag } })).status).toBe(412);
    expect((await server.http.delete(`/v1/checks/${type}/${id}`, { key: account.key })).status).toBe(204);
    expect((await server.http.get(`/v1/checks/${type}/${id}`, { key: account.key })).status).toBe(404);
  });

  it('SSL answers in Checkly shape (request.sslConfig)', async () => {
    const created = await server.http.post('/v1/checks/ssl', bodies.ssl, { key: account.key });
    expect(created.body.request).toEqual({ sslConfig: { hostname: 'example.com', port: 443, serverName: null, skipChainValidation: false, alertDaysBeforeExpiry: 14 }, assertions: [] });
  });

  it('lists locations', async () => {
    const res = await server.http.get('/v1/locations', { key: account.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ region: 'local', name: 'Inside Vigil', kind: 'embedded', status: 'UP' }]);
  });

  it.each<[string, unknown, string[]]>([
    ['url', { request: { url: 'https://e.com' } }, ['name']],
    ['url', { name: 'x', frequency: 0, request: { url: 'https://e.com' } }, ['frequencyOffset']],
    ['url', { name: 'x', frequency: 2000, request: { url: 'ftp://e.com' } }, ['frequency', 'request.url']],
    ['url', { name: 'x', locations: ['mars'], request: { url: 'https://e.com' } }, ['locations']],
    ['api', { name: 'x', localSetupScript: 'x()', request: { url: 'https://e.com', assertions: [{ source: 'BODY', comparison: 'EQUALS' }] } }, ['localSetupScript', 'request.assertions[0].source']],
    ['tcp', { name: 'x', request: { hostname: 'e.com:22', port: 0 } }, ['request.hostname', 'request.port']],
    ['dns', { name: 'x', request: { recordType: 'PTR', query: 'e.com', protocol: 'QUIC' } }, ['request.recordType', 'request.protocol']],
    ['ssl', { name: 'x', request: { sslConfig: { hostname: 'e.com', port: 443, alertDaysBeforeExpiry: -1 } } }, ['request.sslConfig.alertDaysBeforeExpiry']],
    ['ssl', ['not', 'an', 'object'], ['']],
    ['url', { name: 'x', activated: 'yes', muted: 1, tags: [''], degradedResponseTime: 6000, maxResponseTime: 40_000, request: { url: 'https://e.com', followRedirects: 'no', skipSSL: 0 } }, ['tags[0]', 'maxResponseTime', 'activated', 'muted', 'request.followRedirects', 'request.skipSSL']],
    ['url', { name: 'x', retryStrategy: { type: 'SOMETIMES', maxRetries: 99, onlyOn: 'TIMEOUT' }, request: { url: 'https://e.com' } }, ['retryStrategy.type', 'retryStrategy.onlyOn', 'retryStrategy.maxRetries']],
    ['api', { name: 'x', request: { url: 'https://e.com', method: 'TRACE', headers: [{ key: 'a' }], queryParameters: 'q', bodyType: 'XML', basicAuth: 'u:p' } }, ['request.method', 'request.basicAuth', 'request.headers[0]', 'request.queryParameters', 'request.bodyType']],
    ['tcp', { name: 'x', request: { hostname: 'e.com', port: 22, data: 5, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '1' }] } }, ['request.assertions[0].source', 'request.data']],
    ['dns', { name: 'x', request: { recordType: 'A', query: '', nameServer: 'http://ns', port: 70_000 } }, ['request.nameServer', 'request.query', 'request.port']],
    ['ssl', { name: 'x', request: { sslConfig: { hostname: 'https://e.com', port: 'x', serverName: 5, skipChainValidation: 'no' } } }, ['request.sslConfig.hostname', 'request.sslConfig.port', 'request.sslConfig.serverName', 'request.sslConfig.skipChainValidation']],
    ['url', { name: 'x', alertChannelSubscriptions: [{ alertChannelId: 'nope' }, 'x'], triggerIncident: { serviceId: 'svc', severity: 'HUGE' }, request: { url: 'https://e.com' } }, ['alertChannelSubscriptions[0].alertChannelId', 'alertChannelSubscriptions[1]', 'triggerIncident.serviceId', 'triggerIncident.name', 'triggerIncident.severity']],
    ['url', { name: 'x', alertChannelSubscriptions: [{ alertChannelId: '01900000-0000-7000-8000-000000000001' }], request: { url: 'https://e.com' } }, ['alertChannelSubscriptions[0].alertChannelId']],
    ['url', { name: 'x', alertSettings: { escalationType: 'SOMETIMES', reminders: { amount: 9 } }, request: { url: 'https://e.com' } }, ['alertSettings.escalationType', 'alertSettings.reminders.amount']],
    ['url', { name: 'x', triggerIncident: { serviceId: '01900000-0000-7000-8000-000000000002', severity: 'MAJOR', name: 'down' }, request: { url: 'https://e.com' } }, ['triggerIncident.serviceId']],
  ])('POST /v1/checks/%s %j → 400 naming %j', async (type, body, paths) => {
    const res = await server.http.post(`/v1/checks/${type}`, body, { key: account.key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(paths);
  });

  it.each([
    ['/v1/checks?page=0', 'page'],
    ['/v1/checks?page=1&limit=500', 'limit'],
    ['/v1/checks?page=1&status=sleeping', 'status'],
    ['/v1/analytics/url-monitors/01900000-0000-7000-8000-000000000003?quickRange=forever', 'quickRange'],
    ['/v2/check-results/01900000-0000-7000-8000-000000000003?resultType=SOME&from=yesterday', 'resultType'],
  ])('GET %s → 400 naming %s', async (path, field) => {
    const res = await server.http.get(path, { key: account.key });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('POST /v1/analytics/checks refuses a body without 1 to 100 check ids, naming the bad ones', async () => {
    const none = await server.http.post('/v1/analytics/checks', { checkIds: [] }, { key: account.key });
    expect(none.status).toBe(400);
    expect(none.body.details[0].path).toBe('checkIds');
    const bad = await server.http.post('/v1/analytics/checks', { checkIds: ['01900000-0000-7000-8000-000000000003', 'x'] }, { key: account.key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['checkIds[1]']);
    expect((await server.http.get('/v1/analytics/traceroute/01900000-0000-7000-8000-000000000003', { key: account.key })).status).toBe(404);
  });

  it('a malformed id is a 404; a rollups window out of range is a 400', async () => {
    expect((await server.http.get('/v1/checks/url/not-an-id', { key: account.key })).status).toBe(404);
    const created = await server.http.post('/v1/checks/url', bodies.url, { key: account.key });
    const bad = await server.http.get(`/v1/checks/url/${created.body.id}/rollups?granularity=weekly`, { key: account.key });
    expect(bad.status).toBe(400);
    const ok = await server.http.get(`/v1/checks/url/${created.body.id}/rollups?granularity=daily`, { key: account.key });
    expect(ok.body).toEqual({ entries: [] });
  });
});

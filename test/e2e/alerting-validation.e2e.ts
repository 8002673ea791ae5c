import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

describe('alert channel validation: every field answers 400 with details, never 500', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await server.account();
  });
  afterAll(() => server.close());

  const post = (body: unknown) => server.http.post('/v1/alert-channels', body, { key: account.key });
  const hook = (config: object) => ({ type: 'WEBHOOK', config: { name: 'h', url: 'https://example.com/hook', ...config } });

  const cases: [string, unknown, string][] = [
    ['no type', { config: {} }, 'type'],
    ['unknown type', { type: 'PIGEON', config: {} }, 'type'],
    ['SMS', { type: 'SMS', config: { number: '+1' } }, 'type'],
    ['CALL', { type: 'CALL', config: { number: '+1' } }, 'type'],
    ['config not an object', { type: 'EMAIL', config: 'x' }, 'config'],
    ['email missing', { type: 'EMAIL', config: {} }, 'config.address'],
    ['email invalid', { type: 'EMAIL', config: { address: 'not-an-email' } }, 'config.address'],
    ['email number', { type: 'EMAIL', config: { address: 42 } }, 'config.address'],
    ['slack no url', { type: 'SLACK', config: {} }, 'config.url'],
    ['slack javascript:', { type: 'SLACK', config: { url: 'javascript:alert(1)' } }, 'config.url'],
    ['slack channel too long', { type: 'SLACK', config: { url: 'https://hooks.slack.com/x', channel: 'c'.repeat(300) } }, 'config.channel'],
    ['webhook ftp:', hook({ url: 'ftp://example.com/x' }), 'config.url'],
    ['webhook relative url', hook({ url: '/hook' }), 'config.url'],
    ['webhook credentials in url', hook({ url: 'https://user:pw@example.com/' }), 'config.url'],
    ['webhook url too long', hook({ url: `https://example.com/${'a'.repeat(3000)}` }), 'config.url'],
    ['webhook metadata address', hook({ url: 'http://169.254.169.254/latest' }), 'config.url'],
    ['webhook private address', hook({ url: 'http://10.0.0.1/' }), 'config.url'],
    ['webhook no name', { type: 'WEBHOOK', config: { url: 'https://example.com/' } }, 'config.name'],
    ['webhook bad method', hook({ method: 'DELETE' }), 'config.method'],
    ['webhook bad webhookType', hook({ webhookType: 'WEBHOOK_FAX' }), 'config.webhookType'],
    ['webhook headers not array', hook({ headers: { a: 'b' } }), 'config.headers'],
    ['webhook header bad name', hook({ headers: [{ key: 'bad header', value: 'x' }] }), 'config.headers[0].key'],
    ['webhook header CRLF', hook({ headers: [{ key: 'X-A', value: 'a\r\nInjected: 1' }] }), 'config.headers[0].value'],
    ['webhook header not pair', hook({ headers: ['x'] }), 'config.headers[0]'],
    ['webhook query not pair', hook({ queryParameters: [{ key: 1, value: 2 }] }), 'config.queryParameters[0]'],
    ['webhook template syntax', hook({ template: '{"a": "{{#if CHECK_NAME}}"}' }), 'config.template'],
    ['webhook template unclosed', hook({ template: '{{CHECK_NAME' }), 'config.template'],
    ['webhook template 100 KB', hook({ template: 'x'.repeat(100 * 1024) }), 'config.template'],
    ['webhook secret number', hook({ webhookSecret: 12 }), 'config.webhookSecret'],
    ['webhook whsec not base64', hook({ webhookSecret: 'whsec_***' }), 'config.webhookSecret'],
    ['pagerduty no key', { type: 'PAGERDUTY', config: {} }, 'config.serviceKey'],
    ['pagerduty name too long', { type: 'PAGERDUTY', config: { serviceKey: 'k', serviceName: 'n'.repeat(300) } }, 'config.serviceName'],
    ['opsgenie no key', { type: 'OPSGENIE', config: { name: 'o' } }, 'config.apiKey'],
    ['opsgenie bad region', { type: 'OPSGENIE', config: { apiKey: 'k', name: 'o', region: 'APAC' } }, 'config.region'],
    ['opsgenie bad priority', { type: 'OPSGENIE', config: { apiKey: 'k', name: 'o', priority: 'P9' } }, 'config.priority'],
    ['opsgenie no name', { type: 'OPSGENIE', config: { apiKey: 'k' } }, 'config.name'],
    ['sendRecovery not boolean', { type: 'EMAIL', config: { address: 'a@example.com' }, sendRecovery: 'yes' }, 'sendRecovery'],
    ['sslExpiryThreshold out of range', { type: 'EMAIL', config: { address: 'a@example.com' }, sslExpiryThreshold: 99 }, 'sslExpiryThreshold'],
    ['subscriptions not array', { type: 'EMAIL', config: { address: 'a@example.com' }, subscriptions: {} }, 'subscriptions'],
    ['subscriptions bad check id', { type: 'EMAIL', config: { address: 'a@example.com' }, subscriptions: [{ checkId: 'x' }] }, 'subscriptions[0].checkId'],
    ['subscriptions foreign check', { type: 'EMAIL', config: { address: 'a@example.com' }, subscriptions: [{ checkId: '0190f0a0-0000-7000-8000-000000000000', activated: true }] }, 'subscriptions[0].checkId'],
    ['body an array', [], ''],
  ];

  it.each(cases)('%s → 400 naming %s', async (_name, body, path) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts every channel type and templates that compile', async () => {
    const ok = [
      { type: 'EMAIL', config: { address: 'a@example.com' } },
      { type: 'SLACK', config: { url: 'https://hooks.slack.com/services/T/B/X' } },
      hook({ template: '{"title": "{{ALERT_TITLE}}", "down": "{{DOWNTIME_SECONDS}}"}', method: 'PUT', webhookType: 'WEBHOOK_NTFY' }),
      hook({ webhookType: 'WEBHOOK_MSTEAMS' }),
      hook({ webhookType: 'WEBHOOK_TELEGRAM' }),
      hook({ webhookType: 'WEBHOOK_DISCORD' }),
      { type: 'PAGERDUTY', config: { serviceKey: 'k' } },
      { type: 'OPSGENIE', config: { apiKey: 'key', name: 'ops', region: 'EU', priority: 'P1' } },
    ];
    for (const body of ok) expect((await post(body)).status).toBe(201);
  });

  it('answers 404 for malformed, unknown and foreign ids, and 400 for a check subscribing to a foreign channel', async () => {
    expect((await server.http.get('/v1/alert-channels/nope', { key: account.key })).status).toBe(404);
    expect((await server.http.put('/v1/alert-channels/0190f0a0-0000-7000-8000-000000000000/subscriptions', { checkId: '0190f0a0-0000-7000-8000-000000000000' }, { key: account.key })).status).toBe(404);
    const id = (await post({ type: 'EMAIL', config: { address: 'a@example.com' } })).body.id;
    const sub = await server.http.put(`/v1/alert-channels/${id}/subscriptions`, { checkId: '0190f0a0-0000-7000-8000-000000000000', activated: true }, { key: account.key });
    expect(sub.status).toBe(404);
    expect((await server.http.put(`/v1/alert-channels/${id}/subscriptions`, { checkId: 'x' }, { key: account.key })).status).toBe(400);

    const other = await server.account('other');
    const foreign = (await server.http.post('/v1/alert-channels', { type: 'EMAIL', config: { address: 'b@example.com' } }, { key: other.key })).body.id;
    const heartbeat = { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' };
    const res = await server.http.post('/v1/checks/heartbeat', { name: 'c', heartbeat, alertChannelSubscriptions: [{ alertChannelId: foreign, activated: true }] }, { key: account.key });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'alertChannelSubscriptions[0].alertChannelId', message: expect.any(String) }]);
    const bad = await server.http.post('/v1/checks/heartbeat', { name: 'c', heartbeat, alertChannelSubscriptions: [{ alertChannelId: 'x' }], alertSettings: { reminders: { amount: 9 }, escalationType: 'SOMETIMES' } }, { key: account.key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toContain('alertChannelSubscriptions[0].alertChannelId');
  });

  it('rejects bad notification list parameters', async () => {
    for (const q of ['from=yesterday', 'status=LOST', 'checkId=abc', 'limit=0', 'nextId=forged']) {
      expect((await server.http.get(`/v1/alert-notifications?${q}`, { key: account.key })).status).toBe(400);
    }
  });
});

import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, startReceiver } from './alerting-receivers';

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}
// No typings ship with the parser.
const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Family[];

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_METRICS_TOKEN: TOKEN, VIGIL_DAEMON: 'off' } });
    account = await server.account();
  });
  afterAll(() => server.close());

  async function scrape(): Promise<{ text: string; families: Map<string, Family> }> {
    const response = await server.http.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: response.text, families: new Map(parsePrometheus(response.text).map((family) => [family.name, family])) };
  }

  /** The value of the sample whose labels include `labels` (0 when there is none yet). */
  function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
    const family = families.get(name);
    const sample = family?.metrics.find((metric) => Object.entries(labels).every(([key, wanted]) => metric.labels?.[key] === wanted));
    return Number(sample?.value ?? sample?.count ?? 0);
  }

  it('wants the metrics token when one is configured', async () => {
    expect((await server.http.get('/metrics')).status).toBe(401);
    const wrong = await server.http.get('/metrics', { headers: { authorization: 'Bearer not-the-metrics-token-at-all' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(wrong.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect((await server.http.get('/metrics', { key: account.key })).status).toBe(401);
  });

  it('counts requests by route template, pings accepted and rejected, and events appended', async () => {
    const before = await scrape();

    const created = await server.http.post(
      '/v1/checks/heartbeat',
      { name: 'nightly backup', heartbeat: { period: 1, periodUnit: 'hours', grace: 10, graceUnit: 'minutes' } },
      { key: account.key },
    );
    expect(created.status).toBe(201);
    const { id: checkId, heartbeat } = created.body as { id: string; heartbeat: { pingToken: string } };
    expect((await server.http.get(`/v1/checks/${checkId}`, { key: account.key })).status).toBe(200);
    expect((await server.http.get(`/ping/${heartbeat.pingToken}`)).status).toBe(200);
    expect((await server.http.post(`/heartbeats/ping/${heartbeat.pingToken}`)).status).toBe(200);
    expect((await server.http.get('/ping/01900000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await server.http.get('/no/such/route')).status).toBe(404);

    const after = await scrape();
    if (process.env.DUMP) console.log(after.text.split('\n').filter((l) => l.startsWith('vigil_http_requests_total')).join('\n'));
    const delta = (name: string, labels: Record<string, string> = {}) => value(after.families, name, labels) - value(before.families, name, labels);

    expect(delta('vigil_http_requests_total', { method: 'POST', route: '/v1/checks/heartbeat', status: '201' })).toBe(1);
    expect(delta('vigil_http_requests_total', { method: 'GET', route: '/v1/checks/:checkId', status: '200' })).toBe(1);
    expect(delta('vigil_http_requests_total', { method: 'GET', route: '/ping/:token', status: '200' })).toBe(1);
    expect(delta('vigil_http_requests_total', { method: 'POST', route: '/heartbeats/ping/:token', status: '200' })).toBe(1);
    expect(delta('vigil_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    // The parser keeps no labels on histogram samples: the count line is read from the text.
    expect(after.text).toContain('vigil_http_request_duration_seconds_count{method="POST",route="/v1/checks/heartbeat",status="201"} 1\n');
    expect(after.families.get('vigil_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    expect(delta('vigil_pings_total', { outcome: 'accepted', status: '200' })).toBe(2);
    expect(delta('vigil_pings_total', { outcome: 'rejected', status: '404' })).toBe(1);
    expect(delta('vigil_events_appended_total', { stream_type: 'heartbeat' })).toBeGreaterThanOrEqual(2);
    expect(delta('vigil_events_appended_total', { stream_type: 'check' })).toBeGreaterThanOrEqual(1);

    const lag = after.families.get('vigil_projection_lag');
    expect(lag?.metrics.map((metric) => metric.labels?.projection)).toEqual(expect.arrayContaining(['heartbeat_timers', 'incidents']));
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(after.families.has(name)).toBe(true);
    }

    // Nothing that names a customer or a secret: ids, keys, tokens, addresses.
    for (const secret of [account.id, account.key, account.keyId, checkId, heartbeat.pingToken, TOKEN, '127.0.0.1']) {
      expect(after.text).not.toContain(secret);
    }
  });
});

describe('GET /metrics: notifications', () => {
  it('counts notification attempts by channel type and outcome, and shows the outbox', async () => {
    const receiver = await startReceiver();
    const server = await startTestServer({ env: { VIGIL_DAEMON: 'on', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    try {
      const account = await server.account();
      const channel = await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/hook` } }, { key: account.key });
      expect(channel.status).toBe(201);
      expect((await server.http.post(`/v1/alert-channels/${channel.body.id}/test`, undefined, { key: account.key })).status).toBe(202);
      await eventually(() => receiver.requests.length, (n) => n >= 1);
      const sent = await eventually(
        async () => (await server.http.get('/metrics')).text,
        (text) => /vigil_notifications_total\{[^}]*channel_type="WEBHOOK"[^}]*outcome="sent"[^}]*\} 1/.test(text),
      );
      expect(sent).toMatch(/vigil_notifications_total\{channel_type="WEBHOOK",alert_type="ALERT_TEST",outcome="sent"\} 1/);
      expect(sent).toMatch(/^vigil_outbox_pending 0$/m);
      expect(sent).toMatch(/^vigil_outbox_oldest_pending_seconds 0$/m);
      expect(sent).not.toContain(receiver.url);
      expect(sent).not.toContain(account.id);
    } finally {
      await server.close();
      await receiver.close();
    }
  });
});

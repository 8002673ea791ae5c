import { freePort } from '../../libs/testing/src/child-server';
import { DeliveryLogRetention } from '../../libs/alerting/src/alerting.api';
import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, Receiver, SmtpSink, startReceiver, startSmtpSink } from './alerting-receivers';

// What a hanging receiver costs; an answering one on a loaded runner must stay well inside it.
const DELIVERY_TIMEOUT_MS = 2000;

describe('delivery faults: retries, Retry-After, timeouts, refused connections, SMTP down (manual clock)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;
  let smtpPort: number;
  let smtp: SmtpSink | null = null;

  beforeAll(async () => {
    receiver = await startReceiver();
    smtpPort = await freePort();
    server = await startTestServer({
      clock,
      env: { VIGIL_DAEMON: 'on', SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS) },
    });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await smtp?.close();
  });

  const channel = async (config: object, type = 'WEBHOOK') =>
    (await server.http.post('/v1/alert-channels', { type, config }, { key: account.key })).body.id as string;
  const test = async (id: string) => {
    const res = await server.http.post(`/v1/alert-channels/${id}/test`, undefined, { key: account.key });
    expect(res.status).toBe(202);
    return res.body.notificationId as string;
  };
  const notification = async (id: string) =>
    ((await server.http.get(`/v1/alert-notifications?limit=100`, { key: account.key })).body.entries as any[]).find((n) => n.id === id);
  const waitFor = (id: string, done: (n: any) => boolean) => eventually(() => notification(id), (n) => n !== undefined && done(n));

  it('retries 500, 429 with Retry-After and a hanging receiver, then delivers once with every attempt logged', async () => {
    const id = await channel({ name: 'flaky', url: `${receiver.url}/flaky` });
    receiver.script.push(500, { status: 429, headers: { 'retry-after': '120' } }, 'hang', 200);
    const nid = await test(id);
    expect(await waitFor(nid, (n) => n.attempts === 1)).toMatchObject({ status: 'PENDING', lastError: 'HTTP 500' });

    clock.advance(40_000); // past the first backoff (30 s ± 20 %)
    const second = await waitFor(nid, (n) => n.attempts === 2);
    expect(second).toMatchObject({ status: 'PENDING', lastError: 'HTTP 429' });
    expect(Date.parse(second.nextAttemptAt) - clock.now().getTime()).toBe(120_000); // Retry-After honoured

    clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 600));
    expect((await notification(nid)).attempts).toBe(2);
    clock.advance(61_000);
    expect(await waitFor(nid, (n) => n.attempts === 3)).toMatchObject({ status: 'PENDING', lastError: `timed out after ${DELIVERY_TIMEOUT_MS} ms` });

    clock.advance(150_000); // past the third backoff (120 s ± 20 %)
    expect(await waitFor(nid, (n) => n.status === 'SENT')).toMatchObject({ attempts: 4, lastError: null });
    expect(receiver.requests.filter((r) => r.path === '/flaky')).toHaveLength(4);
    expect(new Set(receiver.requests.filter((r) => r.path === '/flaky').map((r) => r.headers['webhook-id']))).toEqual(new Set([nid]));
  });

  it('retries a refused connection until the receiver is up', async () => {
    const port = await freePort();
    const id = await channel({ name: 'down', url: `http://127.0.0.1:${port}/down` });
    const nid = await test(id);
    expect(await waitFor(nid, (n) => n.attempts === 1)).toMatchObject({ status: 'PENDING', lastError: 'connection failed: ECONNREFUSED' });
    const late = await startReceiver(port);
    try {
      clock.advance(40_000);
      expect(await waitFor(nid, (n) => n.status === 'SENT')).toMatchObject({ attempts: 2 });
      expect(late.requests).toHaveLength(1);
    } finally {
      await late.close();
    }
  });

  it('fails a 404 at once; a retry sends it again', async () => {
    const id = await channel({ name: 'gone', url: `${receiver.url}/gone` });
    receiver.script.push(404);
    const nid = await test(id);
    expect(await waitFor(nid, (n) => n.status === 'FAILED')).toMatchObject({ attempts: 1, lastError: 'HTTP 404' });
    const failed = (await server.http.get('/v1/alert-notifications?status=FAILED', { key: account.key })).body.entries as any[];
    expect(failed.map((n) => n.id)).toContain(nid);
    expect((await server.http.post(`/v1/alert-notifications/${nid}/retry`, undefined, { key: account.key })).status).toBe(202);
    expect(await waitFor(nid, (n) => n.status === 'SENT')).toMatchObject({ attempts: 1 });
    expect((await server.http.post(`/v1/alert-notifications/not-a-uuid/retry`, undefined, { key: account.key })).status).toBe(404);
  });

  it('delivers an email once the SMTP server is back', async () => {
    const id = await channel({ address: 'ops@example.com' }, 'EMAIL');
    const nid = await test(id);
    const first = await waitFor(nid, (n) => n.attempts === 1);
    expect(first.status).toBe('PENDING');
    expect(first.lastError).toMatch(/^SMTP/);
    smtp = await startSmtpSink(smtpPort);
    clock.advance(40_000);
    expect(await waitFor(nid, (n) => n.status === 'SENT')).toMatchObject({ attempts: 2 });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].headers['message-id']).toContain(nid);
  });

  it('keeps other accounts out of channels and notifications', async () => {
    const other = await server.account('other');
    const id = await channel({ name: 'mine', url: `${receiver.url}/mine` });
    expect((await server.http.get(`/v1/alert-channels/${id}`, { key: other.key })).status).toBe(404);
    expect((await server.http.post(`/v1/alert-channels/${id}/test`, undefined, { key: other.key })).status).toBe(404);
    expect((await server.http.delete(`/v1/alert-channels/${id}`, { key: other.key })).status).toBe(404);
    expect((await server.http.get('/v1/alert-notifications', { key: other.key })).body.entries).toEqual([]);
    expect((await server.http.get('/v1/alert-channels', { key: other.key })).body.entries).toEqual([]);
  });

  it('keeps finished deliveries for VIGIL_EVENT_RETENTION_DAYS (90 by default)', async () => {
    const count = async () => ((await server.http.get('/v1/alert-notifications?limit=100', { key: account.key })).body.entries as any[]).length;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    const retention = server.app.get(DeliveryLogRetention);
    clock.advance(89 * 86_400_000);
    expect(await retention.pruneOnce()).toBe(0);
    clock.advance(2 * 86_400_000);
    expect(await retention.pruneOnce()).toBe(before);
    expect(await count()).toBe(0);
  });
});

describe('outbound safety without VIGIL_OUTBOUND_ALLOW_PRIVATE', () => {
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { VIGIL_DAEMON: 'on' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('refuses private targets at save the same way whether written as an address or a name (names are checked again at delivery)', async () => {
    const messages = new Set<string>();
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/hook', 'http://127.0.0.1:9/x', 'http://[::1]/x', 'http://100.64.0.1/', 'http://0.0.0.0/', `http://localhost:${receiver.port}/x`]) {
      const res = await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'x', url } }, { key: account.key });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'config.url', message: expect.stringContaining('VIGIL_OUTBOUND_ALLOW_PRIVATE') }]);
      messages.add(res.body.details[0].message);
    }
    expect(messages.size).toBe(1);
    expect(receiver.requests).toHaveLength(0);
  });

  it('fails email deliveries without SMTP_URL', async () => {
    const id = (await server.http.post('/v1/alert-channels', { type: 'EMAIL', config: { address: 'a@example.com' } }, { key: account.key })).body.id;
    const nid = (await server.http.post(`/v1/alert-channels/${id}/test`, undefined, { key: account.key })).body.notificationId;
    const n = await eventually(
      async () => ((await server.http.get('/v1/alert-notifications', { key: account.key })).body.entries as any[]).find((e) => e.id === nid),
      (e) => e?.status === 'FAILED',
    );
    expect(n.lastError).toBe('SMTP not configured');
  });
});

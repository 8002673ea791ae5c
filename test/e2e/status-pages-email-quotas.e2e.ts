import { ManualClock } from '../../libs/core/src/clock';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, SmtpSink, startSmtpSink } from './alerting-receivers';

/** Email quotas per account and hour (429 with Retry-After), and autoVerify only for ADMIN keys, recorded with the key. */
describe('email quotas and autoVerify (real SMTP)', () => {
  const clock = new ManualClock('2026-07-01T12:40:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let smtp: SmtpSink;
  let pageId: string;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({
      clock,
      env: { VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_EMAIL_CONFIRMATIONS_PER_HOUR: '3', VIGIL_EMAILS_PER_HOUR: '4', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    account = await server.account();
    const service = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: account.key })).body;
    pageId = (await server.http.post('/v1/status-pages', { name: 'Quota page', url: 'quota-page', cards: [{ name: 'c', services: [{ id: service.id }] }] }, { key: account.key })).body.id;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const bulk = (emails: string[], key = account.key, autoVerify = false) =>
    server.http.post(`/v1/status-pages/${pageId}/subscriptions/bulk`, { subscriptions: emails.map((config) => ({ type: 'EMAIL', config })), ...(autoVerify ? { autoVerify } : {}) }, { key });

  it('confirmation emails to unverified addresses: refused past the hourly limit with 429 and Retry-After, and nothing is written', async () => {
    expect((await bulk(['a@example.com', 'b@example.com'])).status).toBe(201);
    const over = await bulk(['c@example.com', 'd@example.com']);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('3 confirmation emails an hour') });
    // 20 minutes to the next hour.
    expect(over.headers.get('retry-after')).toBe('1200');
    const listed = (await server.http.get(`/v1/status-pages/${pageId}/subscriptions`, { key: account.key })).body as { address: string }[];
    expect(listed.map((s) => s.address).sort()).toEqual(['a@example.com', 'b@example.com']);
    // One more fits: the third.
    expect((await bulk(['c@example.com'])).status).toBe(201);
    await eventually(() => smtp.mails.length, (n) => n >= 3);
    expect((await bulk(['e@example.com'])).status).toBe(429);

    // The next hour, the quota is back.
    clock.advance(20 * 60_000);
    expect((await bulk(['e@example.com'])).status).toBe(201);
  });

  it('autoVerify needs an ADMIN key and is recorded with the key that used it', async () => {
    const writer = await account.newKey('READ_WRITE');
    const refused = await bulk(['f@example.com'], writer.apiKey, true);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('ADMIN');
    // Without autoVerify the same key may add (double opt-in) subscribers.
    expect((await bulk(['f@example.com'], writer.apiKey)).status).toBe(201);

    const added = await bulk(['g@example.com'], account.key, true);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ created: 1, status: 'VERIFIED' });
    const events = await server.app.get<EventStore>(EVENT_STORE).readStream(`statuspage-subscriptions-${pageId}`);
    const last = events.filter((e) => e.type === 'StatusPageSubscriptionsAdded').pop()!;
    expect((last.data as { subscriptions: { address: string; autoVerifiedBy?: string }[] }).subscriptions).toEqual([
      expect.objectContaining({ address: 'g@example.com', status: 'VERIFIED', autoVerifiedBy: account.keyId }),
    ]);
  });

  it('emails past the hourly quota wait for the next hour instead of being sent or lost', async () => {
    // This hour: f's confirmation (1 email). Four verified subscribers now: one incident email each would make 5 > 4.
    for (const email of ['h@example.com', 'i@example.com', 'j@example.com']) expect((await bulk([email], account.key, true)).status).toBe(201);
    // The confirmations so far (a, b, c, then e and f the next hour) have all arrived.
    const before = (await eventually(() => smtp.mails.length, (n) => n >= 5)) as number;
    expect(before).toBe(5);
    const serviceId = (await server.http.get(`/v1/status-pages/${pageId}`, { key: account.key })).body.cards[0].services[0].id;
    const incident = await server.http.post(
      '/v1/status-pages/incidents',
      { name: 'Slow API', severity: 'MINOR', services: [{ id: serviceId }], incidentUpdates: [{ description: 'Looking into it.', status: 'INVESTIGATING', notifySubscribers: true }] },
      { key: account.key },
    );
    expect(incident.status).toBe(201);
    const log = async () => ((await server.http.get(`/v1/alert-notifications?limit=100`, { key: account.key })).body.entries as any[]).filter((n) => n.incidentId === incident.body.id);
    const waiting = await eventually(log, (list) => list.some((n) => n.lastError !== null));
    expect(waiting).toEqual([expect.objectContaining({ status: 'PENDING', attempts: 0, lastError: "waiting for the account's hourly email quota" })]);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.length).toBe(before);

    clock.advance(60 * 60_000);
    await eventually(() => smtp.mails.length - before, (n) => n >= 4);
    expect(smtp.mails.slice(before).map((m) => m.to[0]).sort()).toEqual(['g@example.com', 'h@example.com', 'i@example.com', 'j@example.com']);
    expect((await eventually(log, (list) => list[0]?.status === 'SENT'))[0]).toMatchObject({ status: 'SENT', attempts: 1 });
  });
});

import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { decodedMail, eventually, ReceivedMail, SmtpSink, startSmtpSink } from './alerting-receivers';

/**
 * Issue 33, item 5: the pages behind subscriber links (confirm, unsubscribe) wear the status page's name, logo
 * and colours and name the address; a second click on a used confirmation link says it is already confirmed.
 */
let server: TestServer;
let account: TestAccount;
let smtp: SmtpSink;
let pageId: string;
const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '' };
const path = (url: string) => new URL(url).pathname;
const linkIn = (mail: ReceivedMail, kind: string) => decodedMail(mail.raw).match(new RegExp(`http://[^\\s"<>]+/subscriptions/${kind}/[A-Za-z0-9_.-]+`))![0];

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ env: { VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Status <status@vigil.test>', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account();
  const serviceId = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: account.key })).body.id;
  const created = await server.http.post(
    '/v1/status-pages',
    { name: 'Acme <Cloud>', url: 'acme-links', logo: 'https://cdn.example.com/acme.png', defaultTheme: 'LIGHT', cards: [{ name: 'Core', services: [{ id: serviceId }] }] },
    { key: account.key },
  );
  pageId = created.body.id;
  await server.http.post('/v1/status-pages/incidents', { name: 'Slow API', severity: 'MINOR', services: [{ id: serviceId }], incidentUpdates: [{ description: 'Looking.' }] }, { key: account.key });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

function expectPageLook(text: string, headers: Headers) {
  expect(text).toContain('Acme &lt;Cloud&gt;');
  expect(text).toContain('<img src="https://cdn.example.com/acme.png"');
  expect(text).toMatch(/<link rel="stylesheet" href="\/status\/acme-links\/theme\/[\w-]+\.css">/);
  expect(headers.get('content-security-policy')).toContain('img-src \'self\' https://cdn.example.com');
  expect(text).not.toMatch(/<style|<script|style=/);
}

describe('subscriber link pages', () => {
  it('confirm: in the page look, naming the address; a second click says it is already confirmed', async () => {
    await server.http.post(`/v1/status-pages/${pageId}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'dana@example.com' }] }, { key: account.key });
    await eventually(() => smtp.mails.filter((m) => m.to.includes('dana@example.com')).length, (n) => n >= 1);
    const link = path(linkIn(smtp.mails.find((m) => m.to.includes('dana@example.com'))!, 'confirm'));

    const shown = await server.http.get(link);
    expect(shown.status).toBe(200);
    expectPageLook(shown.text, shown.headers);
    expect(shown.text).toContain('from Acme &lt;Cloud&gt; by email at dana@example.com');
    // The theme stylesheet it links to is served.
    const theme = shown.text.match(/href="(\/status\/acme-links\/theme\/[\w-]+\.css)"/)![1];
    expect((await server.http.get(theme)).status).toBe(200);

    const confirmed = await server.http.post(link, undefined, form);
    expect(confirmed.status).toBe(200);
    expectPageLook(confirmed.text, confirmed.headers);
    expect(confirmed.text).toContain('Subscription confirmed');
    expect(confirmed.text).toContain('dana@example.com');

    for (const again of [await server.http.post(link, undefined, form), await server.http.get(link)]) {
      expect(again.status).toBe(200);
      expect(again.text).toContain('Already confirmed');
      expect(again.text).toContain('dana@example.com is already confirmed');
      expect(again.text).not.toContain('Link not valid');
      expectPageLook(again.text, again.headers);
    }
    // A forged link still says so, in Vigil's plain look.
    const forged = await server.http.get('/subscriptions/confirm/forged.token');
    expect([forged.status, forged.text.includes('Link not valid'), forged.text.includes('Acme')]).toEqual([400, true, false]);
  });

  it('unsubscribe: in the page look, naming the address, before and after', async () => {
    await server.http.post(`/v1/status-pages/${pageId}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'eve@example.com' }], autoVerify: true }, { key: account.key });
    const incidents = await server.http.get('/v1/status-pages/incidents', { key: account.key });
    const incidentId = incidents.body.entries[0].id;
    await server.http.post(`/v1/status-pages/incidents/${incidentId}/incident-updates`, { description: 'Fixed.', status: 'RESOLVED', notifySubscribers: true }, { key: account.key });
    await eventually(() => smtp.mails.filter((m) => m.to.includes('eve@example.com')).length, (n) => n >= 1);
    const link = path(linkIn(smtp.mails.find((m) => m.to.includes('eve@example.com'))!, 'unsubscribe'));

    const shown = await server.http.get(link);
    expect(shown.status).toBe(200);
    expectPageLook(shown.text, shown.headers);
    expect(shown.text).toContain('Stop receiving incident updates from Acme &lt;Cloud&gt; at eve@example.com?');
    const done = await server.http.post(link, undefined, form);
    expect(done.status).toBe(200);
    expectPageLook(done.text, done.headers);
    expect(done.text).toContain('You will no longer receive incident updates from Acme &lt;Cloud&gt; at eve@example.com.');
    const list = (await server.http.get(`/v1/status-pages/${pageId}/subscriptions`, { key: account.key })).body;
    expect(JSON.stringify(list)).not.toContain('eve@example.com');
  });
});

import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { decodedMail, eventually, SmtpSink, startSmtpSink } from './alerting-receivers';

/** Subscriber emails read well: Markdown rendered, readable text, links to the incident and the page, statuses as words. */
describe('subscriber incident emails (real SMTP)', () => {
  let server: TestServer;
  let account: TestAccount;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    // No VIGIL_MAIL_INBOUND: nobody reads a mailbox, so no mailto: unsubscribe is offered.
    server = await startTestServer({ env: { VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Status <status@vigil.test>', VIGIL_PUBLIC_URL: 'https://status.example.com' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('renders the update and links to the incident and its page', async () => {
    const service = (await server.http.post('/v1/status-pages/services', { name: 'Checkout' }, { key: account.key })).body;
    const page = (await server.http.post('/v1/status-pages', { name: 'Acme <Status>', url: 'acme-mail', cards: [{ name: 'Shop', services: [{ id: service.id }] }] }, { key: account.key })).body;
    await server.http.post(`/v1/status-pages/${page.id}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'reader@example.com' }], autoVerify: true }, { key: account.key });
    const description = 'We found the **cause**: an expired [certificate](https://example.com/cert).\n\n- renewed\n- payments retried\n\n<img src=x onerror=alert(1)>';
    const incident = await server.http.post(
      '/v1/status-pages/incidents',
      { name: 'Card payments failing', severity: 'MAJOR', services: [{ id: service.id }], incidentUpdates: [{ description, status: 'IDENTIFIED', notifySubscribers: true }] },
      { key: account.key },
    );
    expect(incident.status).toBe(201);
    const [mail] = await eventually(() => smtp.mails.filter((m) => m.to.includes('reader@example.com')), (list) => list.length >= 1);
    const source = decodedMail(mail.raw);
    const html = source.slice(source.indexOf('Content-Type: text/html'));
    const text = source.slice(source.indexOf('Content-Type: text/plain'), source.indexOf('Content-Type: text/html'));
    expect(html.length).toBeGreaterThan(0);
    expect(text.length).toBeGreaterThan(0);

    expect(mail.headers.subject).toBe('[Acme <Status>] Card payments failing: Identified');
    expect(source).not.toContain('IDENTIFIED');
    // HTML part: the Markdown rendered, the raw HTML of the update escaped.
    expect(html).toContain('<strong>cause</strong>');
    expect(html).toContain('<a href="https://example.com/cert">certificate</a>');
    expect(html).toContain('<li>renewed</li>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('Acme &lt;Status&gt;');
    // Text part: readable, no Markdown marks.
    expect(text).toContain('We found the cause: an expired certificate (https://example.com/cert).');
    expect(text).toMatch(/- renewed\r?\n- payments retried/);
    expect(text).not.toContain('**cause**');
    // Links a person can open: the incident on the page, and the page.
    expect(source).toContain(`https://status.example.com/status/acme-mail/incidents/${incident.body.id}`);
    expect(html).toContain('href="https://status.example.com/status/acme-mail"');
    expect(text).toContain('Status page: https://status.example.com/status/acme-mail');
    expect(source).not.toContain('/v1/');
    // One-click unsubscribe only: no inbound mailbox is configured.
    expect(mail.headers['list-unsubscribe']).toMatch(/^<https:\/\/status\.example\.com\/subscriptions\/unsubscribe\/[^>]+>$/);
    expect(mail.headers['list-unsubscribe']).not.toContain('mailto:');
  });
});

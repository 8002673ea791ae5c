import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { Webhook } from 'standardwebhooks';
import { decodedMail, eventually, ReceivedMail, Receiver, SmtpSink, startReceiver, startSmtpSink } from './alerting-receivers';

const INCIDENTS = '/v1/status-pages/incidents';

describe('subscribers: double opt-in, incident emails, one-click unsubscribe (real SMTP)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let smtp: SmtpSink;
  let serviceId: string;
  let pageA: string;
  let pageB: string;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Status <status@vigil.test>', VIGIL_MAIL_INBOUND: 'status@vigil.test' } });
    account = await server.account();
    serviceId = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: account.key })).body.id;
    const page = async (url: string) =>
      (await server.http.post('/v1/status-pages', { name: `Page <${url}>`, url, cards: [{ name: 'Core', services: [{ id: serviceId }] }] }, { key: account.key })).body.id as string;
    pageA = await page('page-a');
    pageB = await page('page-b');
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const subscriptions = async (pageId: string) => (await server.http.get(`/v1/status-pages/${pageId}/subscriptions`, { key: account.key })).body as any[];
  const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
  const linkIn = (mail: ReceivedMail, kind: string) => decodedMail(mail.raw).match(new RegExp(`http://[^\\s"<>]+/subscriptions/${kind}/[A-Za-z0-9_.-]+`))![0];
  const path = (url: string) => new URL(url).pathname;
  const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '' };
  /** What a person does: opens the link, then presses its button (the form's POST to the same URL). */
  const confirmLink = async (link: string) => {
    const shown = await server.http.get(path(link));
    if (shown.status !== 200) return shown;
    expect(shown.text).toContain(`<form method="post" action="${path(link)}"><button class="btn" type="submit">Confirm subscription</button></form>`);
    return server.http.post(path(link), undefined, form);
  };

  it('sends a confirmation email to each new pending address; its link verifies once, on the POST of its button', async () => {
    const bulk = await server.http.post(
      `/v1/status-pages/${pageA}/subscriptions/bulk`,
      { subscriptions: [{ type: 'EMAIL', config: 'ann@example.com' }, { type: 'EMAIL', config: 'bob@example.com' }, { type: 'EMAIL', config: 'late@example.com' }] },
      { key: account.key },
    );
    expect(bulk.body).toEqual({ created: 3, skipped: 0, status: 'PENDING' });
    await eventually(() => smtp.mails.length, (n) => n >= 3);
    const confirm = mailsTo('ann@example.com')[0];
    expect(confirm.headers.subject).toContain('Confirm your subscription');
    expect(decodedMail(confirm.raw)).toContain('Page &lt;page-a&gt;');

    const link = linkIn(confirm, 'confirm');
    // A mail scanner or link preview only GETs: that shows a button and changes nothing, however often.
    for (let i = 0; i < 2; i++) {
      const shown = await server.http.get(path(link));
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toContain('text/html');
      expect(shown.headers.get('content-security-policy')).toContain("style-src 'self'");
      expect(shown.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(shown.text).not.toMatch(/<style|<script|style=/);
      expect(shown.text).toContain('Confirm your subscription');
    }
    expect((await subscriptions(pageA)).find((s) => s.address === 'ann@example.com').status).toBe('PENDING');
    const page = await server.http.post(path(link), undefined, form);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Subscription confirmed');
    expect((await subscriptions(pageA)).find((s) => s.address === 'ann@example.com').status).toBe('VERIFIED');
    // Issue 33, item 5: a second click confirms nothing more and says the address is already confirmed.
    const second = await server.http.post(path(link), undefined, form);
    expect([second.status, second.text]).toEqual([200, expect.stringContaining('ann@example.com is already confirmed')]);
    expect((await server.http.get(path(link))).text).toContain('Already confirmed');
    expect((await server.http.get('/subscriptions/confirm/forged.token')).status).toBe(400);
    expect((await server.http.post('/subscriptions/confirm/forged.token', undefined, form)).status).toBe(400);

    // Bob confirms within 48 h; the late one after.
    expect((await confirmLink(linkIn(mailsTo('bob@example.com')[0], 'confirm'))).status).toBe(200);
    clock.advance(49 * 3_600_000);
    const expired = linkIn(mailsTo('late@example.com')[0], 'confirm');
    expect((await server.http.get(path(expired))).status).toBe(400);
    expect((await server.http.post(path(expired), undefined, form)).status).toBe(400);
    expect((await subscriptions(pageA)).find((s) => s.address === 'late@example.com').status).toBe('PENDING');

    // Subscribing again after the link expired sends a fresh link (still one subscription); again at once sends nothing.
    const again = async () =>
      (await server.http.post(`/v1/status-pages/${pageA}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'Late@example.com' }] }, { key: account.key })).body;
    expect(await again()).toEqual({ created: 0, skipped: 1, status: 'PENDING' });
    await eventually(() => mailsTo('late@example.com').length, (n) => n >= 2);
    const fresh = linkIn(mailsTo('late@example.com')[1], 'confirm');
    expect(fresh).not.toBe(expired);
    expect(await again()).toEqual({ created: 0, skipped: 1, status: 'PENDING' });
    await new Promise((r) => setTimeout(r, 600));
    expect(mailsTo('late@example.com')).toHaveLength(2);
    expect((await subscriptions(pageA)).filter((s) => s.address.toLowerCase() === 'late@example.com')).toHaveLength(1);
    expect((await confirmLink(fresh)).status).toBe(200);
    expect((await subscriptions(pageA)).find((s) => s.address === 'late@example.com').status).toBe('VERIFIED');
    expect((await server.http.post(path(expired), undefined, form)).status).toBe(400);
    const late = (await subscriptions(pageA)).find((s) => s.address === 'late@example.com');
    expect((await server.http.delete(`/v1/status-pages/${pageA}/subscriptions/${late.id}`, { key: account.key })).status).toBe(204);

    // Auto-verified subscriptions get no confirmation email; ann is on both pages.
    const before = smtp.mails.length;
    await server.http.post(`/v1/status-pages/${pageB}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'ANN@example.com' }, { type: 'EMAIL', config: 'cat@example.com' }], autoVerify: true }, { key: account.key });
    await new Promise((r) => setTimeout(r, 600));
    expect(smtp.mails.length).toBe(before);
  });

  it('emails each verified address once per incident event, across pages; edits send nothing; one-click unsubscribe removes', async () => {
    const before = smtp.mails.length;
    const incident = (
      await server.http.post(
        INCIDENTS,
        { name: 'API <errors>', severity: 'MAJOR', services: [{ id: serviceId }], incidentUpdates: [{ description: 'We are looking into it.', notifySubscribers: true }] },
        { key: account.key },
      )
    ).body;
    await eventually(() => smtp.mails.length - before, (n) => n >= 3);
    await new Promise((r) => setTimeout(r, 500));
    const sent = smtp.mails.slice(before);
    expect(sent.map((m) => m.to[0].toLowerCase()).sort()).toEqual(['ann@example.com', 'bob@example.com', 'cat@example.com']);
    const ann = sent.find((m) => m.to[0].toLowerCase() === 'ann@example.com')!;
    expect(decodedMail(ann.raw)).toContain('API &lt;errors&gt;');
    expect(ann.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(ann.headers['list-unsubscribe']).toMatch(/^<http:\/\/[^>]+\/subscriptions\/unsubscribe\/[^>]+>, <mailto:status@vigil\.test\?subject=[^>]+>$/);
    // Subscriber emails are logged per batch of up to 100 addresses; the sink has them a moment before the worker records them.
    const logged = await eventually(
      async () => ((await server.http.get('/v1/alert-notifications?limit=100', { key: account.key })).body.entries as any[]).filter((n) => n.incidentId === incident.id && n.alertType === 'INCIDENT_CREATED'),
      (list) => list.length > 0 && list.every((n) => n.status !== 'PENDING'),
    );
    expect(logged).toEqual([expect.objectContaining({ status: 'SENT', recipient: '3 subscribers', attempts: 1 })]);

    // Editing the stored update re-sends nothing; a new update with notifySubscribers does.
    const updateId = incident.incidentUpdates[0].id;
    const edit = await server.http.put(`${INCIDENTS}/${incident.id}/incident-updates/${updateId}`, { description: 'Reworded.', notifySubscribers: true }, { key: account.key });
    expect(edit.status).toBe(200);
    await new Promise((r) => setTimeout(r, 600));
    expect(smtp.mails.length).toBe(before + 3);

    // One click: the POST mail clients send removes bob; the same POST again answers the same.
    const bobMail = sent.find((m) => m.to[0] === 'bob@example.com')!;
    const bobLink = path(bobMail.headers['list-unsubscribe'].match(/<(http[^>]+)>/)![1]);
    const oneClick = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'List-Unsubscribe=One-Click' };
    const shown = await server.http.get(bobLink);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<form method="post" action="${bobLink}">`);
    expect((await subscriptions(pageA)).map((s) => s.address)).toContain('bob@example.com'); // the GET removed nothing
    expect((await server.http.post(bobLink, undefined, oneClick)).status).toBe(200);
    expect((await subscriptions(pageA)).map((s) => s.address)).not.toContain('bob@example.com');
    const again = await server.http.post(bobLink, undefined, oneClick);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Unsubscribed');
    expect((await server.http.post('/subscriptions/unsubscribe/forged.token', undefined, oneClick)).status).toBe(400);

    await server.http.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Fixed.', status: 'RESOLVED', notifySubscribers: true }, { key: account.key });
    await eventually(() => smtp.mails.length - before, (n) => n >= 5);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.slice(before + 3).map((m) => m.to[0].toLowerCase()).sort()).toEqual(['ann@example.com', 'cat@example.com']);
  });

  it('a check with triggerIncident and notifySubscribers emails the page subscribers when it fails and recovers', async () => {
    const before = smtp.mails.length;
    const check = (
      await server.http.post(
        '/v1/checks/heartbeat',
        {
          name: 'api heartbeat',
          heartbeat: { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' },
          triggerIncident: { serviceId, severity: 'MAJOR', name: 'API down', description: 'The API stopped reporting.', notifySubscribers: true },
        },
        { key: account.key },
      )
    ).body;
    await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    clock.advance(31_000);
    await eventually(() => smtp.mails.length - before, (n) => n >= 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.slice(before).map((m) => m.to[0].toLowerCase()).sort()).toEqual(['ann@example.com', 'cat@example.com']);
    expect(decodedMail(smtp.mails[before].raw)).toContain('API down');
    await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    await eventually(() => smtp.mails.length - before, (n) => n >= 4);
    expect(decodedMail(smtp.mails[before + 2].raw)).toContain('Resolved');
  });
});

describe('WEBHOOK subscribers: signed confirmation POST, Statuspage-shaped incident POSTs', () => {
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { VIGIL_DAEMON: 'on', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('verifies a webhook by a signed POST answered 2xx, then sends it incidents signed with the secret it was given', async () => {
    const serviceId = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: account.key })).body.id;
    const page = (await server.http.post('/v1/status-pages', { name: 'Hooks', url: 'hooks-page', cards: [{ name: 'c', services: [{ id: serviceId }] }] }, { key: account.key })).body;
    const bulk = await server.http.post(
      `/v1/status-pages/${page.id}/subscriptions/bulk`,
      {
        subscriptions: [
          { type: 'WEBHOOK', config: `${receiver.url}/sub` },
          { type: 'WEBHOOK', config: 'javascript:alert(1)' },
          { type: 'WEBHOOK', config: 'ftp://example.com/x' },
          { type: 'WEBHOOK', config: 'not a url' },
        ],
      },
      { key: account.key },
    );
    expect(bulk.body).toEqual({ created: 1, skipped: 3, status: 'PENDING' });
    await eventually(() => receiver.requests.length, (n) => n >= 1);
    const confirm = receiver.requests[0];
    const secret = JSON.parse(confirm.body).signing_secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(new Webhook(secret).verify(confirm.body, confirm.headers as Record<string, string>)).toMatchObject({ type: 'subscription_confirmation', page: { id: page.id } });
    const subs = await eventually(
      async () => (await server.http.get(`/v1/status-pages/${page.id}/subscriptions`, { key: account.key })).body as any[],
      (list) => list[0]?.status === 'VERIFIED',
    );
    expect(subs).toEqual([expect.objectContaining({ type: 'WEBHOOK', address: `${receiver.url}/sub`, status: 'VERIFIED' })]);

    // A second page showing the service: /SUB is another subscriber (paths are case-sensitive); HTTP://… is /sub again.
    const other = (await server.http.post('/v1/status-pages', { name: 'Hooks 2', url: 'hooks-page-2', cards: [{ name: 'c', services: [{ id: serviceId }] }] }, { key: account.key })).body;
    const shouting = receiver.url.replace('http://', 'HTTP://');
    await server.http.post(`/v1/status-pages/${other.id}/subscriptions/bulk`, { subscriptions: [{ type: 'WEBHOOK', config: `${receiver.url}/SUB` }, { type: 'WEBHOOK', config: `${shouting}/sub` }], autoVerify: true }, { key: account.key });
    await eventually(() => receiver.requests.length, (n) => n >= 3);
    const confirmations = receiver.requests.length;

    await server.http.post(
      '/v1/status-pages/incidents',
      { name: 'Queue <stuck>', severity: 'CRITICAL', services: [{ id: serviceId }], incidentUpdates: [{ description: 'Jobs are not running.', notifySubscribers: true }] },
      { key: account.key },
    );
    await eventually(() => receiver.requests.length - confirmations, (n) => n >= 3);
    await new Promise((r) => setTimeout(r, 500));
    const notices = receiver.requests.slice(confirmations);
    expect(notices.map((r) => r.path).sort()).toEqual(['/SUB', '/sub']);
    const notice = notices.find((r) => r.path === '/sub')!;
    const body = new Webhook(secret).verify(notice.body, notice.headers as Record<string, string>) as any;
    expect(body).toMatchObject({
      meta: { unsubscribe: expect.stringContaining('/subscriptions/unsubscribe/') },
      page: { id: page.id, status_indicator: 'critical' },
      incident: { name: 'Queue <stuck>', status: 'investigating', impact: 'critical', incident_updates: [expect.objectContaining({ body: 'Jobs are not running.', status: 'investigating' })] },
    });
  });
});

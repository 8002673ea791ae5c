import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, Receiver, SmtpSink, startReceiver, startSmtpSink } from './alerting-receivers';

const SECRET_KEY = Buffer.from('vigil-test-signing-key-0123456789').toString('base64');
const SECRET = `whsec_${SECRET_KEY}`;

describe('check alerts over real SMTP and HTTP (manual clock)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;
  let smtp: SmtpSink;
  let channels: Record<string, string>;

  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startSmtpSink();
    server = await startTestServer({
      clock,
      env: {
        VIGIL_DAEMON: 'on',
        SMTP_URL: smtp.url,
        VIGIL_MAIL_FROM: 'Vigil <alerts@vigil.test>',
        VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true',
        VIGIL_PAGERDUTY_URL: `${receiver.url}/pagerduty`,
        VIGIL_OPSGENIE_EU_URL: `${receiver.url}/opsgenie`,
      },
    });
    account = await server.account();
    const create = async (body: object) => {
      const res = await server.http.post('/v1/alert-channels', body, { key: account.key });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    channels = {
      email: await create({ type: 'EMAIL', config: { address: 'oncall@example.com' } }),
      webhook: await create({ type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/hook`, webhookSecret: SECRET, headers: [{ key: 'X-Team', value: 'ops' }] } }),
      slack: await create({ type: 'SLACK', config: { url: `${receiver.url}/slack/T000/B000/XXXX`, channel: '#alerts' } }),
      pagerduty: await create({ type: 'PAGERDUTY', config: { serviceKey: 'pd-routing-key-0123456789abcdef', serviceName: 'ops' } }),
    };
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await smtp.close();
  });

  const at = (path: string) => receiver.requests.filter((r) => r.path.startsWith(path));
  const notifications = async (query = '') => (await server.http.get(`/v1/alert-notifications?limit=100${query}`, { key: account.key })).body.entries as any[];

  it('shows subscriptions from both sides and masks secrets', async () => {
    const check = (
      await server.http.post(
        '/v1/checks/heartbeat',
        { name: 'side check', heartbeat: { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' }, alertChannelSubscriptions: [{ alertChannelId: channels.webhook, activated: true }] },
        { key: account.key },
      )
    ).body;
    const webhook = (await server.http.get(`/v1/alert-channels/${channels.webhook}`, { key: account.key })).body;
    expect(webhook.subscriptions).toEqual([{ checkId: check.id, activated: true }]);
    expect(webhook.config.webhookSecret).not.toContain(SECRET_KEY.slice(0, 10));
    const slack = (await server.http.get(`/v1/alert-channels/${channels.slack}`, { key: account.key })).body;
    expect(slack.config.url).not.toContain('B000');

    // PUT sending the masked values back keeps the stored secret (signatures below still verify).
    const put = await server.http.put(`/v1/alert-channels/${channels.webhook}`, { type: 'WEBHOOK', config: webhook.config }, { key: account.key });
    expect(put.status).toBe(200);

    // The channel side: subscribe and unsubscribe, seen on the check.
    const sub = await server.http.put(`/v1/alert-channels/${channels.email}/subscriptions`, { checkId: check.id, activated: false }, { key: account.key });
    expect(sub.status).toBe(200);
    expect(sub.body.subscriptions).toEqual([{ checkId: check.id, activated: false }]);
    const seen = (await server.http.get(`/v1/checks/${check.id}`, { key: account.key })).body;
    expect(seen.alertChannelSubscriptions).toEqual(expect.arrayContaining([{ alertChannelId: channels.email, activated: false }, { alertChannelId: channels.webhook, activated: true }]));

    // Deleting a channel removes its subscriptions from the check.
    const doomed = (await server.http.post('/v1/alert-channels', { type: 'EMAIL', config: { address: 'x@example.com' } }, { key: account.key })).body.id;
    await server.http.put(`/v1/alert-channels/${doomed}/subscriptions`, { checkId: check.id, activated: true }, { key: account.key });
    expect((await server.http.delete(`/v1/alert-channels/${doomed}`, { key: account.key })).status).toBe(204);
    const after = (await server.http.get(`/v1/checks/${check.id}`, { key: account.key })).body;
    expect(after.alertChannelSubscriptions.map((s: any) => s.alertChannelId)).not.toContain(doomed);
    await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
  });

  it('sends one FAILURE to every channel, reminders at their interval, one RECOVERY with the downtime; a muted check sends nothing', async () => {
    const heartbeat = { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' };
    const subscriptions = Object.values(channels).map((alertChannelId) => ({ alertChannelId, activated: true }));
    const check = (
      await server.http.post(
        '/v1/checks/heartbeat',
        { name: 'nightly <backup>', tags: ['db'], heartbeat, alertChannelSubscriptions: subscriptions, alertSettings: { reminders: { amount: 2, interval: 5 } } },
        { key: account.key },
      )
    ).body;
    const muted = (await server.http.post('/v1/checks/heartbeat', { name: 'muted', muted: true, heartbeat, alertChannelSubscriptions: subscriptions }, { key: account.key })).body;
    await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    await server.http.get(`/ping/${muted.heartbeat.pingToken}`);
    const failedAt = clock.now().getTime() + 30_000;

    clock.advance(31_000);
    await eventually(() => receiver.requests.length + smtp.mails.length, (n) => n >= 4);
    await new Promise((r) => setTimeout(r, 500)); // nothing more may come
    expect(at('/hook')).toHaveLength(1);
    expect(at('/slack')).toHaveLength(1);
    expect(at('/pagerduty')).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);

    const hook = at('/hook')[0];
    const payload = new Webhook(SECRET).verify(hook.body, hook.headers as Record<string, string>) as any;
    expect(payload).toMatchObject({ alertType: 'ALERT_FAILURE', check: { id: check.id, name: 'nightly <backup>', tags: ['db'] } });
    expect(hook.headers['x-checkly-signature']).toBe(createHmac('sha256', Buffer.from(SECRET_KEY, 'base64')).update(hook.body).digest('hex'));
    expect(hook.headers['x-team']).toBe('ops');
    expect(JSON.parse(at('/slack')[0].body)).toMatchObject({ channel: '#alerts', text: expect.stringContaining('nightly &lt;backup&gt; missed its deadline') });
    const pd = JSON.parse(at('/pagerduty')[0].body);
    expect(at('/pagerduty')[0].path).toBe('/pagerduty/v2/enqueue');
    expect(pd).toMatchObject({ routing_key: 'pd-routing-key-0123456789abcdef', event_action: 'trigger', payload: { severity: 'critical' } });
    const mail = smtp.mails[0];
    expect(mail.to).toEqual(['oncall@example.com']);
    expect(mail.headers['message-id']).toContain(hook.headers['webhook-id'] === undefined ? '' : '@');
    expect(mail.raw).toContain('nightly &lt;backup&gt;'); // escaped in the HTML part
    expect(mail.raw).toMatch(/multipart\/alternative/);

    // The receivers have them a moment before the worker records them SENT.
    const log = await eventually(() => notifications(`&checkId=${check.id}`), (list) => list.filter((n) => n.alertType === 'ALERT_FAILURE' && n.status !== 'PENDING').length >= 4);
    const failures = log.filter((n) => n.alertType === 'ALERT_FAILURE');
    expect(failures).toHaveLength(4);
    expect(failures.every((n) => n.status === 'SENT' && n.attempts === 1)).toBe(true);
    // Reminders wait in the log as PENDING with their due time.
    expect(log.filter((n) => n.alertType === 'ALERT_REMINDER' && n.status === 'PENDING')).toHaveLength(8);
    expect(log.find((n) => n.alertChannelId === channels.email).recipient).toBe('o***@example.com');
    // The muted check's alerts are in the log, suppressed with the reason, and were never sent.
    const silenced = await notifications(`&checkId=${muted.id}`);
    expect(silenced.map((n) => [n.alertType, n.status, n.suppressedReason, n.attempts])).toEqual(Object.values(channels).map(() => ['ALERT_FAILURE', 'SUPPRESSED', 'the check is muted', 0]));

    // Reminders: the first after 5 minutes, once per channel.
    clock.advance(5 * 60_000);
    // Each channel's reminder is a delivery of its own: the webhook's arriving first says nothing of the email's.
    await eventually(() => [at('/hook').length, smtp.mails.length], ([hooks, mails]) => hooks >= 2 && mails >= 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(at('/hook')).toHaveLength(2);
    expect(JSON.parse(at('/hook')[1].body).alertType).toBe('ALERT_REMINDER');
    expect(smtp.mails).toHaveLength(2);

    // Recovery names the downtime: from the first FAILING to the ping.
    clock.advance(20_000);
    const recoveredAt = clock.now().getTime();
    await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    await eventually(() => at('/hook').length, (n) => n >= 3);
    const recovery = JSON.parse(at('/hook')[2].body);
    expect(recovery).toMatchObject({ alertType: 'ALERT_RECOVERY', downtimeSeconds: Math.round((recoveredAt - failedAt) / 1000) });
    await eventually(() => at('/pagerduty').length, (n) => n >= 3);
    expect(JSON.parse(at('/pagerduty')[2].body)).toMatchObject({ event_action: 'resolve', dedup_key: pd.dedup_key });
    // Every channel's recovery has arrived before counting what comes after.
    await eventually(() => at('/slack').length, (n) => n >= 3);
    await eventually(() => smtp.mails.length, (n) => n >= 3);
    await eventually(async () => (await notifications(`&checkId=${check.id}`)).filter((n) => n.alertType === 'ALERT_RECOVERY' && n.status === 'SENT').length, (n) => n >= 4);

    // The second reminder is not sent once the check recovered.
    const before = receiver.requests.length;
    for (let i = 0; i < 11; i++) {
      clock.advance(29_000); // kept healthy past the second reminder's due time
      await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    }
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.requests.length).toBe(before);
    const final = await notifications(`&checkId=${check.id}`);
    expect(final.filter((n) => n.alertType === 'ALERT_REMINDER')).toHaveLength(4); // the unsent second reminders are gone
    expect(final.every((n) => n.status === 'SENT')).toBe(true);
    expect((await notifications(`&checkId=${muted.id}`)).every((n) => n.status === 'SUPPRESSED')).toBe(true);
  });

  it('escalates RUN_BASED after N consecutive FAILINGs and TIME_BASED after N minutes; outages shorter than that alert no one', async () => {
    const heartbeat = { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' };
    const subscribe = [{ alertChannelId: channels.webhook, activated: true }];
    const make = async (name: string, alertSettings: object) => {
      const check = (await server.http.post('/v1/checks/heartbeat', { name, heartbeat, alertChannelSubscriptions: subscribe, alertSettings }, { key: account.key })).body;
      await server.http.get(`/ping/${check.heartbeat.pingToken}`);
      return check;
    };
    const hooksFor = (id: string) => at('/hook').map((r) => JSON.parse(r.body)).filter((b) => b.check?.id === id).map((b) => b.alertType);
    const runs3 = await make('runs3', { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 3 } });
    const runs5 = await make('runs5', { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 5 } });
    const time2 = await make('time2', { escalationType: 'TIME_BASED', timeBasedEscalation: { minutesFailingThreshold: 2 } });

    clock.advance(61_000); // two FAILINGs each
    await new Promise((r) => setTimeout(r, 700));
    expect(hooksFor(runs3.id)).toEqual([]);
    clock.advance(30_000); // the third
    await eventually(() => hooksFor(runs3.id), (l) => l.length >= 1);
    expect(hooksFor(runs3.id)).toEqual(['ALERT_FAILURE']);
    expect(hooksFor(time2.id)).toEqual([]);

    // runs5 recovers after 3 failed runs: it never alerted, so no recovery either.
    await server.http.get(`/ping/${runs5.heartbeat.pingToken}`);
    clock.advance(60_000); // time2: 2 min since its first FAILING (at +30 s)
    await eventually(() => hooksFor(time2.id), (l) => l.length >= 1);
    expect(hooksFor(time2.id)).toEqual(['ALERT_FAILURE']);
    await server.http.get(`/ping/${runs3.heartbeat.pingToken}`);
    await server.http.get(`/ping/${time2.heartbeat.pingToken}`);
    await eventually(() => hooksFor(runs3.id).length + hooksFor(time2.id).length, (n) => n >= 4);
    await new Promise((r) => setTimeout(r, 500));
    expect(hooksFor(runs3.id)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY']);
    expect(hooksFor(time2.id)).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY']);
    expect(hooksFor(runs5.id)).toEqual([]);
    for (const check of [runs3, runs5, time2]) await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
  });

  it('sends tests through Opsgenie, Teams, Telegram, Discord, ntfy and a custom template over real HTTP', async () => {
    const make = async (type: string, config: object) => (await server.http.post('/v1/alert-channels', { type, config }, { key: account.key })).body.id as string;
    const send = async (id: string, path: string) => {
      const before = at(path).length;
      expect((await server.http.post(`/v1/alert-channels/${id}/test`, undefined, { key: account.key })).status).toBe(202);
      await eventually(() => at(path).length, (n) => n > before);
      return at(path)[before];
    };
    const og = await send(await make('OPSGENIE', { apiKey: 'og-key', region: 'EU', priority: 'P2', name: 'ops' }), '/opsgenie');
    expect(og.path).toBe('/opsgenie/v2/alerts');
    expect(og.headers.authorization).toBe('GenieKey og-key');
    expect(JSON.parse(og.body)).toMatchObject({ priority: 'P2', message: 'Test notification from Vigil' });
    const teams = await send(await make('WEBHOOK', { name: 't', url: `${receiver.url}/teams`, webhookType: 'WEBHOOK_MSTEAMS' }), '/teams');
    expect(JSON.parse(teams.body).attachments[0].content.type).toBe('AdaptiveCard');
    const telegram = await send(await make('WEBHOOK', { name: 'tg', url: `${receiver.url}/telegram/bot123:abc/sendMessage`, webhookType: 'WEBHOOK_TELEGRAM', queryParameters: [{ key: 'chat_id', value: '42' }] }), '/telegram');
    expect(telegram.path).toBe('/telegram/bot123:abc/sendMessage?chat_id=42');
    expect(JSON.parse(telegram.body).text).toContain('Test notification');
    const discord = await send(await make('WEBHOOK', { name: 'd', url: `${receiver.url}/discord`, webhookType: 'WEBHOOK_DISCORD' }), '/discord');
    expect(JSON.parse(discord.body).embeds).toHaveLength(1);
    const ntfy = await send(await make('WEBHOOK', { name: 'n', url: `${receiver.url}/ntfy`, webhookType: 'WEBHOOK_NTFY' }), '/ntfy');
    expect(ntfy.headers).toMatchObject({ title: 'Test notification from Vigil', 'content-type': 'text/plain; charset=utf-8' });
    const custom = await send(
      await make('WEBHOOK', { name: 'c', url: `${receiver.url}/custom`, method: 'PUT', template: '{"title": "{{ALERT_TITLE}}", "type": "{{ALERT_TYPE}}", "down": "{{DOWNTIME_SECONDS}}"}' }),
      '/custom',
    );
    expect(custom.method).toBe('PUT');
    expect(JSON.parse(custom.body)).toEqual({ title: 'Test notification from Vigil', type: 'ALERT_TEST', down: '' });
  });
});

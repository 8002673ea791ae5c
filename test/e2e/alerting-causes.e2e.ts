import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { decodedMail, eventually, Receiver, SmtpSink, startReceiver, startSmtpSink } from './alerting-receivers';

/** Alerts say what happened (a reported failure with its output, a run that never finished, a missed deadline, a recovery) on every channel. */
describe('alerts name the real cause, over real SMTP and HTTP receivers', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;
  let smtp: SmtpSink;
  let subscriptions: { alertChannelId: string; activated: boolean }[];

  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startSmtpSink();
    server = await startTestServer({
      clock,
      env: { VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Vigil <alerts@vigil.test>', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_PUBLIC_URL: 'https://vigil.example.com' },
    });
    account = await server.account();
    const create = async (body: object) => (await server.http.post('/v1/alert-channels', body, { key: account.key })).body.id as string;
    subscriptions = [
      await create({ type: 'EMAIL', config: { address: 'oncall@example.com' } }),
      await create({ type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/hook` } }),
      await create({ type: 'SLACK', config: { url: `${receiver.url}/slack/T000/B000/XXXX` } }),
    ].map((alertChannelId) => ({ alertChannelId, activated: true }));
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
    await smtp.close();
  });

  const makeCheck = async (name: string, heartbeat: object) => {
    const res = await server.http.post('/v1/checks/heartbeat', { name, heartbeat, alertChannelSubscriptions: subscriptions }, { key: account.key });
    expect(res.status).toBe(201);
    return res.body as { id: string; heartbeat: { pingToken: string } };
  };
  const ping = (path: string, body?: string) => server.http.request(body === undefined ? 'GET' : 'POST', `/ping/${path}`, { rawBody: body });
  /** The next message of each channel about a check: the webhook's JSON, Slack's text, the email's decoded source. */
  async function nextAlerts(checkName: string, seen: { hooks: number; slack: number; mails: number }) {
    const hooks = () => receiver.requests.filter((r) => r.path === '/hook');
    const slack = () => receiver.requests.filter((r) => r.path.startsWith('/slack'));
    await eventually(() => [hooks().length, slack().length, smtp.mails.length], ([h, s, m]) => h > seen.hooks && s > seen.slack && m > seen.mails);
    const hook = JSON.parse(hooks()[seen.hooks].body);
    const slackText = JSON.parse(slack()[seen.slack].body).text as string;
    const mail = decodedMail(smtp.mails[seen.mails].raw);
    seen.hooks += 1;
    seen.slack += 1;
    seen.mails += 1;
    expect(hook.check.name).toBe(checkName);
    return { hook, slackText, mail };
  }
  const seen = { hooks: 0, slack: 0, mails: 0 };

  it('a failure the job reported: its exit code and the first lines of its output, escaped per channel; then the recovery with its downtime', async () => {
    const check = await makeCheck('db <backup>', { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' });
    expect((await ping(check.heartbeat.pingToken)).status).toBe(200);
    clock.advance(60_000);
    const lines = ['pg_dump: error: connection to server at "db" failed', 'FATAL: <b>password</b> authentication failed & gave up', ...Array.from({ length: 28 }, (_, i) => `detail line ${i + 3}`)];
    expect((await ping(`${check.heartbeat.pingToken}/1`, lines.join('\n'))).status).toBe(200);
    const { hook, slackText, mail } = await nextAlerts('db <backup>', seen);

    // Webhook JSON: plain text, JSON-escaped by JSON itself.
    expect(hook.alertType).toBe('ALERT_FAILURE');
    expect(hook.title).toBe('db <backup> reported a failure (exit code 1)');
    expect(hook.text).toContain('Heartbeat check "db <backup>" reported a failure (exit code 1) at 1 Jul 2026, 12:01:00 UTC.');
    expect(hook.text).toContain('FATAL: <b>password</b> authentication failed & gave up');
    expect(hook.text).toContain('detail line 10');
    expect(hook.text).not.toContain('detail line 11');
    expect(hook.text).not.toContain('missed its deadline');
    expect(hook.check.link).toBe(`https://vigil.example.com/console/checks/${check.id}`);

    // Slack mrkdwn: &, <, > escaped (no mention or link injection), the output in a code block.
    expect(slackText).toContain('*db &lt;backup&gt; reported a failure (exit code 1)*');
    expect(slackText).toContain('```\npg_dump: error');
    expect(slackText).toContain('FATAL: &lt;b&gt;password&lt;/b&gt; authentication failed &amp; gave up');
    expect(slackText).not.toContain('<b>');

    // Email: the HTML part escapes the output inside <pre>; the text part has it as it was.
    expect(mail).toMatch(/Subject: db <backup> reported a failure \(exit code 1\)/);
    expect(mail).toContain('<pre');
    expect(mail).toContain('FATAL: &lt;b&gt;password&lt;/b&gt; authentication failed &amp; gave up');
    expect(mail).toContain('FATAL: <b>password</b> authentication failed & gave up');
    expect(mail).not.toContain('detail line 11');
    expect(mail).toContain(`href="https://vigil.example.com/console/checks/${check.id}"`);
    expect(mail).not.toContain('/v1/checks/');

    clock.advance(90_000);
    expect((await ping(check.heartbeat.pingToken)).status).toBe(200);
    const recovery = await nextAlerts('db <backup>', seen);
    expect(recovery.hook.alertType).toBe('ALERT_RECOVERY');
    expect(recovery.hook.text).toBe('Heartbeat check "db <backup>" recovered at 1 Jul 2026, 12:02:30 UTC after 1 min 30 s of downtime (failing since 1 Jul 2026, 12:01:00 UTC).');
    expect(recovery.slackText).toContain('has recovered');
    expect(recovery.mail).toContain('after 1 min 30 s of downtime');
    expect(recovery.mail).not.toContain('Output (first lines)');
    await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
  });

  it('a run that started and never finished reads as such', async () => {
    const check = await makeCheck('report-export', { period: 1, periodUnit: 'hours', grace: 1, graceUnit: 'minutes' });
    await ping(check.heartbeat.pingToken);
    clock.advance(10_000);
    const startedAt = clock.now();
    expect((await ping(`${check.heartbeat.pingToken}/start`)).status).toBe(200);
    clock.advance(61_000);
    const { hook, slackText, mail } = await nextAlerts('report-export', seen);
    expect(hook.title).toBe('report-export started but did not finish');
    expect(hook.text).toBe(`Heartbeat check "report-export" started a run at 1 Jul 2026, 12:${startedAt.getUTCMinutes().toString().padStart(2, '0')}:${startedAt.getUTCSeconds().toString().padStart(2, '0')} UTC that did not finish by 1 Jul 2026, 12:03:40 UTC.`);
    expect(slackText).toContain('started but did not finish');
    expect(mail).toContain('did not finish');
    expect(mail).not.toContain('missed its deadline');
    await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
  });

  it('a missed deadline reads as a missed deadline, with no output', async () => {
    const check = await makeCheck('hourly-sync', { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' });
    await ping(check.heartbeat.pingToken);
    clock.advance(31_000);
    const { hook, slackText, mail } = await nextAlerts('hourly-sync', seen);
    expect(hook.title).toBe('hourly-sync missed its deadline');
    expect(hook.text).toMatch(/^Heartbeat check "hourly-sync" missed its deadline: no ping by 1 Jul 2026, \d\d:\d\d:\d\d UTC\.$/);
    expect(slackText).not.toContain('```');
    expect(mail).not.toContain('Output (first lines)');
    await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
  });
});

describe('alerts silenced by muting or maintenance are in the delivery log as suppressed (real HTTP receiver)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'on', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('records each silenced alert with its reason, sends it nowhere, and filters the log by SUPPRESSED', async () => {
    const hook = (await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/hook` } }, { key: account.key })).body.id;
    const make = async (name: string, extra: object) =>
      (
        await server.http.post(
          '/v1/checks/heartbeat',
          { name, heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' }, alertChannelSubscriptions: [{ alertChannelId: hook, activated: true }], ...extra },
          { key: account.key },
        )
      ).body as { id: string; heartbeat: { pingToken: string } };
    const muted = await make('muted job', { muted: true });
    const upgrading = await make('db job', { tags: ['db'] });
    const loud = await make('web job', { tags: ['web'] });
    const window = await server.http.post('/v1/maintenance-windows', { name: 'db upgrade', tags: ['db'], startsAt: '2026-07-01T11:00:00.000Z', endsAt: '2026-07-01T13:00:00.000Z' }, { key: account.key });
    expect(window.status).toBe(201);
    for (const check of [muted, upgrading, loud]) expect((await server.http.get(`/ping/${check.heartbeat.pingToken}/fail`)).status).toBe(200);

    const log = async (query: string) => (await server.http.get(`/v1/alert-notifications?limit=100${query}`, { key: account.key })).body.entries as any[];
    const suppressed = await eventually(() => log('&status=SUPPRESSED'), (list) => list.length >= 2);
    await eventually(() => receiver.requests.length, (n) => n >= 1);
    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.requests.map((r) => JSON.parse(r.body).check.id)).toEqual([loud.id]);
    const byCheck = Object.fromEntries(suppressed.map((n) => [n.checkId, n]));
    expect(Object.keys(byCheck).sort()).toEqual([muted.id, upgrading.id].sort());
    expect(byCheck[muted.id]).toMatchObject({ alertType: 'ALERT_FAILURE', status: 'SUPPRESSED', suppressedReason: 'the check is muted', attempts: 0, sentAt: null, nextAttemptAt: null });
    expect(byCheck[upgrading.id]).toMatchObject({ status: 'SUPPRESSED', suppressedReason: 'a maintenance window of its tags, until 2026-07-01T13:00:00.000Z' });
    // The receiver has it a moment before the worker records it SENT.
    const loudLog = await eventually(() => log(`&checkId=${loud.id}`), (list) => list.length > 0 && list.every((n) => n.status !== 'PENDING'));
    expect(loudLog.map((n) => [n.status, n.suppressedReason])).toEqual([['SENT', null]]);
    // A suppressed alert is not a failed one: retry leaves it as it is.
    const retried = await server.http.post(`/v1/alert-notifications/${byCheck[muted.id].id}/retry`, undefined, { key: account.key });
    expect(retried.body.status).toBe('SUPPRESSED');
    expect((await server.http.get('/v1/alert-notifications?status=MUTED', { key: account.key })).status).toBe(400);
  });
});

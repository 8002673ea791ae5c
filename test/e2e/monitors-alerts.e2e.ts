import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { AddressInfo } from 'node:net';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import selfsigned from 'selfsigned';
import { parseMonitorBody } from '../../libs/monitors/src/domain/monitor-body';
import { monitorIncidentId } from '../../libs/monitors/src/write/monitor-incidents';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { MonitorsQuery, RunMonitorCommand } from '../../libs/monitors/src/monitors.api';
import { FastClock } from '../../libs/testing/src/fast-clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { ReceivedRequest, Receiver, startReceiver } from './alerting-receivers';

const DAY = 86_400_000;
// Slow is twice the threshold and fast answers at once: on a loaded runner an instant answer was measured at up
// to about a second (20 monitors probing together), which a 300 ms threshold called degraded.
const DEGRADED_MS = 5000;
const SLOW_MS = 10_000;
jest.setTimeout(180_000);

interface Alert {
  alertType: string;
  title: string;
  text: string;
  check: { id: string; type: string };
  downtimeSeconds: number | null;
}

/** Monitor state changes alert through a real webhook receiver; one location of two failing alerts no one. */
describe('monitor alerts', () => {
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;
  let target: http.Server;
  let tls: https.Server;
  let mode: 'ok' | 'slow' | 'error' = 'ok';
  let flaky = false;
  let channel: string;
  const ports = { http: 0, tls: 0 };
  const latencies: Record<string, number> = {};
  // Time runs 20 times faster for the server: a 10 s round comes every ½ s of the test.
  const clock = new FastClock(20);

  beforeAll(async () => {
    receiver = await startReceiver();
    target = http.createServer((req, res) => {
      if (req.url === '/flaky') return flaky ? res.writeHead(503).end('busy') : res.end('ok');
      if (mode === 'slow') return setTimeout(() => res.end('slow'), SLOW_MS);
      if (mode === 'error') return res.writeHead(500).end('broken');
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    ports.http = (target.address() as AddressInfo).port;
    // 5½ days left: the probe counts 5 whole days.
    const cert = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { notBeforeDate: new Date(Date.now() - DAY), notAfterDate: new Date(Date.now() + 5.5 * DAY) });
    tls = https.createServer({ key: cert.private, cert: cert.cert }, (_q, s) => s.end());
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    ports.tls = (tls.address() as AddressInfo).port;
    // One location of two failing is not FAILING above one half.
    server = await startTestServer({ clock, env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_MONITORS_FAIL_THRESHOLD_PERCENT: '60' } });
    account = await server.account();
    const res = await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/hook` }, sendDegraded: true, sslExpiry: true, sslExpiryThreshold: 14 }, { key: account.key });
    expect(res.status).toBe(201);
    channel = res.body.id;
  });

  afterAll(async () => {
    // eslint-disable-next-line no-console
    console.log(`monitor alert latency (real ms from the target breaking to the webhook, server time at 20×): ${JSON.stringify(latencies)}`);
    await server?.close();
    await receiver?.close();
    target?.closeAllConnections();
    await new Promise((r) => target?.close(r));
    await new Promise((r) => tls?.close(r));
  });

  const every10s = { frequency: 0, frequencyOffset: 10, locations: ['local'] };
  const subscribed = () => ({ alertChannelSubscriptions: [{ alertChannelId: channel, activated: true }] });

  async function create(type: string, body: object): Promise<string> {
    const res = await server.http.post(`/v1/checks/${type}`, { ...every10s, ...subscribed(), ...body }, { key: account.key });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  const alertsOf = (id: string): Alert[] =>
    receiver.requests.filter((r: ReceivedRequest) => r.path === '/hook').map((r) => JSON.parse(r.body) as Alert).filter((a) => a.check.id === id);

  async function alertArrives(id: string, alertType: string, timeoutMs = 60_000): Promise<Alert> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const alert = alertsOf(id).find((a) => a.alertType === alertType);
      if (alert) return alert;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${alertType} for ${id}; got ${JSON.stringify(alertsOf(id).map((a) => a.alertType))}`);
  }

  async function state(type: string, id: string): Promise<{ state: string; since: string }> {
    return (await server.http.get(`/v1/checks/${type}/${id}`, { key: account.key })).body.status;
  }

  it('a URL monitor alerts its failure, its recovery with the downtime and its degradation, and opens and resolves its incident', async () => {
    const service = await server.http.post('/v1/status-pages/services', { name: 'Website' }, { key: account.key });
    const id = await create('url', {
      name: 'site',
      degradedResponseTime: DEGRADED_MS,
      maxResponseTime: 30_000,
      request: { url: `http://127.0.0.1:${ports.http}/` },
      triggerIncident: { serviceId: service.body.id, severity: 'MAJOR', name: 'Website down', notifySubscribers: false },
    });
    while ((await state('url', id))?.state !== 'PASSING') await new Promise((r) => setTimeout(r, 200));

    mode = 'error';
    let broke = Date.now();
    const failure = await alertArrives(id, 'ALERT_FAILURE');
    latencies.failure = Date.now() - broke;
    expect(failure).toMatchObject({ title: 'site is failing', check: { id, type: 'URL' } });
    expect(failure.text).toContain('STATUS_CODE');
    const since = (await state('url', id)).since;
    const incident = await server.http.get(`/v1/status-pages/incidents/${monitorIncidentId(id, since)}`, { key: account.key });
    expect(incident.status).toBe(200);
    expect(incident.body).toMatchObject({ name: 'Website down', severity: 'MAJOR', lastUpdateStatus: 'INVESTIGATING' });

    mode = 'ok';
    broke = Date.now();
    const recovery = await alertArrives(id, 'ALERT_RECOVERY');
    latencies.recovery = Date.now() - broke;
    expect(recovery.downtimeSeconds).toBeGreaterThanOrEqual(10);
    expect(recovery.text).toContain('recovered');
    const resolved = await server.http.get(`/v1/status-pages/incidents/${monitorIncidentId(id, since)}`, { key: account.key });
    expect(resolved.body.lastUpdateStatus).toBe('RESOLVED');

    mode = 'slow';
    broke = Date.now();
    const degraded = await alertArrives(id, 'ALERT_DEGRADED');
    latencies.degraded = Date.now() - broke;
    expect(degraded.title).toBe('site is degraded');
    mode = 'ok';
  });

  it('RUN_BASED escalation alerts at the second failing round, with its reminder waiting while the outage lasts', async () => {
    // The reminder is an hour of server time away (3 real minutes): still waiting when the log is read, however slow the machine.
    const alertSettings = { escalationType: 'RUN_BASED', runBasedEscalation: { failedRunThreshold: 2 }, reminders: { amount: 1, interval: 60 } };
    const id = await create('url', { name: 'escalating', alertSettings, request: { url: `http://127.0.0.1:${ports.http}/flaky` } });
    while ((await state('url', id))?.state !== 'PASSING') await new Promise((r) => setTimeout(r, 200));
    flaky = true;
    await alertArrives(id, 'ALERT_FAILURE');
    const failed = await server.http.get(`/v2/check-results/${id}?resultType=FINAL&hasFailures=true`, { key: account.key });
    expect(failed.body.entries.length).toBeGreaterThanOrEqual(2);
    // The receiver has it a moment before the worker records it SENT.
    let logged: string[] = [];
    while (!logged.includes('ALERT_FAILURE SENT')) {
      const log = await server.http.get(`/v1/alert-notifications?limit=100&checkId=${id}`, { key: account.key });
      logged = log.body.entries.map((e: { alertType: string; status: string }) => `${e.alertType} ${e.status}`).sort();
    }
    expect(logged).toEqual(['ALERT_FAILURE SENT', 'ALERT_REMINDER PENDING']);
    flaky = false;
    const recovery = await alertArrives(id, 'ALERT_RECOVERY');
    expect(recovery.downtimeSeconds).toBeGreaterThanOrEqual(10);
  });

  it('an SSL monitor whose certificate has 5 days left with alertDaysBeforeExpiry 14 alerts ALERT_SSL', async () => {
    const id = await create('ssl', { name: 'cert', request: { sslConfig: { hostname: '127.0.0.1', port: ports.tls, skipChainValidation: true, alertDaysBeforeExpiry: 14 } } });
    const started = Date.now();
    const alert = await alertArrives(id, 'ALERT_SSL');
    latencies.ssl = Date.now() - started;
    expect(alert.title).toBe('The certificate of cert expires in 5 days');
    expect(alertsOf(id).map((a) => a.alertType)).not.toContain('ALERT_FAILURE');
  });

  it('a maintenance window of its tags silences a failing monitor: recorded SUPPRESSED, nothing sent', async () => {
    const now = clock.now().getTime();
    const window = await server.http.post('/v1/maintenance-windows', { name: 'upgrade', tags: ['db'], startsAt: new Date(now - 60_000).toISOString(), endsAt: new Date(now + 3_600_000).toISOString() }, { key: account.key });
    expect(window.status).toBe(201);
    const id = await create('url', { name: 'db admin', tags: ['db'], request: { url: `http://127.0.0.1:${ports.http}/`, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '201' }] } });
    let suppressed: { status: string; suppressedReason: string } | undefined;
    while (!suppressed) {
      const log = await server.http.get(`/v1/alert-notifications?limit=100&checkId=${id}`, { key: account.key });
      suppressed = (log.body.entries as { checkId: string; status: string; suppressedReason: string }[]).find((e) => e.checkId === id);
      if (!suppressed) await new Promise((r) => setTimeout(r, 250));
    }
    expect(suppressed).toMatchObject({ status: 'SUPPRESSED', suppressedReason: expect.stringContaining('maintenance window') });
    expect(alertsOf(id)).toEqual([]);
  });

  it('on two locations, one whose target path is broken does not make the monitor fail or alert', async () => {
    const id = randomUUID();
    const config = parseMonitorBody('URL', { name: 'two places', ...every10s, locations: ['local', 'far'], ...subscribed(), request: { url: `http://127.0.0.1:${ports.http}/` } });
    const commands = server.app.get(CommandBus);
    const actor = { accountId: account.id, keyName: 'test' };
    await commands.execute(new RunMonitorCommand({ type: 'CreateMonitor', id, accountId: account.id, config }, actor));
    // The far location answers each round the local one runs, and its path to the target is broken.
    const answered = new Set<number>();
    while (answered.size < 3) {
      const results = await server.http.get(`/v2/check-results/${id}?resultType=FINAL`, { key: account.key });
      for (const r of results.body.entries as { checkRunId: number; runLocation: string }[]) {
        if (r.runLocation !== 'local' || answered.has(r.checkRunId)) continue;
        answered.add(r.checkRunId);
        const roundAt = new Date(r.checkRunId).toISOString();
        const run = { location: 'far', roundAt, startedAt: roundAt, outcome: 'FAIL' as const, timings: { total: 5 }, error: 'connect ECONNREFUSED', networkError: true, attempt: 1, final: true };
        await commands.execute(new RunMonitorCommand({ type: 'RecordMonitorRun', id, run, failThreshold: server.config.monitorsFailThreshold }, actor));
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await state('url', id)).state).toBe('PASSING');
    const failedFar = await server.http.get(`/v2/check-results/${id}?hasFailures=true`, { key: account.key });
    expect(failedFar.body.entries.length).toBeGreaterThanOrEqual(3);
    expect(alertsOf(id)).toEqual([]);
  });

  it('events written before they carried the outage: a FAILING alerts as before, a recovery without its outage alerts no one', async () => {
    // Hourly: after its first round nothing but the events appended here moves the monitor.
    const id = await create('url', { name: 'old events', frequency: 60, request: { url: `http://127.0.0.1:${ports.http}/` } });
    while ((await state('url', id))?.state !== 'PASSING') await new Promise((r) => setTimeout(r, 200));
    const store = server.app.get<EventStore>(EVENT_STORE);
    const ongoing = () => server.app.get(QueryBus).execute(new MonitorsQuery({ type: 'OngoingOutage', accountId: account.id, id }));
    const append = (type: string, data: object) => store.appendToStream(`monitor-${id}`, [{ type, data: { id, ...data }, metadata: { accountId: null, occurredAt: clock.now().toISOString() } }]);
    const at = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000).toISOString();
    const startedAt = at(-3);

    await append('MonitorStateChanged', { from: 'PASSING', to: 'FAILING', roundAt: startedAt, failedLocations: ['local'], downtimeMs: null });
    const failure = await alertArrives(id, 'ALERT_FAILURE');
    expect(failure.title).toBe('old events is failing');
    while ((await state('url', id)).state !== 'FAILING') await new Promise((r) => setTimeout(r, 100));
    expect(await ongoing()).toBe(startedAt);
    expect(await server.app.get(QueryBus).execute(new MonitorsQuery({ type: 'OngoingOutage', accountId: 'another-account', id }))).toBeNull();

    await append('MonitorStillFailing', { roundAt: at(-2), failingRounds: 2, failedLocations: ['local'] });
    await append('MonitorStateChanged', { from: 'FAILING', to: 'DEGRADED', roundAt: at(-1), failedLocations: [], downtimeMs: 120_000 });
    // The notifier handles a monitor's events in order: once the degradation is in the log, the recovery was handled.
    let logged: string[] = [];
    while (!logged.includes('ALERT_DEGRADED')) {
      const log = await server.http.get(`/v1/alert-notifications?limit=100&checkId=${id}`, { key: account.key });
      logged = log.body.entries.map((e: { alertType: string }) => e.alertType);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(logged.sort()).toEqual(['ALERT_DEGRADED', 'ALERT_FAILURE']);
    while ((await state('url', id)).state !== 'DEGRADED') await new Promise((r) => setTimeout(r, 100));
    expect(await ongoing()).toBeNull();
  });
});

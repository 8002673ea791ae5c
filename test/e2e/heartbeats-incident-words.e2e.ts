import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, SmtpSink, startSmtpSink } from './alerting-receivers';

const settle = () => new Promise((r) => setTimeout(r, 600));

/** Incidents a check opens read as customers want them, and a flapping check reopens its incident instead of opening and emailing anew. */
describe('incidents opened by a check: customer words and flapping (manual clock, real SMTP)', () => {
  const clock = new ManualClock('2026-07-01T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Status <status@vigil.test>' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  type Incident = { id: string; name: string; lastUpdateStatus: string; incidentUpdates: { status: string; description: string }[] };
  const incidentsOf = async (serviceId: string) => (await server.http.get(`/v1/status-pages/incidents?serviceId=${serviceId}`, { key: account.key })).body.entries as Incident[];

  it('names the service and a human time; a failure within 30 minutes of the resolution reopens the same incident without emailing again', async () => {
    const service = (await server.http.post('/v1/status-pages/services', { name: 'Billing API' }, { key: account.key })).body;
    const page = (await server.http.post('/v1/status-pages', { name: 'Acme Status', url: 'acme-words', cards: [{ name: 'Core', services: [{ id: service.id }] }] }, { key: account.key })).body;
    const bulk = await server.http.post(`/v1/status-pages/${page.id}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'customer@example.com' }], autoVerify: true }, { key: account.key });
    expect(bulk.status).toBe(201);
    const check = (
      await server.http.post(
        '/v1/checks/heartbeat',
        { name: 'billing-sync', heartbeat: { period: 30, periodUnit: 'seconds', grace: 0, graceUnit: 'seconds' }, triggerIncident: { serviceId: service.id, severity: 'MAJOR', name: 'Billing is delayed', notifySubscribers: true } },
        { key: account.key },
      )
    ).body;
    const mails = () => smtp.mails.filter((m) => m.to.includes('customer@example.com'));
    const ping = () => server.http.get(`/ping/${check.heartbeat.pingToken}`);

    await ping();
    clock.advance(31_000);
    const [opened] = await eventually(() => incidentsOf(service.id), (list) => list.length > 0);
    const first = opened.incidentUpdates[0].description;
    expect(first).toBe('We are investigating a problem with Billing API that started at 1 Jul 2026, 12:00 UTC.');
    expect(first).not.toMatch(/heartbeat|check|deadline|\d{4}-\d{2}-\d{2}T/i);

    await ping();
    const resolved = await eventually(() => incidentsOf(service.id), (list) => list[0]?.lastUpdateStatus === 'RESOLVED');
    expect(resolved[0].incidentUpdates[1].description).toBe('Billing API has been working normally again since 1 Jul 2026, 12:00 UTC.');
    await eventually(() => mails().length, (n) => n >= 2);

    // It fails again 30 s later: the same incident is reopened, and subscribers are not emailed again.
    clock.advance(31_000);
    const reopened = await eventually(() => incidentsOf(service.id), (list) => list[0]?.lastUpdateStatus === 'INVESTIGATING');
    expect(reopened).toHaveLength(1);
    expect(reopened[0].id).toBe(opened.id);
    expect(reopened[0].incidentUpdates[2].description).toBe('The problem with Billing API came back at 1 Jul 2026, 12:01 UTC. We are investigating.');
    await ping();
    await eventually(() => incidentsOf(service.id), (list) => list[0]?.lastUpdateStatus === 'RESOLVED');
    await settle();
    expect(mails()).toHaveLength(2);

    // Quiet for more than 30 minutes, then a failure: a new incident, emailed.
    for (let i = 0; i < 64; i++) {
      clock.advance(29_000);
      await ping();
    }
    clock.advance(31_000);
    const later = await eventually(() => incidentsOf(service.id), (list) => list.length >= 2);
    expect(later).toHaveLength(2);
    expect(later.map((i) => i.id)).toContain(opened.id);
    await eventually(() => mails().length, (n) => n >= 3);
    await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
  });
});

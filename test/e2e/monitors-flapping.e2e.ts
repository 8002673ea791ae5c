import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { parseMonitorBody } from '../../libs/monitors/src/domain/monitor-body';
import { MonitorRun } from '../../libs/monitors/src/domain/round';
import { RunMonitorCommand } from '../../libs/monitors/src/monitors.api';
import { monitorIncidentId } from '../../libs/monitors/src/write/monitor-incidents';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { Receiver, startReceiver } from './alerting-receivers';

jest.setTimeout(120_000);

/**
 * A flapping monitor (FAILING, PASSING, FAILING again within minutes) alerts its second failure too and opens a
 * second incident on its service, each resolved by its own recovery. Its rounds come as a runner would report
 * them, on a location with no runner, so only these runs move it.
 */
describe('a flapping monitor', () => {
  let server: TestServer;
  let account: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('alerts and opens an incident on each failure, and resolves each on its recovery', async () => {
    const channel = await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'hook', url: `${receiver.url}/flap` } }, { key: account.key });
    expect(channel.status).toBe(201);
    const service = await server.http.post('/v1/status-pages/services', { name: 'Shop' }, { key: account.key });
    expect(service.status).toBe(201);
    const id = randomUUID();
    const config = parseMonitorBody('URL', {
      name: 'shop',
      frequency: 1,
      locations: ['far'],
      request: { url: 'https://shop.example.com/' },
      alertChannelSubscriptions: [{ alertChannelId: channel.body.id, activated: true }],
      triggerIncident: { serviceId: service.body.id, severity: 'MAJOR', name: 'Shop down', notifySubscribers: false },
    });
    const commands = server.app.get(CommandBus);
    await commands.execute(new RunMonitorCommand({ type: 'CreateMonitor', id, accountId: account.id, config }, { accountId: account.id, keyName: 'test' }));
    const start = Date.now() - 10 * 60_000;
    const round = async (minute: number, outcome: MonitorRun['outcome']) => {
      const roundAt = new Date(start + minute * 60_000).toISOString();
      const run: MonitorRun = { location: 'far', roundAt, startedAt: roundAt, outcome, timings: { total: 20 }, error: outcome === 'FAIL' ? 'HTTP 503' : null, networkError: false, attempt: 1, final: true };
      await commands.execute(new RunMonitorCommand({ type: 'RecordMonitorRun', id, run, failThreshold: server.config.monitorsFailThreshold }, { accountId: null }));
      return roundAt;
    };
    const alerts = () => receiver.requests.filter((r) => r.path === '/flap').map((r) => (JSON.parse(r.body) as { alertType: string }).alertType);
    const incident = async (at: string) => (await server.http.get(`/v1/status-pages/incidents/${monitorIncidentId(id, at)}`, { key: account.key })).body as { lastUpdateStatus?: string };

    await round(0, 'PASS');
    const first = await round(1, 'FAIL');
    await until('the first failure alerted and its incident open', async () => alerts().includes('ALERT_FAILURE') && (await incident(first)).lastUpdateStatus === 'INVESTIGATING');
    await round(2, 'PASS');
    await until('the first recovery alerted and its incident resolved', async () => alerts().includes('ALERT_RECOVERY') && (await incident(first)).lastUpdateStatus === 'RESOLVED');
    const second = await round(3, 'FAIL');
    await until('the second failure alerted and a second incident open', async () => alerts().filter((a) => a === 'ALERT_FAILURE').length === 2 && (await incident(second)).lastUpdateStatus === 'INVESTIGATING');
    expect((await incident(first)).lastUpdateStatus).toBe('RESOLVED');
    await round(4, 'PASS');
    await until('the second incident resolved', async () => (await incident(second)).lastUpdateStatus === 'RESOLVED');
    await until('the second recovery alerted', async () => alerts().filter((a) => a === 'ALERT_RECOVERY').length === 2);
    expect(alerts()).toEqual(['ALERT_FAILURE', 'ALERT_RECOVERY', 'ALERT_FAILURE', 'ALERT_RECOVERY']);
  });
});

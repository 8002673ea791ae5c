import http from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { FastClock } from '../../libs/testing/src/fast-clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

jest.setTimeout(180_000);
const SERVICES = 20;
// Slow is twice the threshold and fast answers at once: on a loaded runner an instant answer was measured at up
// to about a second (20 monitors probing together), which a 300 ms threshold called degraded.
const DEGRADED_MS = 5000;
const SLOW_MS = 10_000;

/** Services linked to monitors (their `triggerIncident`) take their status from them, with a response-time chart. */
describe('monitors on public pages', () => {
  let server: TestServer;
  let account: TestAccount;
  let target: http.Server;
  let slow = false;
  const monitors: string[] = [];
  const services: { id: string }[] = [];
  let pageUrl = '';

  beforeAll(async () => {
    target = http.createServer((req, res) => (req.url === '/slow' && slow ? setTimeout(() => res.end('late'), SLOW_MS) : res.end('ok')));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const port = (target.address() as AddressInfo).port;
    // Time runs 10 times faster for the server: each monitor's 10 s round comes every second.
    server = await startTestServer({ clock: new FastClock(10), env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account();
    for (let i = 0; i < SERVICES; i++) {
      const service = await server.http.post('/v1/status-pages/services', { name: `Service ${i + 1}` }, { key: account.key });
      services.push({ id: service.body.id });
      const monitor = await server.http.post(
        '/v1/checks/url',
        {
          name: `Monitor ${i + 1}`,
          frequency: 0,
          frequencyOffset: 10,
          degradedResponseTime: DEGRADED_MS,
          maxResponseTime: 30_000,
          request: { url: `http://127.0.0.1:${port}/${i === 0 ? 'slow' : ''}` },
          triggerIncident: { serviceId: service.body.id, severity: 'MAJOR', name: `Service ${i + 1} is down` },
        },
        { key: account.key },
      );
      expect(monitor.status).toBe(201);
      monitors.push(monitor.body.id);
    }
    pageUrl = `monitored-${Date.now()}`;
    const page = await server.http.post(
      '/v1/status-pages',
      { name: 'Monitored', url: pageUrl, cards: [{ name: 'Core', services: services.slice(0, 10) }, { name: 'Edge', services: services.slice(10) }] },
      { key: account.key },
    );
    expect(page.status).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
    target?.closeAllConnections();
    await new Promise((r) => target?.close(r));
  });

  async function page(): Promise<string> {
    const res = await fetch(`${server.url}/status/${pageUrl}`);
    expect(res.status).toBe(200);
    return res.text();
  }

  async function until(test: (html: string) => boolean): Promise<string> {
    for (;;) {
      const html = await page();
      if (test(html)) return html;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('shows a response-time chart beside each monitored service, within the page budget', async () => {
    const html = await until((h) => (h.match(/<svg class="rt"/g) ?? []).length === SERVICES);
    expect(html).toMatch(/<svg class="rt" viewBox="0 0 96 20" width="96" height="20" role="img" aria-label="Response time, last 24 hours: \d+ ms on average, \d+–\d+ ms"><path d="M[\d. LMh]+" fill="none"/);
    expect(html).not.toMatch(/style=/);
    const bytes = Buffer.byteLength(html);
    const gzipped = gzipSync(html).length;
    // eslint-disable-next-line no-console
    console.log(`public page with ${SERVICES} monitored services: ${bytes} bytes, ${gzipped} gzipped`);
    expect(bytes).toBeLessThanOrEqual(60 * 1024);
    expect(gzipped).toBeLessThanOrEqual(12 * 1024);
  });

  it('a service lists the monitors linked to it', async () => {
    const service = await server.http.get(`/v1/status-pages/services/${services[3].id}`, { key: account.key });
    expect(service.body.checks).toEqual([{ id: monitors[3], name: 'Monitor 4' }]);
  });

  it('a service whose monitor turns slow shows degraded performance, and operational once it is fast again', async () => {
    slow = true;
    await until((h) => /Service 1<\/span>.*?Degraded performance/.test(h));
    slow = false;
    const html = await until((h) => /Service 1<\/span>.*?Operational/.test(h));
    expect(html).not.toContain('Degraded performance');
  });
});

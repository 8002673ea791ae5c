import http from 'node:http';
import https from 'node:https';
import net, { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import selfsigned from 'selfsigned';
import { FastClock } from '../../libs/testing/src/fast-clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const DAY = 86_400_000;
jest.setTimeout(120_000);

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

const certificate = (daysLeft: number) =>
  selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { notBeforeDate: new Date(Date.now() - DAY), notAfterDate: new Date(Date.now() + daysLeft * DAY) });

/** Every monitor type against real local peers that the test breaks and mends; the embedded scheduler runs them every 10 s (of a 20× clock). */
describe('monitor states against real peers', () => {
  let server: TestServer;
  let account: TestAccount;
  let web: { mode: 'ok' | 'slow' | 'error'; api: boolean };
  let httpServer: http.Server;
  let tlsServer: https.Server;
  let tcpServer: net.Server | null;
  let dnsServer: ReturnType<typeof dns2.createServer>;
  let address = '10.0.0.1';
  const ports = { http: 0, tls: 0, tcp: 0, dns: 0 };

  beforeAll(async () => {
    web = { mode: 'ok', api: true };
    httpServer = http.createServer((req, res) => {
      if (req.url === '/api') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: web.api }));
      if (web.mode === 'slow') return setTimeout(() => res.end('slow'), 600);
      if (web.mode === 'error') return res.writeHead(500).end('broken');
      res.end('ok');
    });
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    ports.http = (httpServer.address() as AddressInfo).port;
    const fresh = await certificate(60);
    tlsServer = https.createServer({ key: fresh.private, cert: fresh.cert }, (_q, s) => s.end());
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    ports.tls = (tlsServer.address() as AddressInfo).port;
    ports.tcp = await freePort();
    tcpServer = await openTcp();
    ports.dns = await freePort();
    dnsServer = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const response = dns2.Packet.createResponseFromRequest(request);
        response.answers.push({ name: request.questions[0].name, type: dns2.Packet.TYPE.A, class: dns2.Packet.CLASS.IN, ttl: 60, address } as never);
        send(response);
      },
    });
    await dnsServer.listen({ udp: { port: ports.dns, address: '127.0.0.1' } });
    server = await startTestServer({ clock: new FastClock(20), env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });

  afterAll(async () => {
    await server?.close();
    httpServer.closeAllConnections();
    await new Promise((r) => httpServer.close(r));
    await new Promise((r) => tlsServer.close(r));
    if (tcpServer) await new Promise((r) => tcpServer!.close(r));
    await dnsServer.close();
  });

  async function openTcp(): Promise<net.Server> {
    const s = net.createServer((socket) => socket.end());
    await new Promise<void>((r) => s.listen(ports.tcp, '127.0.0.1', r));
    return s;
  }

  const every10s = { frequency: 0, frequencyOffset: 10, locations: ['local'] };

  async function create(type: string, body: object): Promise<string> {
    const res = await server.http.post(`/v1/checks/${type}`, { ...every10s, ...body }, { key: account.key });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function reaches(type: string, id: string, state: string): Promise<void> {
    const until = Date.now() + 30_000;
    let last: unknown = null;
    while (Date.now() < until) {
      const res = await server.http.get(`/v1/checks/${type}/${id}`, { key: account.key });
      last = res.body.status;
      if (res.body.status?.state === state) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${type} monitor never reached ${state}; last status ${JSON.stringify(last)}`);
  }

  it('URL goes PASSING → DEGRADED → FAILING → PASSING; its rollups count the runs', async () => {
    const id = await create('url', { name: 'site', degradedResponseTime: 300, maxResponseTime: 3000, request: { url: `http://127.0.0.1:${ports.http}/` } });
    await reaches('url', id, 'PASSING');
    web.mode = 'slow';
    await reaches('url', id, 'DEGRADED');
    web.mode = 'error';
    await reaches('url', id, 'FAILING');
    const failing = await server.http.get(`/v1/checks/url/${id}`, { key: account.key });
    expect(failing.body.status.lastRun).toMatchObject({ location: 'local', outcome: 'FAIL', error: expect.stringContaining('STATUS_CODE'), final: true });
    web.mode = 'ok';
    await reaches('url', id, 'PASSING');
    const rollups = await server.http.get(`/v1/checks/url/${id}/rollups`, { key: account.key });
    expect(rollups.body.entries[0]).toMatchObject({ runs: expect.any(Number), failed: expect.any(Number), degraded: expect.any(Number) });
    expect(rollups.body.entries.reduce((n: number, e: { runs: number }) => n + e.runs, 0)).toBeGreaterThanOrEqual(4);
  });

  it('API, TCP, DNS and SSL each go PASSING → FAILING → PASSING', async () => {
    const api = await create('api', { name: 'api', request: { url: `http://127.0.0.1:${ports.http}/api`, assertions: [{ source: 'JSON_BODY', property: '$.ok', comparison: 'EQUALS', target: 'true' }] } });
    const tcp = await create('tcp', { name: 'port', request: { hostname: '127.0.0.1', port: ports.tcp } });
    const dns = await create('dns', {
      name: 'record',
      request: { recordType: 'A', query: 'www.example.test', nameServer: '127.0.0.1', port: ports.dns, assertions: [{ source: 'TEXT_ANSWER', comparison: 'CONTAINS', target: '10.0.0.1' }] },
    });
    const ssl = await create('ssl', { name: 'cert', request: { sslConfig: { hostname: 'localhost', port: ports.tls, skipChainValidation: true, alertDaysBeforeExpiry: 14 } } });
    await Promise.all([reaches('api', api, 'PASSING'), reaches('tcp', tcp, 'PASSING'), reaches('dns', dns, 'PASSING'), reaches('ssl', ssl, 'PASSING')]);

    web.api = false;
    await new Promise((r) => tcpServer!.close(r));
    tcpServer = null;
    address = '10.0.0.2';
    const expiring = await certificate(5);
    tlsServer.setSecureContext({ key: expiring.private, cert: expiring.cert });
    await Promise.all([reaches('api', api, 'FAILING'), reaches('tcp', tcp, 'FAILING'), reaches('dns', dns, 'FAILING'), reaches('ssl', ssl, 'FAILING')]);
    const sslStatus = await server.http.get(`/v1/checks/ssl/${ssl}`, { key: account.key });
    expect(sslStatus.body.status.lastRun.error).toMatch(/expires in [45] days/);

    web.api = true;
    tcpServer = await openTcp();
    address = '10.0.0.1';
    const renewed = await certificate(60);
    tlsServer.setSecureContext({ key: renewed.private, cert: renewed.cert });
    await Promise.all([reaches('api', api, 'PASSING'), reaches('tcp', tcp, 'PASSING'), reaches('dns', dns, 'PASSING'), reaches('ssl', ssl, 'PASSING')]);
  });
});

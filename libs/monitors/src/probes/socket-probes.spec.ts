import https from 'node:https';
import net, { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import selfsigned from 'selfsigned';
import { parseMonitorBody } from '../domain/monitor-body';
import { runProbe } from './run-probe';

const DAY = 86_400_000;
const now = () => new Date();

describe('TCP probe against a real listener', () => {
  let server: net.Server;
  let port = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => socket.on('data', (d) => socket.end(`echo:${d.toString()}`)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  const tcp = (request: Record<string, unknown> = {}) => parseMonitorBody('TCP', { name: 't', request: { hostname: '127.0.0.1', port, ...request } });

  it('connects, sends data and asserts on the answer; fails when the answer differs or the port is closed', async () => {
    expect(await runProbe(tcp(), true, now())).toMatchObject({ outcome: 'PASS' });
    expect(await runProbe(tcp({ data: 'ping', assertions: [{ source: 'RESPONSE_DATA', comparison: 'EQUALS', target: 'echo:ping' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
    expect(await runProbe(tcp({ data: 'ping', assertions: [{ source: 'RESPONSE_DATA', comparison: 'CONTAINS', target: 'pong' }] }), true, now())).toMatchObject({ outcome: 'FAIL' });
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await runProbe(tcp({ port: closedPort }), true, now())).toMatchObject({ outcome: 'FAIL', networkError: true, error: 'connection failed: ECONNREFUSED' });
  });

  it('refuses a private target unless allowed', async () => {
    expect(await runProbe(tcp(), false, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('private') });
  });
});

describe('DNS probe against a real DNS server whose records change', () => {
  let address = '10.0.0.1';
  let server: ReturnType<typeof dns2.createServer>;
  let port = 0;
  beforeAll(async () => {
    server = dns2.createServer({
      udp: true,
      tcp: true,
      handle: (request, send) => {
        const response = dns2.Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        if (question.name === 'missing.test') response.header.rcode = 3;
        else if (question.type === dns2.Packet.TYPE.TXT) response.answers.push({ name: question.name, type: dns2.Packet.TYPE.TXT, class: dns2.Packet.CLASS.IN, ttl: 60, data: 'v=spf1 -all' } as never);
        else response.answers.push({ name: question.name, type: dns2.Packet.TYPE.A, class: dns2.Packet.CLASS.IN, ttl: 60, address } as never);
        send(response);
      },
    });
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    port = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    await server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } });
  });
  afterAll(() => server.close());
  const dns = (request: Record<string, unknown>) =>
    parseMonitorBody('DNS', { name: 'd', maxResponseTime: 2000, degradedResponseTime: 2000, request: { recordType: 'A', query: 'www.example.test', nameServer: '127.0.0.1', port, ...request } });
  const expectsAddress = [{ source: 'TEXT_ANSWER', comparison: 'CONTAINS', target: '10.0.0.1' }];

  it.each(['UDP', 'TCP'])('over %s: passes while the record holds, fails when it changes, passes when it is back', async (protocol) => {
    address = '10.0.0.1';
    expect(await runProbe(dns({ protocol, assertions: expectsAddress }), true, now())).toMatchObject({ outcome: 'PASS' });
    address = '10.0.0.2';
    expect(await runProbe(dns({ protocol, assertions: expectsAddress }), true, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('TEXT_ANSWER') });
    address = '10.0.0.1';
    expect(await runProbe(dns({ protocol, assertions: [{ source: 'JSON_ANSWER', property: '$[0].data', comparison: 'EQUALS', target: '10.0.0.1' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
  });

  it('a name that does not exist fails by default (NXDOMAIN), or passes when that is asserted; TXT records are read', async () => {
    expect(await runProbe(dns({ query: 'missing.test' }), true, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('NXDOMAIN') });
    expect(await runProbe(dns({ query: 'missing.test', assertions: [{ source: 'RESPONSE_CODE', comparison: 'EQUALS', target: 'NXDOMAIN' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
    expect(await runProbe(dns({ recordType: 'TXT', assertions: [{ source: 'TEXT_ANSWER', comparison: 'CONTAINS', target: 'spf1' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
  });

  it('refuses a private name server unless allowed', async () => {
    expect(await runProbe(dns({}), false, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('private') });
  });
});

describe('SSL probe against a real TLS server with a chosen expiry', () => {
  const servers: https.Server[] = [];
  async function serve(daysLeft: number): Promise<number> {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { notBeforeDate: new Date(Date.now() - 2 * DAY), notAfterDate: new Date(Date.now() + daysLeft * DAY) });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (_q, s) => s.end());
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }
  afterAll(async () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));
  const ssl = (port: number, over: Record<string, unknown> = {}) =>
    parseMonitorBody('SSL', { name: 's', request: { sslConfig: { hostname: 'localhost', port, alertDaysBeforeExpiry: 14, ...over } } });

  it('a self-signed chain fails unless chain validation is skipped; days remaining are asserted', async () => {
    const port = await serve(60);
    expect(await runProbe(ssl(port), true, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('chain invalid') });
    expect(await runProbe(ssl(port, { skipChainValidation: true }), true, now())).toMatchObject({ outcome: 'PASS' });
    const config = parseMonitorBody('SSL', {
      name: 's',
      request: { sslConfig: { hostname: 'localhost', port, skipChainValidation: true }, assertions: [{ source: 'CERTIFICATE', property: 'daysRemaining', comparison: 'GREATER_THAN', target: '58' }] },
    });
    expect(await runProbe(config, true, now())).toMatchObject({ outcome: 'PASS' });
  });

  it('a certificate 5 days from expiry fails with alertDaysBeforeExpiry 14; an expired one fails', async () => {
    const soon = await serve(5);
    expect(await runProbe(ssl(soon, { skipChainValidation: true }), true, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringMatching(/expires in [45] days/) });
    expect(await runProbe(ssl(soon, { skipChainValidation: true }), true, new Date(Date.now() + 6 * DAY))).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('expired') });
  });
});

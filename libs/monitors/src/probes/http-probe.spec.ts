import http from 'node:http';
import https from 'node:https';
import { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import { parseMonitorBody } from '../domain/monitor-body';
import { runProbe } from './run-probe';

/** A real local HTTP server whose behaviour each test sets. */
let mode: 'ok' | 'slow' | 'error' | 'reset' | 'hang' | 'redirect' | 'redirect-private' | 'json' | 'big' = 'ok';
let connectionHeader: string | undefined;
const server = http.createServer((req, res) => {
  connectionHeader = req.headers.connection;
  if (req.url?.startsWith('/target')) return res.end('arrived');
  if (mode === 'ok') return res.end('hello');
  if (mode === 'slow') return setTimeout(() => res.end('late'), 300);
  if (mode === 'error') return res.writeHead(500).end('broken');
  if (mode === 'reset') return req.socket.destroy();
  if (mode === 'hang') return;
  if (mode === 'redirect') return res.writeHead(302, { location: '/target' }).end();
  if (mode === 'redirect-private') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
  if (mode === 'big') return res.end('x'.repeat(1024 * 1024));
  res.writeHead(200, { 'content-type': 'application/json', 'x-version': '42' }).end(JSON.stringify({ status: 'up', items: [{ id: 7 }], query: req.url, method: req.method }));
});
let base = '';
let tlsServer: https.Server;
let tlsBase = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { notAfterDate: new Date(Date.now() + 30 * 86_400_000) });
  tlsServer = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('secure'));
  await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
  tlsBase = `https://localhost:${(tlsServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => tlsServer.close(r));
});

const url = (over: Record<string, unknown> = {}, request: Record<string, unknown> = {}) =>
  parseMonitorBody('URL', { name: 'site', degradedResponseTime: 200, maxResponseTime: 1000, ...over, request: { url: base, ...request } });
const api = (request: Record<string, unknown>) => parseMonitorBody('API', { name: 'api', maxResponseTime: 2000, degradedResponseTime: 2000, request: { url: `${base}/api`, ...request } });
const now = () => new Date();

describe('URL and API probes against a real server', () => {
  it('passes, degrades when slow, fails on 500, on a reset and on a hang (at the deadline)', async () => {
    mode = 'ok';
    const pass = await runProbe(url(), true, now());
    expect(pass).toMatchObject({ outcome: 'PASS', error: null });
    expect(pass.timings.connect).toBeDefined();
    mode = 'slow';
    expect(await runProbe(url(), true, now())).toMatchObject({ outcome: 'DEGRADED' });
    mode = 'error';
    expect(await runProbe(url(), true, now())).toMatchObject({ outcome: 'FAIL', networkError: false, error: expect.stringContaining('STATUS_CODE') });
    mode = 'reset';
    expect(await runProbe(url(), true, now())).toMatchObject({ outcome: 'FAIL', networkError: true });
    mode = 'hang';
    expect(await runProbe(url({ maxResponseTime: 300, degradedResponseTime: 100 }), true, now())).toMatchObject({ outcome: 'FAIL', networkError: true, error: 'timed out after 300 ms' });
  });

  it('asserts on the status code as asked', async () => {
    mode = 'error';
    const expects500 = url({}, { assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '500' }] });
    expect(await runProbe(expects500, true, now())).toMatchObject({ outcome: 'PASS' });
  });

  it('follows redirects only when asked, and re-checks each hop', async () => {
    mode = 'redirect';
    expect(await runProbe(url({}, { assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
    expect(await runProbe(url({}, { followRedirects: false, assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '302' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
    mode = 'redirect-private';
    // Each hop is checked like the first: a redirect to another scheme is refused before it is followed.
    expect(await runProbe(url(), true, now())).toMatchObject({ outcome: 'FAIL', error: 'only http and https URLs' });
  });

  it('refuses private targets unless allowed', async () => {
    mode = 'ok';
    expect(await runProbe(url(), false, now())).toMatchObject({ outcome: 'FAIL', networkError: false, error: expect.stringContaining('private') });
    expect(await runProbe(url({}, { url: `http://localhost:${new URL(base).port}` }), false, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('private') });
  });

  it('reads a large body only up to its cap', async () => {
    mode = 'big';
    expect(await runProbe(api({ assertions: [{ source: 'TEXT_BODY', comparison: 'CONTAINS', target: 'xxxx' }] }), true, now())).toMatchObject({ outcome: 'PASS' });
  });

  it('API: method, headers, query, body; assertions on headers, JSON path, text and response time', async () => {
    mode = 'json';
    const config = api({
      method: 'POST',
      body: '{"a":1}',
      bodyType: 'JSON',
      headers: [{ key: 'X-Test', value: '1' }],
      queryParameters: [{ key: 'q', value: 'v w' }],
      assertions: [
        { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' },
        { source: 'HEADERS', property: 'X-Version', comparison: 'EQUALS', target: '42' },
        { source: 'JSON_BODY', property: '$.items[0].id', comparison: 'EQUALS', target: '7' },
        { source: 'JSON_BODY', property: '$.method', comparison: 'EQUALS', target: 'POST' },
        { source: 'JSON_BODY', property: '$.query', comparison: 'CONTAINS', target: 'q=v+w' },
        { source: 'TEXT_BODY', comparison: 'CONTAINS', target: '"up"' },
        { source: 'TEXT_BODY', comparison: 'EQUALS', regex: '"status":"(\\w+)"', target: 'up' },
        { source: 'RESPONSE_TIME', comparison: 'LESS_THAN', target: '2000' },
      ],
    });
    expect(await runProbe(config, true, now())).toMatchObject({ outcome: 'PASS', error: null });
    const wrong = api({ assertions: [{ source: 'JSON_BODY', property: '$.status', comparison: 'EQUALS', target: 'down' }] });
    expect(await runProbe(wrong, true, now())).toMatchObject({ outcome: 'FAIL', error: expect.stringContaining('$.status EQUALS down (got up)') });
  });

  it('opens a connection of its own for each run and closes it; looks up names, not addresses; sends the name as SNI', async () => {
    mode = 'ok';
    let connections = 0;
    const count = () => connections++;
    server.on('connection', count);
    try {
      const first = await runProbe(url(), true, now());
      const second = await runProbe(url({}, { url: `http://localhost:${new URL(base).port}` }), true, now());
      expect(connections).toBe(2);
      expect(connectionHeader).toBe('close');
      expect(first.timings.dns).toBeUndefined();
      expect(second.timings).toMatchObject({ dns: expect.any(Number), connect: expect.any(Number), firstByte: expect.any(Number) });
    } finally {
      server.off('connection', count);
    }
    const names: (string | false)[] = [];
    const sni = (socket: import('node:tls').TLSSocket) => names.push((socket as unknown as { servername: string | false }).servername);
    tlsServer.on('secureConnection', sni);
    try {
      const port = new URL(tlsBase).port;
      expect(await runProbe(url({}, { url: tlsBase, skipSSL: true }), true, now())).toMatchObject({ outcome: 'PASS', timings: { tls: expect.any(Number) } });
      await runProbe(api({ url: tlsBase, skipSSL: true, headers: [{ key: 'Host', value: 'status.example.test:8443' }] }), true, now());
      await runProbe(url({}, { url: `https://127.0.0.1:${port}`, skipSSL: true }), true, now());
      expect(names).toEqual(['localhost', 'status.example.test', false]);
    } finally {
      tlsServer.off('secureConnection', sni);
    }
  });

  it('HTTPS: a self-signed certificate fails unless skipSSL', async () => {
    expect(await runProbe(url({}, { url: tlsBase }), true, now())).toMatchObject({ outcome: 'FAIL', networkError: false, error: expect.stringContaining('TLS') });
    expect(await runProbe(url({}, { url: tlsBase, skipSSL: true }), true, now())).toMatchObject({ outcome: 'PASS' });
  });
});

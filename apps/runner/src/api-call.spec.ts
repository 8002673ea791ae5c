import http from 'node:http';
import { AddressInfo } from 'node:net';
import { callApi, CallRefused, MAX_ANSWER_BYTES, RunnerRefused } from './api-call';

/**
 * The runner's call against a real local HTTP server: every way an answer can fail is said as what happened,
 * never as the status it began with.
 */
describe('a runner call to the API', () => {
  let server: http.Server;
  let apiUrl: string;
  const sockets = new Set<import('node:net').Socket>();
  /** What the server does for a path. */
  const routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
    '/ok': (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => res.setHeader('content-type', 'application/json').end(JSON.stringify({ echoed: JSON.parse(body) })));
    },
    // Headers and half the body, then nothing more (a stalled proxy).
    '/stalls': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
      res.write('{"monitors":{' + ' '.repeat(987));
    },
    // Headers and part of the body, then the connection closes.
    '/breaks': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
      res.write('{"monitors":{', () => res.socket?.destroy());
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    },
    '/html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy</html>'),
    '/unavailable': (_req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 503, message: 'Store unavailable' })),
    '/refused': (_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 401, message: 'Unknown or revoked runner key' })),
    '/malformed': (_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 400, message: 'Invalid', details: [{ path: 'results[0].outcome', message: 'must be PASS' }] })),
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => routes[req.url ?? '']?.(req, res));
    server.on('connection', (s) => (sockets.add(s), s.once('close', () => sockets.delete(s))));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  const target = () => ({ apiUrl, runnerKey: 'vgr_test' });

  it('answers the JSON the API sent', async () => {
    await expect(callApi(target(), '/ok', { runner: 'r1' })).resolves.toEqual({ echoed: { runner: 'r1' } });
  });

  it('says a 200 whose body stalled was cut off at the deadline, with how much came', async () => {
    const error = await callApi(target(), '/stalls', {}, 2000).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('/stalls answered 200, but its body was cut off after 1000 of 2000 bytes (the 2 s deadline passed): nothing of it was used');
    expect((error as Error).message).not.toMatch(/answered 200:/);
  });

  it('says a 200 whose connection closed mid-body was cut off, with the cause', async () => {
    const error = await callApi(target(), '/breaks', {}, 10_000).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^\/breaks answered 200, but its body was cut off after 13 of 2000 bytes \(.+\): nothing of it was used$/);
    expect((error as Error).message).not.toContain('deadline');
  });

  it('stops reading an answer larger than any the API sends, and says so', async () => {
    await expect(callApi(target(), '/huge', {})).rejects.toThrow(`/huge answered 200 with a body over ${MAX_ANSWER_BYTES} bytes: not read`);
  });

  it('says when no answer came at all', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const error = await callApi({ apiUrl: `http://127.0.0.1:${port}`, runnerKey: 'k' }, '/v1/runners/lease', {}).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^\/v1\/runners\/lease: no answer \(fetch failed: .*ECONNREFUSED.*\)$/);
  });

  it('says a 200 that is not JSON is not, and an error status with the API’s message', async () => {
    await expect(callApi(target(), '/html', {})).rejects.toThrow('/html answered 200 with a body that is not a JSON object (18 characters)');
    await expect(callApi(target(), '/unavailable', {})).rejects.toThrow('/unavailable answered 503: Store unavailable');
  });

  it('refuses the runner on 401 and the call on 400, with the details', async () => {
    await expect(callApi(target(), '/refused', {})).rejects.toThrow(new RunnerRefused('the API refused this runner: Unknown or revoked runner key'));
    const refused = await callApi(target(), '/malformed', {}).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(CallRefused);
    expect((refused as Error).message).toBe('/malformed refused: [{"path":"results[0].outcome","message":"must be PASS"}]');
  });
});

import { connect, Socket } from 'node:net';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Issue 32 items 3 and 4: budgets that cannot be dodged, and deadlines on every connection. */
let proxied: TestServer;
let direct: TestServer;
let account: TestAccount;

beforeAll(async () => {
  const limits = { VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5', VIGIL_RATE_LIMIT_PUBLIC_PER_MINUTE: '8', VIGIL_RATE_LIMIT_PER_MINUTE: '50' };
  proxied = await startTestServer({ env: { ...limits, VIGIL_TRUSTED_PROXY: '127.0.0.1' } });
  direct = await startTestServer({
    env: { ...limits, VIGIL_CONNECTIONS_PER_ADDRESS: '20', VIGIL_HEADERS_TIMEOUT_MS: '2000', VIGIL_REQUEST_TIMEOUT_MS: '3000', VIGIL_KEEP_ALIVE_TIMEOUT_MS: '300' },
  });
  account = await proxied.account();
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});

const from = (address: string, extra: Record<string, string> = {}) => ({ headers: { 'x-forwarded-for': address, ...extra } });
const junk = (i: number) => `vgl_junk${i}${'x'.repeat(40)}`;

describe('rate limits that cannot be dodged', () => {
  it('counts random bearer tokens per client address: a new token buys no new budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await proxied.http.get('/v1/checks', { ...from('203.0.113.1'), key: junk(i) })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const limited = await proxied.http.get('/v1/checks', from('203.0.113.1'));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/rate limit of 5 requests per minute/i) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address (as the trusted proxy says) has its own budget; a real key is counted on its own.
    expect((await proxied.http.get('/v1/checks', { ...from('203.0.113.2'), key: junk(99) })).status).toBe(401);
    const real = await proxied.http.get('/v1/checks', { ...from('203.0.113.2'), key: account.key });
    expect(real.status).toBe(200);
    expect(real.headers.get('ratelimit-limit')).toBe('50');
    expect((await proxied.http.get('/v1/checks', { ...from('203.0.113.1'), key: account.key })).status).toBe(200);
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await direct.http.get('/v1/checks', { ...from(`198.51.100.${i}`), key: junk(i) })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('limits public pages, feeds, badges and subscriber links per client address, never health', async () => {
    const paths = ['/status/none', '/status/none/history.rss', '/status/none/badge.svg', '/subscriptions/confirm/abc', '/status/none/api/v2/status.json', '/status/none/history', '/status/none', '/badge.json'];
    for (const path of paths) expect([path, (await proxied.http.get(path, from('203.0.113.3'))).status]).not.toEqual([path, 429]);
    expect((await proxied.http.get('/status/none', from('203.0.113.3'))).status).toBe(429);
    expect((await proxied.http.post('/status/none/subscribe', { email: 'a@example.com' }, from('203.0.113.3'))).status).toBe(429);
    expect((await proxied.http.get('/status/none', from('203.0.113.4'))).status).toBe(404);
    for (let i = 0; i < 20; i++) expect((await proxied.http.get('/healthz', from('203.0.113.3'))).status).toBe(200);
  });
});

/** A connection from a loopback address of its own (Linux answers all of 127/8), optionally left half-sent. */
function open(localAddress: string, port: number, send: string): Promise<{ socket: Socket; data: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write(send);
      resolve({ socket, data: () => data, closed });
    });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (chunk) => (data += String(chunk)));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

describe('deadlines on every connection', () => {
  const port = () => Number(new URL(direct.url).port);

  it('answers 408 and closes a request whose headers trickle in, or whose body never completes', async () => {
    const headers = await open('127.0.0.5', port(), 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1');
    await headers.closed;
    expect(headers.data()).toMatch(/^HTTP\/1\.1 408 /);
    expect(headers.data()).toContain('"statusCode":408');
    const body = await open('127.0.0.6', port(), `POST /v1/status-pages/services HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`);
    await body.closed;
    expect(body.data()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a byte', async () => {
    const silent = await open('127.0.0.8', port(), '');
    await silent.closed;
    expect(silent.data()).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes an idle keep-alive connection', async () => {
    const idle = await open('127.0.0.7', port(), 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await idle.closed;
    expect(idle.data()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('caps connections per client address, and serves everyone else while hundreds of slow clients hang on', async () => {
    const slow = await Promise.all(Array.from({ length: 300 }, () => open('127.0.0.2', port(), 'GET /healthz HTTP/1.1\r\nHost: x\r\n').catch(() => null)));
    // Everyone else is served while they hang on.
    const others = await Promise.all(Array.from({ length: 20 }, (_, i) => open(`127.0.1.${i + 1}`, port(), 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')));
    await Promise.all(others.map((o) => o.closed));
    expect(others.map((o) => o.data().slice(0, 12))).toEqual(Array(20).fill('HTTP/1.1 200'));
    expect(slow.filter((c) => c && !c.socket.destroyed).length).toBeGreaterThan(0);
    // Those over the cap were closed unanswered; the 20 admitted are answered 408 at their deadline.
    await Promise.all(slow.map((c) => c?.closed));
    const timedOut = slow.filter((c) => c && /^HTTP\/1\.1 408 /.test(c.data())).length;
    expect(timedOut).toBeGreaterThan(0);
    expect(timedOut).toBeLessThanOrEqual(20);
    expect(slow.filter((c) => !c || c.data() === '').length).toBe(300 - timedOut);
  });
});

import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Contract §1: per-key rate limit with headers, on a server configured with a small limit. */
const LIMIT = 5;
let server: TestServer;
let acct: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  acct = await server.account();
});

afterAll(() => server.close());

const SERVICES = '/v1/status-pages/services';

it('counts down in RateLimit-* headers, then answers 429 with Retry-After and the error shape', async () => {
  const key = (await acct.newKey('READ_WRITE')).apiKey;
  for (let i = 1; i <= LIMIT; i++) {
    const response = await server.http.get(SERVICES, { key });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - i));
    const reset = Number(response.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
  }

  const limited = await server.http.get(SERVICES, { key, headers: { 'x-request-id': 'limited-1' } });
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/rate limit/i) });
  expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(limited.headers.get('ratelimit-limit')).toBe(String(LIMIT));
  expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
  expect(limited.headers.get('x-request-id')).toBe('limited-1');

  // Writes are limited too, and a limited write writes nothing.
  const write = await server.http.post(SERVICES, { name: 'not now' }, { key });
  expect(write.status).toBe(429);
  expect((await server.http.get(SERVICES, { key: acct.key })).body.entries.map((s: { name: string }) => s.name)).not.toContain('not now');
});

it('limits each key on its own: another key of the same account still gets through', async () => {
  const first = (await acct.newKey('READ_ONLY')).apiKey;
  const second = (await acct.newKey('READ_ONLY')).apiKey;
  for (let i = 0; i < LIMIT; i++) expect((await server.http.get(SERVICES, { key: first })).status).toBe(200);
  expect((await server.http.get(SERVICES, { key: first })).status).toBe(429);
  const other = await server.http.get(SERVICES, { key: second });
  expect(other.status).toBe(200);
  expect(other.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
});

it('never limits the health endpoints', async () => {
  for (let i = 0; i < LIMIT * 2; i++) {
    expect((await server.http.get('/healthz')).status).toBe(200);
    expect((await server.http.get('/readyz')).status).toBe(200);
  }
});

it('counts a key once however its header is spelled: the scheme case and blanks do not buy a new budget', async () => {
  const key = (await acct.newKey('READ_ONLY')).apiKey;
  const spellings = ['Bearer', 'bearer', 'BEARER', 'BeArEr', 'Bearer  '];
  const statuses: number[] = [];
  for (const scheme of [...spellings, ...spellings]) {
    statuses.push((await server.http.get(SERVICES, { headers: { authorization: `${scheme} ${key}` } })).status);
  }
  expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(10 - LIMIT).fill(429)]);
});

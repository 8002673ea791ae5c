import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { createPage } from './public-pages-fixtures';

let server: TestServer;

beforeAll(async () => {
  // A tiny API budget: public pages must not spend it, nor be refused by it.
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '8' } });
});
afterAll(() => server.close());

describe('public pages and the API rate limit', () => {
  it('serves public routes however many requests an address sends, while the API limit still applies to /v1', async () => {
    const account = await server.account();
    await createPage(server, account, 'limits-page', { services: 1 });
    for (let i = 0; i < 30; i++) {
      for (const path of ['/status/limits-page', '/status/limits-page/api/v2/status.json', '/status/no-such-page', '/']) {
        const response = await server.http.get(path);
        expect([path, response.status === 429]).toEqual([path, false]);
      }
    }
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await server.http.get('/v1/status-pages', { key: account.key })).status);
    expect(statuses).toContain(429);
  });

  it('answers HEAD like GET without a body, and ignores a trailing slash', async () => {
    const head = await server.http.request('HEAD', '/status/limits-page');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe((await server.http.get('/status/limits-page')).headers.get('etag'));
    expect((await server.http.get('/status/limits-page/')).status).toBe(200);
  });

  it('answers a method a public route does not take with 405', async () => {
    const response = await server.http.request('DELETE', '/status/limits-page');
    expect(response.status).toBe(405);
  });
});

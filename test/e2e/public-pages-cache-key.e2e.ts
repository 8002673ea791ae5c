import { PublicPages } from '../../libs/public-web/src/read/public-pages.query';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createIncident, createPage } from './public-pages-fixtures';

/**
 * Issue 32, item 5: a public answer is kept under its route and the parameters the route reads, never the
 * raw URL, so a query string of the client's own choosing cannot make every request build the page again.
 */
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account('Cache key');
});
afterAll(() => server?.close());

const get = (path: string) => server.http.get(path, { headers: {} });

describe('the public answer cache key', () => {
  it('ignores query parameters the route does not read, and still shows a write at once', async () => {
    const page = await createPage(server, account, 'cache-key');
    const model = jest.spyOn(server.app.get(PublicPages), 'model');
    try {
      for (const path of ['', '/api/v2/summary.json', '/history.rss', '/badge.svg']) {
        const first = await get(`/status/${page.url}${path}`);
        expect(first.status).toBe(200);
        model.mockClear();
        for (let i = 0; i < 20; i++) {
          const busted = await get(`/status/${page.url}${path}?bust=${i}&utm_source=${'x'.repeat(i)}`);
          expect(busted.status).toBe(200);
          expect(busted.text).toBe(first.text);
        }
        expect([path, model.mock.calls.length]).toEqual([path, 0]);
      }
      // A parameter the route reads is part of the key: a history page of its own, a badge of one service.
      model.mockClear();
      expect((await get(`/status/${page.url}/history?page=2`)).status).toBe(200);
      expect((await get(`/status/${page.url}/history?page=2&bust=1`)).status).toBe(200);
      expect(model.mock.calls.length).toBe(1);
      const badge = await get(`/status/${page.url}/badge.svg?service=${page.serviceIds[0]}`);
      expect(badge.text).toContain('Service 1');
      expect((await get(`/status/${page.url}/badge.svg?service=${page.serviceIds[0]}&bust=2`)).text).toBe(badge.text);
    } finally {
      model.mockRestore();
    }
    // Freshness is unchanged: a write shows on the next request, whatever its query string.
    await createIncident(server, account, [page.serviceIds[0]], { name: 'Queue stalled' });
    expect((await get(`/status/${page.url}?bust=after`)).text).toContain('Queue stalled');
  });
});

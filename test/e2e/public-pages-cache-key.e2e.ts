import { ManualClock } from '../../libs/core/src/clock';
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
  // The change token holds the minute: a clock standing still keeps a slow run from crossing into the next one.
  server = await startTestServer({ clock: new ManualClock(new Date()), env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account('Cache key');
});
afterAll(() => server?.close());

const get = (path: string) => server.http.get(path, { headers: {} });

describe('the public answer cache key', () => {
  it('ignores query parameters the route does not read, and still shows a write at once', async () => {
    const page = await createPage(server, account, 'cache-key');
    const pages = server.app.get(PublicPages);
    const model = jest.spyOn(pages, 'model');
    // Builds counted in a round during which the change token held: background work may move it on its own (a
    // daemon's first pass making its collection changes every token), and then a build is owed.
    const buildsWhileTokenHolds = async (round: () => Promise<void>): Promise<number> => {
      for (let attempt = 1; attempt <= 5; attempt++) {
        const token = pages.changeToken();
        model.mockClear();
        await round();
        if (pages.changeToken() === token) return model.mock.calls.length;
      }
      throw new Error('the change token moved during each of 5 rounds');
    };
    try {
      for (const path of ['', '/api/v2/summary.json', '/history.rss', '/badge.svg']) {
        const builds = await buildsWhileTokenHolds(async () => {
          const first = await get(`/status/${page.url}${path}`);
          expect(first.status).toBe(200);
          model.mockClear();
          for (let i = 0; i < 20; i++) {
            const busted = await get(`/status/${page.url}${path}?bust=${i}&utm_source=${'x'.repeat(i)}`);
            expect(busted.status).toBe(200);
            expect(busted.text).toBe(first.text);
          }
        });
        expect([path, builds]).toEqual([path, 0]);
      }
      // A parameter the route reads is part of the key: a history page of its own, a badge of one service.
      const historyBuilds = await buildsWhileTokenHolds(async () => {
        expect((await get(`/status/${page.url}/history?page=2`)).status).toBe(200);
        expect((await get(`/status/${page.url}/history?page=2&bust=1`)).status).toBe(200);
      });
      expect(historyBuilds).toBe(1);
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

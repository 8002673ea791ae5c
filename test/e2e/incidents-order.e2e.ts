import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { INCIDENTS, TEST_ENV } from './incidents-fixtures';
import { createIncident, createPage } from './public-pages-fixtures';

// Incidents sit where they happened (their first update's public date), not where they were typed in.
const NOW = '2026-03-20T10:00:00.000Z';
const clock = new ManualClock(NOW);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock, env: TEST_ENV });
});
afterAll(() => server.close());

const at = (iso: string) => ({ description: 'What happened.', publicIncidentUpdateDate: iso });

describe('incidents are ordered by their dates', () => {
  it('a backfilled incident sits where it happened: in the list, its pages, a status page, its history and its feeds', async () => {
    const account = await server.account('Order');
    const page = await createPage(server, account, 'order-page', { services: 1 });
    clock.set(NOW);
    const today = await createIncident(server, account, page.serviceIds, { name: 'Today', updates: [at('2026-03-20T09:00:00.000Z')] });
    clock.advance(60_000);
    // Typed in last, it happened first: ten days ago, resolved the same day.
    const backfilled = await createIncident(server, account, page.serviceIds, {
      name: 'Backfilled',
      updates: [at('2026-03-10T08:00:00.000Z'), { ...at('2026-03-10T09:00:00.000Z'), status: 'RESOLVED' }],
    });
    clock.advance(60_000);
    const lastWeek = await createIncident(server, account, page.serviceIds, { name: 'Last week', updates: [at('2026-03-14T12:00:00.000Z')] });
    const expected = [today, lastWeek, backfilled];

    const list = await server.http.get(INCIDENTS, { key: account.key });
    expect(list.status).toBe(200);
    expect(list.body.entries.map((i: { id: string }) => i.id)).toEqual(expected);

    // Page by page, the cursor follows the same order.
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const response: { status: number; body: { entries: { id: string }[]; nextId: string | null } } = await server.http.get(`${INCIDENTS}?limit=1${next ? `&nextId=${encodeURIComponent(next)}` : ''}`, { key: account.key });
      expect(response.status).toBe(200);
      seen.push(...response.body.entries.map((i) => i.id));
      next = response.body.nextId;
    } while (next);
    expect(seen).toEqual(expected);

    const byPage = await server.http.get(`${INCIDENTS}?statusPageId=${page.pageId}`, { key: account.key });
    expect(byPage.body.entries.map((i: { id: string }) => i.id)).toEqual(expected);

    const json = await server.http.get(`/status/${page.url}/api/v2/incidents.json`);
    expect(json.status).toBe(200);
    expect(json.body.incidents.map((i: { id: string }) => i.id)).toEqual(expected);

    const rss = await server.http.get(`/status/${page.url}/history.rss`);
    expect(rss.status).toBe(200);
    const titles = [...rss.text.matchAll(/<item>\s*<title><!\[CDATA\[(.*?)\]\]><\/title>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Today', 'Last week', 'Backfilled']);

    const history = await server.http.get(`/status/${page.url}/history`);
    expect(history.status).toBe(200);
    const positions = ['Today', 'Last week', 'Backfilled'].map((name) => history.text.indexOf(`>${name}<`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});

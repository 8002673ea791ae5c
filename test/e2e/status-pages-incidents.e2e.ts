import { ManualClock } from '../../libs/core/src/clock';
import { PageIncidents, ServiceDirectory } from '../../libs/status-pages/src/status-pages.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const INCIDENTS = '/v1/status-pages/incidents';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const clock = new ManualClock('2026-05-01T08:00:00.000Z');
let server: TestServer;
let count = 0;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(() => server.close());

interface Api {
  account: TestAccount;
  service(name: string): Promise<string>;
  page(cards: string[][]): Promise<{ id: string }>;
  incident(serviceIds: string[], status?: string): Promise<{ id: string }>;
  update(incidentId: string, status: string): Promise<void>;
  pageIncidents(pageId: string): Promise<string[]>;
}

async function api(): Promise<Api> {
  const account = await server.account();
  const key = { key: account.key };
  return {
    account,
    async service(name) {
      const response = await server.http.post('/v1/status-pages/services', { name }, key);
      expect(response.status).toBe(201);
      return response.body.id;
    },
    async page(cards) {
      const body = { name: `Page ${++count}`, url: `incident-page-${count}`, cards: cards.map((ids, i) => ({ name: `Card ${i}`, services: ids.map((id) => ({ id })) })) };
      const response = await server.http.post('/v1/status-pages', body, key);
      expect(response.status).toBe(201);
      return response.body;
    },
    async incident(serviceIds, status = 'INVESTIGATING') {
      const body = { name: 'Outage', severity: 'MAJOR', services: serviceIds.map((id) => ({ id })), incidentUpdates: [{ description: 'Looking into it.', status }] };
      const response = await server.http.post(INCIDENTS, body, key);
      expect(response.status).toBe(201);
      return response.body;
    },
    async update(incidentId, status) {
      const response = await server.http.post(`${INCIDENTS}/${incidentId}/incident-updates`, { description: `Now ${status}.`, status }, key);
      expect(response.status).toBeLessThan(300);
    },
    /** The incident ids endpoint 8 shows on one page, checked against GET of the single page. */
    async pageIncidents(pageId) {
      const list = await server.http.get('/v1/status-pages?limit=100', key);
      expect(list.status).toBe(200);
      const entry = list.body.entries.find((e: { id: string }) => e.id === pageId);
      const single = await server.http.get(`/v1/status-pages/${pageId}`, key);
      expect(single.body.incidents).toEqual(entry.incidents);
      return entry.incidents.map((i: { id: string }) => i.id);
    },
  };
}

describe('a status page’s incidents (endpoint 8)', () => {
  it('shows incidents touching any service on its cards, newest first, in the full Incident shape', async () => {
    const a = await api();
    const [s1, s2, s3] = [await a.service('API'), await a.service('Web'), await a.service('Elsewhere')];
    const page = await a.page([[s1], [s2]]);
    expect(await a.pageIncidents(page.id)).toEqual([]);

    const onS1 = await a.incident([s1]);
    clock.advance(MINUTE);
    await a.incident([s3]);
    clock.advance(MINUTE);
    const onS3andS2 = await a.incident([s3, s2]);
    expect(await a.pageIncidents(page.id)).toEqual([onS3andS2.id, onS1.id]);

    const list = await server.http.get('/v1/status-pages', { key: a.account.key });
    const shown = list.body.entries[0].incidents;
    for (const incident of shown) {
      expect(incident).toEqual((await server.http.get(`${INCIDENTS}/${incident.id}`, { key: a.account.key })).body);
    }
    expect(Object.keys(shown[0]).sort()).toEqual(['created_at', 'id', 'incidentUpdates', 'lastUpdateStatus', 'name', 'services', 'severity', 'updated_at']);
  });

  it('a resolved incident stays for 7 days after it was resolved, then goes; re-opened it comes back', async () => {
    clock.set('2026-05-10T12:00:00.000Z');
    const a = await api();
    const s1 = await a.service('API');
    const page = await a.page([[s1]]);
    const incident = await a.incident([s1]);
    clock.advance(2 * DAY);
    const resolvedAt = clock.now().getTime();
    await a.update(incident.id, 'RESOLVED');
    expect(await a.pageIncidents(page.id)).toEqual([incident.id]);

    clock.set(new Date(resolvedAt + 7 * DAY - MINUTE));
    expect(await a.pageIncidents(page.id)).toEqual([incident.id]);
    clock.set(new Date(resolvedAt + 7 * DAY));
    expect(await a.pageIncidents(page.id)).toEqual([incident.id]);
    clock.set(new Date(resolvedAt + 7 * DAY + MINUTE));
    expect(await a.pageIncidents(page.id)).toEqual([]);

    // A later update re-opens it: open incidents show whatever their age.
    clock.advance(30 * DAY);
    await a.update(incident.id, 'INVESTIGATING');
    expect(await a.pageIncidents(page.id)).toEqual([incident.id]);
  });

  it('an incident created already resolved shows for the 7 days after its resolution', async () => {
    clock.set('2026-06-01T00:00:00.000Z');
    const a = await api();
    const s1 = await a.service('API');
    const page = await a.page([[s1]]);
    const open = await a.incident([s1]);
    clock.advance(MINUTE);
    const blip = await a.incident([s1], 'RESOLVED');
    expect(await a.pageIncidents(page.id)).toEqual([blip.id, open.id]);
    clock.advance(8 * DAY);
    expect(await a.pageIncidents(page.id)).toEqual([open.id]);
  });

  it('follows the cards: adding a service to a card brings its incidents, removing it takes them away', async () => {
    clock.set('2026-06-15T00:00:00.000Z');
    const a = await api();
    const [s1, s2] = [await a.service('API'), await a.service('Web')];
    const page = await a.page([[s1]]);
    const onS2 = await a.incident([s2]);
    expect(await a.pageIncidents(page.id)).toEqual([]);
    const put = (cards: string[][]) =>
      server.http.put(`/v1/status-pages/${page.id}`, { name: 'P', url: `incident-follow-${page.id.slice(-6)}`, cards: cards.map((ids) => ({ name: 'C', services: ids.map((id) => ({ id })) })) }, { key: a.account.key });
    expect((await put([[s1], [s2]])).status).toBe(200);
    expect(await a.pageIncidents(page.id)).toEqual([onS2.id]);
    expect((await put([[s1]])).status).toBe(200);
    expect(await a.pageIncidents(page.id)).toEqual([]);
  });

  it('a deleted incident leaves the page', async () => {
    const a = await api();
    const s1 = await a.service('API');
    const page = await a.page([[s1]]);
    const incident = await a.incident([s1]);
    expect(await a.pageIncidents(page.id)).toEqual([incident.id]);
    expect((await server.http.delete(`${INCIDENTS}/${incident.id}`, { key: a.account.key })).status).toBe(204);
    expect(await a.pageIncidents(page.id)).toEqual([]);
  });

  it('each page of a list gets its own incidents, and another account’s pages none of them', async () => {
    const a = await api();
    const b = await api();
    const [s1, s2] = [await a.service('API'), await a.service('Web')];
    const p1 = await a.page([[s1]]);
    const p2 = await a.page([[s2], [s1]]);
    const p3 = await a.page([]);
    const i1 = await a.incident([s1]);
    clock.advance(MINUTE);
    const i2 = await a.incident([s2]);
    expect(await a.pageIncidents(p1.id)).toEqual([i1.id]);
    expect(await a.pageIncidents(p2.id)).toEqual([i2.id, i1.id]);
    expect(await a.pageIncidents(p3.id)).toEqual([]);
    const theirs = await b.page([[await b.service('API')]]);
    expect(await b.pageIncidents(theirs.id)).toEqual([]);
  });

  it('a list is built from batched reads: one service lookup and one incident query, whatever the pages and cards', async () => {
    const a = await api();
    const services = await Promise.all([0, 1, 2, 3, 4].map((i) => a.service(`S${i}`)));
    for (let p = 0; p < 5; p++) await a.page([0, 1, 2].map((c) => [services[(p + c) % 5], services[(p + c + 1) % 5]]));
    for (const s of services) await a.incident([s]);
    const getMany = jest.spyOn(server.app.get(ServiceDirectory), 'getMany');
    const touching = jest.spyOn(server.app.get(PageIncidents), 'touching');
    try {
      const list = await server.http.get('/v1/status-pages', { key: a.account.key });
      expect(list.body.length).toBe(5);
      expect(list.body.entries.every((e: { incidents: unknown[] }) => e.incidents.length === 4)).toBe(true);
      expect(touching).toHaveBeenCalledTimes(1);
      // Pages join their services once; each incident's own services are joined once more by the incidents context.
      expect(getMany.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      getMany.mockRestore();
      touching.mockRestore();
    }
  });
});

describe('routes', () => {
  it('the static /v1/status-pages/incidents keeps winning over /v1/status-pages/{id}', async () => {
    const a = await api();
    const incident = await a.incident([await a.service('API')]);
    const response = await server.http.get(INCIDENTS, { key: a.account.key });
    expect(response.status).toBe(200);
    expect(response.body.entries.map((e: { id: string }) => e.id)).toEqual([incident.id]);
  });

  it('PUT and DELETE on /v1/status-pages/incidents are a 405 with the static route’s methods', async () => {
    const a = await api();
    for (const method of ['PUT', 'DELETE']) {
      const response = await server.http.request(method, INCIDENTS, { key: a.account.key, body: { name: 'x', url: 'abc', cards: [] } });
      expect(response.status).toBe(405);
      const allow = (response.headers.get('allow') ?? '').split(', ');
      expect(allow).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(allow).not.toContain(method);
    }
  });
});

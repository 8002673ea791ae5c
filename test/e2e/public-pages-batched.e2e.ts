import { ManualClock } from '../../libs/core/src/clock';
import { openSharedStores, SharedStores } from '../../libs/testing/src/production-shaped-stores';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { createIncident, createPage } from './public-pages-fixtures';

/**
 * A public page built from reads sent together in batches (production-shaped stores, where every read is a
 * round trip) shows exactly what the embedded engine, which reads one at a time, shows for the same writes.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const PATHS = ['/api/v2/summary.json', '/api/v2/components.json', '/api/v2/incidents.json', '/api/v2/scheduled-maintenances.json'];

/** Writes the same page on both: services, open and resolved incidents on several, active and upcoming maintenance. */
async function scenario(server: TestServer): Promise<Record<string, unknown>> {
  const account = await server.account('Batched');
  const key = { key: account.key };
  const page = await createPage(server, account, 'batched', { serviceNames: ['API', 'Web', 'Mail', 'Search'] });
  const [api, web, mail, search] = page.serviceIds;
  await createIncident(server, account, [api, web], { name: 'Elevated errors', severity: 'MAJOR' });
  await createIncident(server, account, [web], {
    name: 'Slow pages',
    severity: 'MINOR',
    updates: [
      { description: 'Looking.', publicIncidentUpdateDate: '2026-11-18T10:00:00.000Z' },
      { description: 'Fixed.', status: 'RESOLVED', publicIncidentUpdateDate: '2026-11-18T11:00:00.000Z' },
    ],
  });
  const window = (body: Record<string, unknown>) => server.http.post('/v1/maintenance-windows', { tags: [], ...body }, key);
  expect((await window({ name: 'Mail move', startsAt: '2026-11-20T11:00:00.000Z', endsAt: '2026-11-20T13:00:00.000Z', serviceIds: [mail] })).status).toBe(201);
  expect((await window({ name: 'Index rebuild', startsAt: '2026-11-22T09:00:00.000Z', endsAt: '2026-11-22T10:00:00.000Z', serviceIds: [search, api] })).status).toBe(201);
  const answers: Record<string, unknown> = {};
  for (const path of ['', ...PATHS]) {
    const response = await server.http.get(`/status/${page.url}${path}`);
    expect(response.status).toBe(200);
    // Ids differ between the two runs; everything else (times too: one clock) must not.
    answers[path] = path === '' ? response.text.replace(UUID, '<id>') : JSON.parse(response.text.replace(UUID, '<id>'));
  }
  return answers;
}

describe('a public page read in batches', () => {
  let shared: SharedStores;
  const servers: TestServer[] = [];

  afterAll(async () => {
    for (const server of servers) await server.close();
    await shared?.close();
  });

  it('shows what the page read one read at a time shows', async () => {
    shared = await openSharedStores();
    const batched = await startTestServer({ clock: new ManualClock('2026-11-20T12:00:00.000Z'), openStores: shared.openStores, env: { VIGIL_DAEMON: 'off' } });
    servers.push(batched);
    const embedded = await startTestServer({ clock: new ManualClock('2026-11-20T12:00:00.000Z') });
    servers.push(embedded);

    const got = await scenario(batched);
    expect(shared.probe.snapshot().byCall['read.readBatch']).toBeGreaterThanOrEqual(3 * (1 + PATHS.length));
    const expected = await scenario(embedded);

    expect(got).toEqual(expected);
    const summary = expected['/api/v2/summary.json'] as { components: { name: string; status: string }[]; incidents: { name: string }[]; scheduled_maintenances: { name: string }[] };
    // The cards are component groups, each as bad as its worst service.
    expect(summary.components.map((c) => [c.name, c.status])).toEqual([
      ['Core', 'partial_outage'],
      ['API', 'partial_outage'],
      ['Web', 'partial_outage'],
      ['Edge', 'under_maintenance'],
      ['Mail', 'under_maintenance'],
      ['Search', 'operational'],
    ]);
    expect(summary.incidents.map((i) => i.name)).toEqual(['Elevated errors']);
    expect(summary.scheduled_maintenances.map((m) => m.name)).toEqual(['Mail move', 'Index rebuild']);
  });
});

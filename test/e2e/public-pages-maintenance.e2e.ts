import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createPage } from './public-pages-fixtures';

const clock = new ManualClock('2026-11-20T12:00:00.000Z');
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  account = await server.account();
});
afterAll(() => server.close());

describe('maintenance windows on public pages (contract §4.1, §6)', () => {
  it('shows a service under maintenance while a window naming it is active, and lists active and upcoming windows', async () => {
    const page = await createPage(server, account, 'maint-1', { serviceNames: ['Database', 'Website'] });
    const [database, website] = page.serviceIds;
    const create = (body: Record<string, unknown>) => server.http.post('/v1/maintenance-windows', body, { key: account.key });
    expect((await create({ name: 'DB upgrade', tags: [], startsAt: '2026-11-20T11:00:00.000Z', endsAt: '2026-11-20T13:00:00.000Z', serviceIds: [database] })).status).toBe(201);
    expect((await create({ name: 'Web deploy', tags: [], startsAt: '2026-11-22T09:00:00.000Z', endsAt: '2026-11-22T10:00:00.000Z', serviceIds: [website] })).status).toBe(201);
    expect((await create({ name: 'Tags only', tags: ['cron'], startsAt: '2026-11-20T11:00:00.000Z', endsAt: '2026-11-20T13:00:00.000Z' })).status).toBe(201);

    const components = (await server.http.get('/status/maint-1/api/v2/components.json')).body.components as { id: string; status: string }[];
    expect(components.find((c) => c.id === database)?.status).toBe('under_maintenance');
    expect(components.find((c) => c.id === website)?.status).toBe('operational');

    const active = (await server.http.get('/status/maint-1/api/v2/scheduled-maintenances/active.json')).body.scheduled_maintenances as { name: string }[];
    expect(active.map((m) => m.name)).toEqual(['DB upgrade']);
    const upcoming = (await server.http.get('/status/maint-1/api/v2/scheduled-maintenances/upcoming.json')).body.scheduled_maintenances as { name: string }[];
    expect(upcoming.map((m) => m.name)).toEqual(['Web deploy']);

    const html = (await server.http.get('/status/maint-1')).text;
    expect(html).toContain('DB upgrade');
    expect(html).toContain('Web deploy');
    expect(html).not.toContain('Tags only');

    clock.advance(2 * 3_600_000); // the first window is over
    const after = (await server.http.get('/status/maint-1/api/v2/components.json')).body.components as { id: string; status: string }[];
    expect(after.find((c) => c.id === database)?.status).toBe('operational');
  });
});

import { CommandBus } from '@nestjs/cqrs';
import { RunApiKeyCommand } from '../../libs/accounts/src/accounts.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/**
 * Reads follow writes: these tests change each thing an answer is built from, right after reading it,
 * and expect the next read to show it: through this server at once, and through a second server on the
 * same data file (another process, as far as SQLite knows) within 2 s.
 */
const SERVICES = '/v1/status-pages/services';
const INCIDENTS = '/v1/status-pages/incidents';
const CHECKS = '/v1/checks/heartbeat';
const heartbeat = { period: 1, periodUnit: 'hours', grace: 0, graceUnit: 'seconds' };

let server: TestServer;
let account: TestAccount;
const as = (a: TestAccount = account) => ({ key: a.key });

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account();
});

afterAll(() => server.close());

async function create(path: string, body: unknown, who: TestAccount = account): Promise<{ id: string; [k: string]: unknown }> {
  const response = await server.http.post(path, body, as(who));
  expect(response.status).toBe(201);
  return response.body;
}

/** Reads twice: the same answer both times while nothing changed. */
async function readTwice(path: string, who: TestAccount = account) {
  const first = await server.http.get(path, as(who));
  const second = await server.http.get(path, as(who));
  expect(second.status).toBe(first.status);
  expect(second.text).toBe(first.text);
  expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  return second;
}

describe('through the same server: the next read shows every write', () => {
  it('a service shows its rename and the checks that name it', async () => {
    const service = await create(SERVICES, { name: 'Cache me' });
    const kept = await readTwice(`${SERVICES}/${service.id}`);
    expect(kept.body).toEqual(service);
    expect(kept.headers.get('content-type')).toBe('application/json; charset=utf-8');

    const renamed = await server.http.put(`${SERVICES}/${service.id}`, { name: 'Renamed' }, as());
    const afterRename = await readTwice(`${SERVICES}/${service.id}`);
    expect(afterRename.body).toEqual(renamed.body);
    expect(afterRename.body.name).toBe('Renamed');
    expect(afterRename.headers.get('etag')).not.toBe(kept.headers.get('etag'));

    const check = await create(CHECKS, { name: 'nightly', heartbeat, triggerIncident: { serviceId: service.id, severity: 'MAJOR', name: 'Down' } });
    expect((await readTwice(`${SERVICES}/${service.id}`)).body.checks).toEqual([{ id: check.id, name: 'nightly' }]);
    await server.http.put(`${CHECKS}/${check.id}`, { name: 'nightly backup', heartbeat, triggerIncident: { serviceId: service.id, severity: 'MAJOR', name: 'Down' } }, as());
    expect((await readTwice(`${SERVICES}/${service.id}`)).body.checks).toEqual([{ id: check.id, name: 'nightly backup' }]);
    expect((await server.http.delete(`/v1/checks/${check.id}`, as())).status).toBe(204);
    expect((await readTwice(`${SERVICES}/${service.id}`)).body.checks).toEqual([]);

    expect((await server.http.delete(`${SERVICES}/${service.id}`, as())).status).toBe(204);
    expect((await readTwice(`${SERVICES}/${service.id}`)).status).toBe(404);
  });

  it('an incident and the list show a new update, a renamed service and a new incident', async () => {
    const service = await create(SERVICES, { name: 'API' });
    const incident = await create(INCIDENTS, {
      name: 'Errors',
      severity: 'MAJOR',
      services: [{ id: service.id }],
      incidentUpdates: [{ description: 'Looking into it' }],
    });
    const list = `${INCIDENTS}?limit=5`;
    expect((await readTwice(`${INCIDENTS}/${incident.id}`)).body).toEqual(incident);
    expect((await readTwice(list)).body.entries[0]).toEqual(incident);

    const posted = await server.http.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Found it', status: 'IDENTIFIED' }, as());
    expect(posted.status).toBe(200);
    const afterUpdate = await readTwice(`${INCIDENTS}/${incident.id}`);
    expect(afterUpdate.body.lastUpdateStatus).toBe('IDENTIFIED');
    expect(afterUpdate.headers.get('etag')).toBe(posted.headers.get('etag'));
    expect((await readTwice(list)).body.entries[0].incidentUpdates).toHaveLength(2);

    await server.http.put(`${SERVICES}/${service.id}`, { name: 'Public API' }, as());
    expect((await readTwice(`${INCIDENTS}/${incident.id}`)).body.services[0].name).toBe('Public API');
    expect((await readTwice(list)).body.entries[0].services[0].name).toBe('Public API');

    const newer = await create(INCIDENTS, { name: 'Newer', severity: 'MINOR', services: [{ id: service.id }], incidentUpdates: [{ description: 'x' }] });
    expect((await readTwice(list)).body.entries.map((e: { id: string }) => e.id).slice(0, 2)).toEqual([newer.id, incident.id]);

    expect((await server.http.delete(`${INCIDENTS}/${newer.id}`, as())).status).toBe(204);
    expect((await readTwice(`${INCIDENTS}/${newer.id}`)).status).toBe(404);
    expect((await readTwice(list)).body.entries[0].id).toBe(incident.id);
  });

  it('a list filtered by status page follows the page\'s services', async () => {
    const a = await create(SERVICES, { name: 'A' });
    const b = await create(SERVICES, { name: 'B' });
    const onB = await create(INCIDENTS, { name: 'On B', severity: 'MINOR', services: [{ id: b.id }], incidentUpdates: [{ description: 'x' }] });
    const page = await create('/v1/status-pages', { name: 'Page', url: `cache-${Date.now()}`, cards: [{ name: 'Card', services: [{ id: a.id }] }] });
    const filtered = `${INCIDENTS}?statusPageId=${page.id}`;
    expect((await readTwice(filtered)).body.entries).toEqual([]);

    const changed = await server.http.put(`/v1/status-pages/${page.id}`, { name: 'Page', url: page.url, cards: [{ name: 'Card', services: [{ id: b.id }] }] }, as());
    expect(changed.status).toBe(200);
    expect((await readTwice(filtered)).body.entries.map((e: { id: string }) => e.id)).toEqual([onB.id]);
  });

  it('never shows one account what was kept for another, even under the same URL', async () => {
    const other = await server.account('Other');
    const mine = await readTwice(`${INCIDENTS}?limit=3`);
    expect(mine.body.entries.length).toBeGreaterThan(0);
    expect((await readTwice(`${INCIDENTS}?limit=3`, other)).body).toEqual({ entries: [], length: 0, nextId: null });

    const service = await create(SERVICES, { name: 'Mine' });
    await readTwice(`${SERVICES}/${service.id}`);
    expect((await server.http.get(`${SERVICES}/${service.id}`, as(other))).status).toBe(404);
  });

  it('keeps no failure: a bad query answers 400 every time, and a good one after it 200', async () => {
    for (let i = 0; i < 2; i++) expect((await server.http.get(`${INCIDENTS}?limit=0`, as())).status).toBe(400);
    expect((await server.http.get(`${INCIDENTS}?limit=1`, as())).status).toBe(200);
  });
});

describe('repeated reads and auth: every rule of the API key guard holds', () => {
  it('answers a read only to callers the guard admits', async () => {
    const service = await create(SERVICES, { name: 'Guarded' });
    const path = `${SERVICES}/${service.id}`;
    await readTwice(path);
    await readTwice(path);

    const other = await server.account('Stranger');
    const wrongAccount = await server.http.get(path, { key: account.key, headers: { 'x-service-account': other.id } });
    expect(wrongAccount.status).toBe(403);
    expect((await server.http.get(path, { key: other.key })).status).toBe(404);
    expect((await server.http.get(path, { key: account.key, headers: { 'x-checkly-account': account.id } })).status).toBe(200);
    expect((await server.http.get(path, { key: 'vgl_' + 'x'.repeat(43) })).status).toBe(401);
    expect((await server.http.get(path, { headers: {} })).status).toBe(401);

    const readOnly = await account.newKey('READ_ONLY');
    expect((await readTwice(path, { ...account, key: readOnly.apiKey })).status).toBe(200);
    // Revoked: at most a second for the key cache, as everywhere else.
    await server.app.get(CommandBus).execute(new RunApiKeyCommand({ type: 'RevokeApiKey', id: readOnly.id }, { accountId: null }));
    const revokedAt = Date.now();
    for (;;) {
      const response = await server.http.get(path, { key: readOnly.apiKey });
      if (response.status === 401) break;
      expect(response.status).toBe(200);
      expect(Date.now() - revokedAt).toBeLessThan(2000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await server.http.get(path, { key: account.key })).status).toBe(200);
  });

  it('answers a past state (asOf) from the history', async () => {
    const service = await create(SERVICES, { name: 'Past' });
    const incident = await create(INCIDENTS, { name: 'Before', severity: 'MINOR', services: [{ id: service.id }], incidentUpdates: [{ description: 'x' }] });
    const between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await server.http.patch(`${INCIDENTS}/${incident.id}`, { name: 'After' }, as());
    expect((await readTwice(`${INCIDENTS}/${incident.id}`)).body.name).toBe('After');
    expect((await readTwice(`${INCIDENTS}/${incident.id}?asOf=${encodeURIComponent(between)}`)).body.name).toBe('Before');
  });
});

describe('through another server on the same data file', () => {
  let second: TestServer;

  beforeAll(async () => {
    second = await startTestServer({ dataDir: server.dataDir, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  });

  afterAll(() => second.close());

  /** Polls the first server until `ok`, for at most 2 s (the visibility promise for other processes). */
  async function within2s(path: string, ok: (body: any) => boolean): Promise<number> {
    const started = Date.now();
    for (;;) {
      const response = await server.http.get(path, as());
      if (ok(response.body)) return Date.now() - started;
      if (Date.now() - started > 2000) throw new Error(`not visible after 2 s: ${response.text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('shows the other server\'s rename, update and new incident', async () => {
    const service = await create(SERVICES, { name: 'Shared' });
    const incident = await create(INCIDENTS, { name: 'Shared incident', severity: 'MAJOR', services: [{ id: service.id }], incidentUpdates: [{ description: 'x' }] });
    await readTwice(`${SERVICES}/${service.id}`);
    await readTwice(`${INCIDENTS}/${incident.id}`);
    await readTwice(`${INCIDENTS}?limit=1`);

    expect((await second.http.put(`${SERVICES}/${service.id}`, { name: 'Renamed elsewhere' }, as())).status).toBe(200);
    await within2s(`${SERVICES}/${service.id}`, (body) => body.name === 'Renamed elsewhere');
    await within2s(`${INCIDENTS}/${incident.id}`, (body) => body.services?.[0]?.name === 'Renamed elsewhere');

    const posted = await second.http.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'elsewhere', status: 'MONITORING' }, as());
    expect(posted.status).toBe(200);
    await within2s(`${INCIDENTS}/${incident.id}`, (body) => body.lastUpdateStatus === 'MONITORING');

    const created = await second.http.post(INCIDENTS, { name: 'From elsewhere', severity: 'MINOR', services: [{ id: service.id }], incidentUpdates: [{ description: 'x' }] }, as());
    expect(created.status).toBe(201);
    await within2s(`${INCIDENTS}?limit=1`, (body) => body.entries?.[0]?.id === created.body.id);
  });
});

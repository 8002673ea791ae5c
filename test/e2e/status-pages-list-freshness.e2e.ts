import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/**
 * The contract's read-your-writes for endpoint 8: every change any instance makes is in the next list of
 * every instance. Two servers share one data directory, as two API processes share one SQLite file.
 */
const ENV = { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' };
const INCIDENTS = '/v1/status-pages/incidents';

let a: TestServer;
let b: TestServer;
let account: TestAccount;

beforeAll(async () => {
  a = await startTestServer({ env: ENV, clock: new ManualClock(new Date()) });
  b = await startTestServer({ env: ENV, dataDir: a.dataDir });
  account = await a.account('Cache');
}, 30_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const key = () => ({ key: account.key });

async function list(server: TestServer, query = '') {
  const response = await server.http.get(`/v1/status-pages${query}`, key());
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return response;
}

describe('the status page list across instances sharing one store', () => {
  it('shows on one instance what another has just written: page, service rename, incident, check, deletion', async () => {
    const service = (await a.http.post('/v1/status-pages/services', { name: 'API' }, key())).body;
    const page = (await a.http.post('/v1/status-pages', { name: 'Shared', url: 'shared-cache', cards: [{ name: 'Core', services: [{ id: service.id }] }] }, key())).body;
    const first = await list(a);
    expect(first.body.entries.map((p: { id: string }) => p.id)).toEqual([page.id]);
    // Served twice without a write: the same bytes.
    expect((await list(a)).text).toBe(first.text);

    const renamed = await b.http.put(`/v1/status-pages/services/${service.id}`, { name: 'Public API' }, key());
    expect(renamed.status).toBe(200);
    expect((await list(a)).body.entries[0].cards[0].services[0].name).toBe('Public API');

    const incident = await b.http.post(
      INCIDENTS,
      { name: 'Errors', severity: 'MAJOR', services: [{ id: service.id }], incidentUpdates: [{ description: 'Looking.' }] },
      key(),
    );
    expect(incident.status).toBe(201);
    expect((await list(a)).body.entries[0].incidents).toEqual([incident.body]);

    // A check naming the service joins it (another context's read model), here on the instance that wrote it.
    const check = await a.http.post(
      '/v1/checks/heartbeat',
      { name: 'Nightly backup', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' }, triggerIncident: { serviceId: service.id, severity: 'MAJOR', name: 'Backups stopped' } },
      key(),
    );
    expect(check.status).toBe(201);
    expect((await list(a)).body.entries[0].cards[0].services[0].checks).toEqual([{ id: check.body.id, name: 'Nightly backup' }]);

    const other = (await b.http.post('/v1/status-pages', { name: 'Second', url: 'second-cache', cards: [] }, key())).body;
    expect((await list(a)).body.entries.map((p: { id: string }) => p.id)).toEqual([other.id, page.id]);
    expect((await b.http.delete(`/v1/status-pages/${page.id}`, key())).status).toBe(204);
    const after = await list(a);
    expect(after.body.entries.map((p: { id: string }) => p.id)).toEqual([other.id]);
    // Both instances answer the same bytes.
    expect((await list(b)).text).toBe(after.text);
  });
});

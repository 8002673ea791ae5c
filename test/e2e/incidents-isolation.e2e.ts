import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { accountWithApi, Api, INCIDENTS, IncidentBody, ServiceBody, TEST_ENV } from './incidents-fixtures';

let server: TestServer;
let owner: Api;
let stranger: Api;
let strangerService: ServiceBody;
let incident: IncidentBody;
let ownerService: ServiceBody;

beforeAll(async () => {
  server = await startTestServer({ env: TEST_ENV });
  ({ api: owner } = await accountWithApi(server, 'Owner'));
  ({ api: stranger } = await accountWithApi(server, 'Stranger'));
  ownerService = await owner.service('Owner API');
  strangerService = await stranger.service('Stranger API');
  incident = await owner.incident([ownerService]);
});
afterAll(() => server.close());

function expectNotFound(response: HttpResponse): void {
  expect(response.status).toBe(404);
  expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
}

describe("another account's incident", () => {
  it('is a 404 on every route, with or without If-Match, and nothing is written', async () => {
    const base = `${INCIDENTS}/${incident.id}`;
    const update = `${base}/incident-updates/${incident.incidentUpdates[0].id}`;
    const replacement = { name: 'Hijacked', severity: 'MINOR', services: [{ id: strangerService.id }] };
    for (const headers of [{}, { 'if-match': '"1"' }, { 'if-match': '"99"' }] as Record<string, string>[]) {
      const options = { headers };
      for (const response of [
        await stranger.get(base, options),
        await stranger.get(`${base}?asOf=2030-01-01`, options),
        await stranger.put(base, replacement, options),
        await stranger.patch(base, { severity: 'MINOR' }, options),
        await stranger.delete(base, options),
        await stranger.get(`${base}/history`, options),
        await stranger.get(`${base}/incident-updates`, options),
        await stranger.post(`${base}/incident-updates`, { description: 'x' }, options),
        await stranger.get(update, options),
        await stranger.put(update, { description: 'x' }, options),
        await stranger.delete(update, options),
      ]) {
        expectNotFound(response);
      }
    }
    const history = await owner.get(`${base}/history`);
    expect(history.body.entries.map((e: { type: string }) => e.type)).toEqual(['IncidentCreated', 'IncidentUpdatePosted']);
    expect((await owner.get(base)).body).toEqual(incident);
  });

  it("never appears in the other account's list, whatever the filter", async () => {
    for (const query of ['', '?status=open', `?serviceId=${ownerService.id}`]) {
      const list = await stranger.get(`${INCIDENTS}${query}`);
      expect(list.status).toBe(200);
      expect(list.body.entries.map((e: IncidentBody) => e.id)).not.toContain(incident.id);
    }
  });

  it("cannot be given the other account's services", async () => {
    const response = await stranger.post(INCIDENTS, { name: 'x', severity: 'MINOR', services: [{ id: ownerService.id }], incidentUpdates: [{ description: 'x' }] });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ path: 'services[0].id', message: expect.any(String) }]);
  });

  it('a key granting several accounts must name one (403), and naming one that is not the owner still gives 404', async () => {
    const { account } = await accountWithApi(server, 'Third');
    const fourth = await server.account('Fourth');
    const both = new Api(server.http, (await fourth.newKey('ADMIN', [account.id])).apiKey);
    expect((await both.get(`${INCIDENTS}/${incident.id}`)).status).toBe(403);
    expectNotFound(await both.get(`${INCIDENTS}/${incident.id}`, { headers: { 'x-service-account': account.id } }));
  });

  it('an unknown account or a missing key is refused before anything is read', async () => {
    expect((await server.http.get(`${INCIDENTS}/${incident.id}`)).status).toBe(401);
    expect((await owner.get(`${INCIDENTS}/${incident.id}`, { headers: { 'x-service-account': '01900000-0000-7000-8000-000000000000' } })).status).toBe(403);
  });
});

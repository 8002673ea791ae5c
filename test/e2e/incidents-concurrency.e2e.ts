import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { accountWithApi, Api, incidentBody, INCIDENTS, IncidentBody, ServiceBody, TEST_ENV } from './incidents-fixtures';

let server: TestServer;
let api: Api;
let service: ServiceBody;

beforeAll(async () => {
  server = await startTestServer({ env: TEST_ENV });
  ({ api } = await accountWithApi(server));
  service = await api.service('API');
});
afterAll(() => server.close());

const historyTypes = async (id: string) => (await api.get(`${INCIDENTS}/${id}/history`)).body.entries.map((e: { type: string }) => e.type);

describe('ETag and If-Match', () => {
  it('GET and every write answer with the stream revision as ETag', async () => {
    const incident = await api.post(INCIDENTS, incidentBody([service]));
    expect(incident.headers.get('etag')).toBe('"1"');
    const id = incident.body.id;
    expect((await api.get(`${INCIDENTS}/${id}`)).headers.get('etag')).toBe('"1"');
    expect((await api.patch(`${INCIDENTS}/${id}`, { severity: 'MINOR' })).headers.get('etag')).toBe('"2"');
    const posted = await api.post(`${INCIDENTS}/${id}/incident-updates`, { description: 'x' });
    expect(posted.headers.get('etag')).toBe('"3"');
    expect((await api.get(`${INCIDENTS}/${id}/incident-updates`)).headers.get('etag')).toBe('"3"');
    expect((await api.put(`${INCIDENTS}/${id}/incident-updates/${posted.body.id}`, { description: 'y' })).headers.get('etag')).toBe('"4"');
  });

  it('a write whose If-Match does not match is a 412 and writes nothing, on every write route', async () => {
    const incident = await api.incident([service], { incidentUpdates: [{ description: 'a' }, { description: 'b' }] });
    const base = `${INCIDENTS}/${incident.id}`;
    const update = `${base}/incident-updates/${incident.incidentUpdates[0].id}`;
    const before = await api.get(base);
    expect(before.headers.get('etag')).toBe('"2"');
    for (const ifMatch of ['"1"', '"3"', 'W/"1"', 'garbage', '1']) {
      const options = { headers: { 'if-match': ifMatch } };
      for (const response of [
        await api.put(base, { name: 'x', severity: 'MINOR', services: [{ id: service.id }] }, options),
        await api.patch(base, { severity: 'MINOR' }, options),
        await api.post(`${base}/incident-updates`, { description: 'x' }, options),
        await api.put(update, { description: 'x' }, options),
        await api.delete(update, options),
        await api.delete(base, options),
      ]) {
        expect(response.status).toBe(412);
        expect(response.body).toEqual({ statusCode: 412, error: 'Precondition Failed', message: expect.any(String) });
      }
    }
    expect((await api.get(base)).text).toBe(before.text);
    expect(await historyTypes(incident.id)).toHaveLength(3);

    // The current ETag (or *) lets the write through, and the answer carries the next one.
    const ok = await api.patch(base, { severity: 'MINOR' }, { headers: { 'if-match': '"2"' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('"3"');
    expect((await api.patch(base, { severity: 'CRITICAL' }, { headers: { 'if-match': 'W/"3"' } })).status).toBe(200);
    expect((await api.patch(base, { severity: 'MAJOR' }, { headers: { 'if-match': '*' } })).status).toBe(200);
    expect((await api.delete(base, { headers: { 'if-match': '"5"' } })).status).toBe(204);
  });

  it('two clients racing with the same ETag: one wins, the other gets 412', async () => {
    const incident = await api.incident([service]);
    const options = { headers: { 'if-match': '"1"' } };
    const results = await Promise.all([
      api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'first' }, options),
      api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'second' }, options),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
  });
});

describe('Idempotency-Key', () => {
  it('a retried create returns the original 201 and body and writes nothing; another body is a 409', async () => {
    const before = (await api.get(`${INCIDENTS}?limit=100`)).body.length;
    const options = { headers: { 'idempotency-key': 'create-incident-1' } };
    const body = incidentBody([service], { name: 'Idempotent' });
    const first = await api.post(INCIDENTS, body, options);
    const retry = await api.post(INCIDENTS, body, options);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await api.get(`${INCIDENTS}?limit=100`)).body.length).toBe(before + 1);

    const conflict = await api.post(INCIDENTS, { ...body, name: 'Other' }, options);
    expect(conflict.status).toBe(409);
    expect((await api.get(`${INCIDENTS}?limit=100`)).body.length).toBe(before + 1);
  });

  it('a retried update post is not a second update', async () => {
    const incident = await api.incident([service]);
    const options = { headers: { 'idempotency-key': `post-update-${incident.id}` } };
    const first = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Once.' }, options);
    const retry = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Once.' }, options);
    expect(first.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect((await api.get(`${INCIDENTS}/${incident.id}`)).body.incidentUpdates).toHaveLength(2);
  });
});

describe('concurrent writes without If-Match', () => {
  it('50 concurrent updates to one incident all land, none lost', async () => {
    const incident = await api.incident([service]);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: `Update ${i}`, status: i % 2 ? 'IDENTIFIED' : 'MONITORING' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(50);

    const current = await api.get(`${INCIDENTS}/${incident.id}`);
    expect(current.headers.get('etag')).toBe('"51"');
    const stored: IncidentBody = current.body;
    expect(stored.incidentUpdates).toHaveLength(51);
    expect(new Set(stored.incidentUpdates.slice(1).map((u) => u.description))).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `Update ${i}`)));
    const types = await historyTypes(incident.id);
    expect(types.filter((t: string) => t === 'IncidentUpdatePosted')).toHaveLength(51);
  });

  it('concurrent edits of different fields all land', async () => {
    const incident = await api.incident([service]);
    const base = `${INCIDENTS}/${incident.id}`;
    const results = await Promise.all([
      api.patch(base, { name: 'Renamed' }),
      api.patch(base, { severity: 'CRITICAL' }),
      api.post(`${base}/incident-updates`, { description: 'Found it.', status: 'IDENTIFIED' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await api.get(base)).body).toMatchObject({ name: 'Renamed', severity: 'CRITICAL', lastUpdateStatus: 'IDENTIFIED' });
  });
});

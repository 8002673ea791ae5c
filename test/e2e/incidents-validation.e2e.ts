import { ManualClock } from '../../libs/core/src/clock';
import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { accountWithApi, Api, incidentBody, INCIDENTS, IncidentBody, ServiceBody, TEST_ENV, UNKNOWN_ID } from './incidents-fixtures';

const NOW = '2026-03-01T10:00:00.000Z';
let server: TestServer;
let api: Api;
let service: ServiceBody;
let second: ServiceBody;
let foreignService: ServiceBody;
let incident: IncidentBody;

beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(NOW), env: TEST_ENV });
  ({ api } = await accountWithApi(server));
  service = await api.service('API');
  second = await api.service('Dashboard');
  foreignService = await (await accountWithApi(server, 'Other')).api.service('Theirs');
  incident = await api.incident([service]);
});
afterAll(() => server.close());

/** A 400 in the one error shape whose details name exactly these paths (in any order). */
function expect400(response: HttpResponse, paths: string[]): void {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String), details: expect.any(Array) });
  for (const detail of response.body.details) expect(detail).toEqual({ path: expect.any(String), message: expect.any(String) });
  expect([...new Set(response.body.details.map((d: { path: string }) => d.path))].sort()).toEqual([...paths].sort());
}

const body = (overrides: Record<string, unknown> = {}) => incidentBody([service], overrides);
const without = (field: string, from: Record<string, unknown>) => Object.fromEntries(Object.entries(from).filter(([k]) => k !== field));
const repeat = (n: number) => 'x'.repeat(n);

describe('POST /incidents: bad bodies', () => {
  it.each(['name', 'severity', 'services', 'incidentUpdates'])('requires %s', async (field) => {
    expect400(await api.post(INCIDENTS, without(field, body())), [field]);
  });

  it.each([
    ['name is not a string', { name: 5 }, ['name']],
    ['name is blank', { name: '   ' }, ['name']],
    ['name is 256 characters', { name: repeat(256) }, ['name']],
    ['name is null', { name: null }, ['name']],
    ['severity is lower case', { severity: 'major' }, ['severity']],
    ['severity is unknown', { severity: 'HIGH' }, ['severity']],
    ['services is an object', { services: { id: 'x' } }, ['services']],
    ['services is empty', { services: [] }, ['services']],
    ['services has 51 entries', { services: Array.from({ length: 51 }, () => ({ id: UNKNOWN_ID })) }, ['services']],
    ['a service is a string', { services: ['x'] }, ['services[0]']],
    ['a service id is a number', { services: [{ id: 5 }] }, ['services[0].id']],
    ['a service has no id', { services: [{ name: 'API' }] }, ['services[0].id']],
    ['a service id is malformed', { services: [{ id: 'not-a-uuid' }] }, ['services[0].id']],
    ['a service is unknown', { services: [{ id: UNKNOWN_ID }] }, ['services[0].id']],
    ['a service is duplicated', { services: [{ id: 'SERVICE' }, { id: 'SERVICE' }] }, ['services[1].id']],
    ['incidentUpdates is a string', { incidentUpdates: 'x' }, ['incidentUpdates']],
    ['incidentUpdates is empty', { incidentUpdates: [] }, ['incidentUpdates']],
    ['incidentUpdates has 21 entries', { incidentUpdates: Array.from({ length: 21 }, () => ({ description: 'x' })) }, ['incidentUpdates']],
    ['an update is a number', { incidentUpdates: [1] }, ['incidentUpdates[0]']],
    ['an update has no description', { incidentUpdates: [{ status: 'IDENTIFIED' }] }, ['incidentUpdates[0].description']],
    ['a description is blank', { incidentUpdates: [{ description: ' \n ' }] }, ['incidentUpdates[0].description']],
    ['a description is 10,001 characters', { incidentUpdates: [{ description: repeat(10_001) }] }, ['incidentUpdates[0].description']],
    ['a description is a number', { incidentUpdates: [{ description: 42 }] }, ['incidentUpdates[0].description']],
    ['a status is unknown', { incidentUpdates: [{ description: 'x', status: 'DONE' }] }, ['incidentUpdates[0].status']],
    ['notifySubscribers is a string', { incidentUpdates: [{ description: 'x', notifySubscribers: 'true' }] }, ['incidentUpdates[0].notifySubscribers']],
    ['a date is words', { incidentUpdates: [{ description: 'x', publicIncidentUpdateDate: 'yesterday' }] }, ['incidentUpdates[0].publicIncidentUpdateDate']],
    ['a date does not exist', { incidentUpdates: [{ description: 'x', publicIncidentUpdateDate: '2026-02-30T10:00:00Z' }] }, ['incidentUpdates[0].publicIncidentUpdateDate']],
    ['a date has no zone', { incidentUpdates: [{ description: 'x', publicIncidentUpdateDate: '2026-02-01T10:00:00' }] }, ['incidentUpdates[0].publicIncidentUpdateDate']],
    ['a date is a number', { incidentUpdates: [{ description: 'x', publicIncidentUpdateDate: 1767225600000 }] }, ['incidentUpdates[0].publicIncidentUpdateDate']],
    ['a date is in the future', { incidentUpdates: [{ description: 'x', publicIncidentUpdateDate: '2026-03-01T10:06:00Z' }] }, ['incidentUpdates[0].publicIncidentUpdateDate']],
  ])('refuses a body where %s', async (_case, overrides, paths) => {
    const raw = JSON.parse(JSON.stringify(overrides).replaceAll('SERVICE', service.id));
    expect400(await api.post(INCIDENTS, body(raw)), paths as string[]);
  });

  it("refuses another account's service as unknown", async () => {
    expect400(await api.post(INCIDENTS, incidentBody([service, foreignService])), ['services[1].id']);
  });

  it('accepts the limits themselves: 255-character name, 50 services… (here: all known), 20 updates, 10,000-character description, a date 5 minutes ahead', async () => {
    const response = await api.post(
      INCIDENTS,
      body({
        name: repeat(255),
        services: [{ id: service.id }, { id: second.id }],
        incidentUpdates: [
          { description: repeat(10_000), publicIncidentUpdateDate: '2026-03-01T10:05:00Z' },
          ...Array.from({ length: 19 }, () => ({ description: 'x' })),
        ],
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body.incidentUpdates).toHaveLength(20);
    // Characters are code points: an emoji counts once.
    expect((await api.post(INCIDENTS, body({ name: '🔥'.repeat(255) }))).status).toBe(201);
  });

  it('lists every violation of one body in details', async () => {
    const response = await api.post(INCIDENTS, {
      name: '',
      severity: 'LOW',
      services: [{ id: UNKNOWN_ID }, { id: 'bad' }, { id: service.id }, { id: service.id }],
      incidentUpdates: [{ description: '' }, { description: 'x', status: 'NOPE', publicIncidentUpdateDate: 'soon', notifySubscribers: 1 }],
    });
    expect400(response, [
      'name',
      'severity',
      'services[0].id',
      'services[1].id',
      'services[3].id',
      'incidentUpdates[0].description',
      'incidentUpdates[1].status',
      'incidentUpdates[1].publicIncidentUpdateDate',
      'incidentUpdates[1].notifySubscribers',
    ]);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"incident"'],
    ['null', 'null'],
    ['empty', ''],
  ])('refuses a body that is %s', async (_case, raw) => {
    const response = await api.post(INCIDENTS, undefined, { rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('refuses malformed JSON (400), other content types (415) and poisoned keys (400)', async () => {
    expect((await api.post(INCIDENTS, undefined, { rawBody: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await api.post(INCIDENTS, undefined, { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    const poisoned = await api.post(INCIDENTS, undefined, { rawBody: JSON.stringify(body()).replace('{', '{"__proto__":{"x":1},'), headers: { 'content-type': 'application/json' } });
    expect(poisoned.status).toBe(400);
  });

  it('wrote nothing for any refused body', async () => {
    const list = await api.get(`${INCIDENTS}?limit=100`);
    expect(new Set(list.body.entries.map((e: IncidentBody) => e.name))).toEqual(new Set([incident.name, repeat(255), '🔥'.repeat(255)]));
  });
});

describe('PUT and PATCH /incidents/{id}: bad bodies', () => {
  const path = () => `${INCIDENTS}/${incident.id}`;
  const replacement = () => ({ name: 'x', severity: 'MINOR', services: [{ id: service.id }] });

  it.each(['name', 'severity', 'services'])('PUT requires %s', async (field) => {
    expect400(await api.put(path(), without(field, replacement())), [field]);
  });

  it('PUT checks like POST: every violation listed', async () => {
    expect400(await api.put(path(), { name: repeat(256), severity: 1, services: [{ id: UNKNOWN_ID }] }), ['name', 'severity', 'services[0].id']);
  });

  it('PATCH needs at least one field, and refuses null or bad values', async () => {
    expect400(await api.patch(path(), {}), ['']);
    expect400(await api.patch(path(), { unknown: 1 }), ['']);
    expect400(await api.patch(path(), { name: null }), ['name']);
    expect400(await api.patch(path(), { severity: 'minor', services: [] }), ['severity', 'services']);
    expect400(await api.patch(path(), { services: [{ id: foreignService.id }] }), ['services[0].id']);
  });

  it('left the incident untouched', async () => {
    expect((await api.get(path())).text).toBe(JSON.stringify(incident));
  });
});

describe('incident updates: bad bodies', () => {
  it('POST requires a description and checks status, date and notifySubscribers', async () => {
    const path = `${INCIDENTS}/${incident.id}/incident-updates`;
    expect400(await api.post(path, {}), ['description']);
    expect400(await api.post(path, { description: repeat(10_001) }), ['description']);
    expect400(await api.post(path, { description: 'x', status: 'resolved', publicIncidentUpdateDate: '01/03/2026', notifySubscribers: 'no' }), [
      'status',
      'publicIncidentUpdateDate',
      'notifySubscribers',
    ]);
    expect400(await api.post(path, { description: 'x', publicIncidentUpdateDate: '2027-01-01' }), ['publicIncidentUpdateDate']);
    expect((await api.post(path, undefined, { rawBody: '[1]', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('PUT requires a description', async () => {
    const path = `${INCIDENTS}/${incident.id}/incident-updates/${incident.incidentUpdates[0].id}`;
    expect400(await api.put(path, { status: 'RESOLVED' }), ['description']);
    expect400(await api.put(path, { description: '', publicIncidentUpdateDate: 'x' }), ['description', 'publicIncidentUpdateDate']);
  });

  it('null optional fields mean "not given"', async () => {
    const response = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'x', status: null, publicIncidentUpdateDate: null, notifySubscribers: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'INVESTIGATING', publicIncidentUpdateDate: NOW, notifySubscribers: false });
  });
});

describe('ids in paths', () => {
  const malformed = ['abc', '123', 'ffffffff-ffff-ffff-ffff-fffffffffffff', '..%2F..', '%00'];

  it.each(malformed)('a malformed incident id %p is a 404 on every route', async (bad) => {
    for (const response of [
      await api.get(`${INCIDENTS}/${bad}`),
      await api.put(`${INCIDENTS}/${bad}`, { name: 'x', severity: 'MINOR', services: [{ id: service.id }] }),
      await api.patch(`${INCIDENTS}/${bad}`, { severity: 'MINOR' }),
      await api.delete(`${INCIDENTS}/${bad}`),
      await api.get(`${INCIDENTS}/${bad}/history`),
      await api.get(`${INCIDENTS}/${bad}/incident-updates`),
      await api.post(`${INCIDENTS}/${bad}/incident-updates`, { description: 'x' }),
      await api.get(`${INCIDENTS}/${bad}/incident-updates/${incident.incidentUpdates[0].id}`),
      await api.put(`${INCIDENTS}/${bad}/incident-updates/${incident.incidentUpdates[0].id}`, { description: 'x' }),
      await api.delete(`${INCIDENTS}/${bad}/incident-updates/${incident.incidentUpdates[0].id}`),
      await api.get(`${INCIDENTS}/${incident.id}/incident-updates/${bad}`),
      await api.put(`${INCIDENTS}/${incident.id}/incident-updates/${bad}`, { description: 'x' }),
      await api.delete(`${INCIDENTS}/${incident.id}/incident-updates/${bad}`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('an unknown incident or update id is a 404', async () => {
    expect((await api.get(`${INCIDENTS}/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await api.post(`${INCIDENTS}/${UNKNOWN_ID}/incident-updates`, { description: 'x' })).status).toBe(404);
    expect((await api.get(`${INCIDENTS}/${incident.id}/incident-updates/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await api.get(`${INCIDENTS}/${incident.id}/incident-updates/${incident.id}`)).status).toBe(404);
    expect((await api.put(`${INCIDENTS}/${UNKNOWN_ID}`, { name: 'x', severity: 'MINOR', services: [{ id: service.id }] })).status).toBe(404);
    expect((await api.delete(`${INCIDENTS}/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('an unsupported method on an existing path is a 405 with Allow', async () => {
    const response = await api.post(`${INCIDENTS}/${incident.id}`, { name: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
  });
});

describe('query parameters', () => {
  it.each([
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['limit=abc', ['limit']],
    ['limit=2.5', ['limit']],
    ['limit=-1', ['limit']],
    ['limit=1&limit=2', ['limit']],
    ['nextId=forged', ['nextId']],
    ['nextId=eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA', ['nextId']],
    ['status=closed', ['status']],
    ['status=OPEN', ['status']],
    ['serviceId=abc', ['serviceId']],
    ['statusPageId=abc', ['statusPageId']],
    ['limit=0&status=x&serviceId=y&statusPageId=z&nextId=w', ['limit', 'status', 'serviceId', 'statusPageId', 'nextId']],
  ])('the list refuses %s', async (query, paths) => {
    expect400(await api.get(`${INCIDENTS}?${query}`), paths);
  });

  it('accepts the bounds of limit', async () => {
    expect((await api.get(`${INCIDENTS}?limit=1`)).body.length).toBe(1);
    expect((await api.get(`${INCIDENTS}?limit=100`)).status).toBe(200);
  });

  it.each(['yesterday', '2026-13-01', '2026-03-01T25:00:00Z', '1700000000', ''])('asOf=%p is a 400', async (asOf) => {
    expect400(await api.get(`${INCIDENTS}/${incident.id}?asOf=${encodeURIComponent(asOf)}`), ['asOf']);
  });
});

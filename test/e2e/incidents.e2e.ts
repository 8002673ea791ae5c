import { ManualClock } from '../../libs/core/src/clock';
import { PROJECTION_ENGINE } from '../../libs/platform/src/tokens';
import { ProjectionEngine } from '../../libs/read-store/src/projection-engine';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { accountWithApi, Api, INCIDENTS, IncidentBody, ServiceBody, TEST_ENV } from './incidents-fixtures';

const START = '2026-03-01T10:00:00.000Z';
const clock = new ManualClock(START);
const minute = 60_000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock, env: TEST_ENV });
});
afterAll(() => server.close());
beforeEach(() => clock.set(START));

const now = () => clock.now().toISOString();

describe('create and get (endpoints 1 and 3)', () => {
  it('creates an incident: 201, the exact Incident shape, services expanded in request order, defaults filled', async () => {
    const { account, api } = await accountWithApi(server);
    const a = await api.service('API');
    const b = await api.service('Dashboard');
    const response = await api.post(INCIDENTS, {
      // Server-managed fields and unknown extras are ignored, as the checkly CLI sends some of them.
      id: 'client-id',
      created_at: '2000-01-01',
      lastUpdateStatus: 'RESOLVED',
      accountId: 'someone-else',
      name: '  Elevated API error rates  ',
      severity: 'CRITICAL',
      services: [
        { id: b.id, name: '' },
        { id: a.id, name: 'ignored', accountId: 'x' },
      ],
      incidentUpdates: [{ id: 'x', created_at: '2000-01-01', description: 'We are investigating.' }],
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('etag')).toBe('"1"');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const service = (s: ServiceBody) => ({ id: s.id, accountId: account.id, name: s.name, created_at: START, updated_at: START, checks: [] });
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: 'Elevated API error rates',
      severity: 'CRITICAL',
      lastUpdateStatus: 'INVESTIGATING',
      services: [service(b), service(a)],
      incidentUpdates: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          description: 'We are investigating.',
          status: 'INVESTIGATING',
          publicIncidentUpdateDate: START,
          notifySubscribers: false,
          created_at: START,
        },
      ],
      created_at: START,
      updated_at: START,
    });
    expect(response.body.id).not.toBe('client-id');

    const got = await api.get(`${INCIDENTS}/${response.body.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"1"');
    expect(got.text).toBe(response.text);
  });

  it('backfills a past timeline: updates come back chronological and lastUpdateStatus is the latest one’s', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const incident = await api.incident([s], {
      incidentUpdates: [
        { description: 'Resolved.', status: 'RESOLVED', publicIncidentUpdateDate: '2026-02-01T12:00:00Z' },
        { description: 'Investigating.', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-02-01T10:00:00+00:00' },
        { description: 'Found it.', status: 'IDENTIFIED', publicIncidentUpdateDate: '2026-02-01T12:30:00+01:00' },
        { description: 'A date alone.', publicIncidentUpdateDate: '2026-02-01' },
      ],
    });
    expect(incident.incidentUpdates.map((u) => [u.description, u.status, u.publicIncidentUpdateDate])).toEqual([
      // A date alone is midnight UTC; a status left out is the one the incident had reached when it was posted.
      ['A date alone.', 'RESOLVED', '2026-02-01T00:00:00.000Z'],
      ['Investigating.', 'INVESTIGATING', '2026-02-01T10:00:00.000Z'],
      ['Found it.', 'IDENTIFIED', '2026-02-01T11:30:00.000Z'],
      ['Resolved.', 'RESOLVED', '2026-02-01T12:00:00.000Z'],
    ]);
    expect(incident.lastUpdateStatus).toBe('RESOLVED');
  });

  it('breaks ties of publicIncidentUpdateDate by creation order', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const date = '2026-02-01T10:00:00.000Z';
    const incident = await api.incident([s], {
      incidentUpdates: ['first', 'second', 'third'].map((description, i) => ({ description, status: (['MONITORING', 'IDENTIFIED', 'INVESTIGATING'] as const)[i], publicIncidentUpdateDate: date })),
    });
    expect(incident.incidentUpdates.map((u) => u.description)).toEqual(['first', 'second', 'third']);
    expect(incident.lastUpdateStatus).toBe('INVESTIGATING');
  });
});

describe('list (endpoint 2)', () => {
  it('pages newest first with a stable cursor, length per page and nextId null at the end', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await api.incident([s], { name: `Incident ${i}` })).id);
      if (i !== 2) clock.advance(minute); // incidents 2 and 3 share a created_at: the id breaks the tie
    }
    const first = await api.get(`${INCIDENTS}?limit=2`);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['length', 'entries', 'nextId']);
    expect(first.body.length).toBe(2);
    expect(first.body.entries.map((e: IncidentBody) => e.id)).toEqual([ids[4], ids[3]]);
    expect(typeof first.body.nextId).toBe('string');

    // An insert between pages does not shift the walk.
    await api.incident([s], { name: 'Newer' });
    const second = await api.get(`${INCIDENTS}?limit=2&nextId=${encodeURIComponent(first.body.nextId)}`);
    expect(second.body.entries.map((e: IncidentBody) => e.id)).toEqual([ids[2], ids[1]]);
    const third = await api.get(`${INCIDENTS}?limit=2&nextId=${encodeURIComponent(second.body.nextId)}`);
    expect(third.body).toEqual({ length: 1, entries: [expect.objectContaining({ id: ids[0] })], nextId: null });

    const all = await api.get(INCIDENTS);
    expect(all.body.length).toBe(6);
    expect(all.body.nextId).toBeNull();
    // Entries have exactly the shape of GET /{id}.
    const one = await api.get(`${INCIDENTS}/${ids[0]}`);
    expect(all.body.entries[5]).toEqual(one.body);
  });

  it('filters by serviceId and by status=open|resolved, and pages within a filter', async () => {
    const { api } = await accountWithApi(server);
    const a = await api.service('A');
    const b = await api.service('B');
    const onA = await api.incident([a]);
    clock.advance(minute);
    const onBoth = await api.incident([b, a]);
    clock.advance(minute);
    const onB = await api.incident([b], { incidentUpdates: [{ description: 'Over.', status: 'RESOLVED' }] });
    const ids = async (query: string) => (await api.get(`${INCIDENTS}?${query}`)).body.entries.map((e: IncidentBody) => e.id);

    expect(await ids(`serviceId=${a.id}`)).toEqual([onBoth.id, onA.id]);
    expect(await ids(`serviceId=${b.id}`)).toEqual([onB.id, onBoth.id]);
    expect(await ids(`serviceId=${b.id}&status=open`)).toEqual([onBoth.id]);
    expect(await ids('status=open')).toEqual([onBoth.id, onA.id]);
    expect(await ids('status=resolved')).toEqual([onB.id]);
    expect(await ids('serviceId=01900000-0000-7000-8000-000000000000')).toEqual([]);

    const page = await api.get(`${INCIDENTS}?serviceId=${a.id}&limit=1`);
    expect(page.body.entries.map((e: IncidentBody) => e.id)).toEqual([onBoth.id]);
    const next = await api.get(`${INCIDENTS}?serviceId=${a.id}&limit=1&nextId=${encodeURIComponent(page.body.nextId)}`);
    expect(next.body).toEqual({ length: 1, entries: [expect.objectContaining({ id: onA.id })], nextId: null });
    // A cursor belongs to the list (and filters) that issued it.
    expect((await api.get(`${INCIDENTS}?limit=1&nextId=${encodeURIComponent(page.body.nextId)}`)).status).toBe(400);
  });
});

describe('status pages', () => {
  let pageCount = 0;
  const page = async (api: Api, services: ServiceBody[][]) => {
    const response = await api.post('/v1/status-pages', {
      name: 'Status',
      url: `incidents-e2e-${Date.now()}-${pageCount++}`,
      cards: services.map((list, i) => ({ name: `Card ${i}`, services: list.map((s) => ({ id: s.id })) })),
    });
    expect(response.status).toBe(201);
    return response.body as { id: string };
  };

  it('filters the list by statusPageId: incidents touching any service on its cards', async () => {
    const { api } = await accountWithApi(server);
    const [a, b, c] = [await api.service('A'), await api.service('B'), await api.service('C')];
    const statusPage = await page(api, [[a], [b]]);
    const onA = await api.incident([a]);
    clock.advance(minute);
    const onBC = await api.incident([c, b], { incidentUpdates: [{ description: 'Done.', status: 'RESOLVED' }] });
    clock.advance(minute);
    await api.incident([c]);
    const ids = async (query: string) => {
      const response = await api.get(`${INCIDENTS}?statusPageId=${statusPage.id}${query}`);
      expect(response.status).toBe(200);
      return response.body.entries.map((e: IncidentBody) => e.id);
    };
    expect(await ids('')).toEqual([onBC.id, onA.id]);
    expect(await ids('&status=open')).toEqual([onA.id]);
    expect(await ids(`&serviceId=${b.id}`)).toEqual([onBC.id]);
    expect(await ids(`&serviceId=${c.id}`)).toEqual([]);
    const first = await api.get(`${INCIDENTS}?statusPageId=${statusPage.id}&limit=1`);
    const next = await api.get(`${INCIDENTS}?statusPageId=${statusPage.id}&limit=1&nextId=${encodeURIComponent(first.body.nextId)}`);
    expect([...first.body.entries, ...next.body.entries].map((e: IncidentBody) => e.id)).toEqual([onBC.id, onA.id]);
    expect(next.body.nextId).toBeNull();

    // An unknown page, or another account's, matches nothing.
    const other = await accountWithApi(server);
    expect((await other.api.get(`${INCIDENTS}?statusPageId=${statusPage.id}`)).body).toEqual({ length: 0, entries: [], nextId: null });
  });

  it('gives status pages (endpoint 8) their open and recently resolved incidents in the full shape', async () => {
    const { api } = await accountWithApi(server);
    const [a, b] = [await api.service('A'), await api.service('B')];
    await page(api, [[a]]);
    const open = await api.incident([a]);
    const resolvedLongAgo = await api.incident([a], {
      incidentUpdates: [
        { description: 'Down.', publicIncidentUpdateDate: '2026-01-01T10:00:00Z' },
        { description: 'Up.', status: 'RESOLVED', publicIncidentUpdateDate: '2026-01-01T11:00:00Z' },
      ],
    });
    clock.advance(minute);
    const resolvedRecently = await api.incident([a], { incidentUpdates: [{ description: 'Blip.', status: 'RESOLVED', publicIncidentUpdateDate: '2026-02-27T10:00:00Z' }] });
    await api.incident([b]);
    const pages = await api.get('/v1/status-pages');
    expect(pages.status).toBe(200);
    const incidents = pages.body.entries[0].incidents;
    expect(incidents.map((i: IncidentBody) => i.id)).toEqual([resolvedRecently.id, open.id]);
    expect(incidents[1]).toEqual((await api.get(`${INCIDENTS}/${open.id}`)).body);
    expect(incidents.map((i: IncidentBody) => i.id)).not.toContain(resolvedLongAgo.id);
  });
});

describe('PUT and PATCH (endpoint 4 and the checkly CLI’s PATCH)', () => {
  it('PUT replaces name, severity and services; updates stay; updated_at and the ETag move', async () => {
    const { account, api } = await accountWithApi(server);
    const a = await api.service('A');
    const b = await api.service('B');
    const incident = await api.incident([a]);
    clock.advance(minute);
    const response = await api.put(`${INCIDENTS}/${incident.id}`, {
      name: 'Renamed',
      severity: 'MINOR',
      services: [{ id: b.id }, { id: a.id }],
      incidentUpdates: [{ description: 'not part of a PUT: ignored' }],
      lastUpdateStatus: 'RESOLVED',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(response.body).toEqual({
      ...incident,
      name: 'Renamed',
      severity: 'MINOR',
      services: [b, a].map((s) => ({ ...s, accountId: account.id })),
      updated_at: now(),
    });
    expect((await api.get(`${INCIDENTS}/${incident.id}`)).text).toBe(response.text);

    // The same PUT again changes nothing: no event, same ETag and updated_at.
    clock.advance(minute);
    const again = await api.put(`${INCIDENTS}/${incident.id}`, { name: 'Renamed', severity: 'MINOR', services: [{ id: b.id }, { id: a.id }] });
    expect(again.headers.get('etag')).toBe('"2"');
    expect(again.text).toBe(response.text);
  });

  it('PATCH changes only the fields it names (the checkly CLI sends {severity})', async () => {
    const { api } = await accountWithApi(server);
    const a = await api.service('A');
    const incident = await api.incident([a]);
    clock.advance(minute);
    const response = await api.patch(`${INCIDENTS}/${incident.id}`, { severity: 'CRITICAL' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...incident, severity: 'CRITICAL', updated_at: now() });
    const renamed = await api.patch(`${INCIDENTS}/${incident.id}`, { name: ' Short ' });
    expect(renamed.body).toMatchObject({ name: 'Short', severity: 'CRITICAL' });
    expect(renamed.headers.get('etag')).toBe('"3"');
  });
});

describe('incident updates (endpoints 5–7, update list and delete)', () => {
  it('posts an update (200) defaulting status and date, lists updates chronologically, gets and edits one', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const incident = await api.incident([s], { incidentUpdates: [{ description: 'Looking.', status: 'IDENTIFIED' }] });
    clock.advance(minute);

    const posted = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: ' Still on it. ', id: 'ignored' });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('etag')).toBe('"2"');
    expect(posted.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: 'Still on it.',
      status: 'IDENTIFIED',
      publicIncidentUpdateDate: now(),
      notifySubscribers: false,
      created_at: now(),
    });

    // Backdated: goes before the first one and does not decide lastUpdateStatus.
    const backdated = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, {
      description: 'Earlier note.',
      status: 'INVESTIGATING',
      publicIncidentUpdateDate: '2026-03-01T09:00:00.000Z',
    });
    const list = await api.get(`${INCIDENTS}/${incident.id}/incident-updates`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([backdated.body, incident.incidentUpdates[0], posted.body]);
    const after = await api.get(`${INCIDENTS}/${incident.id}`);
    expect(after.body).toMatchObject({ lastUpdateStatus: 'IDENTIFIED', updated_at: now() });
    expect(after.body.incidentUpdates).toEqual(list.body);

    const one = await api.get(`${INCIDENTS}/${incident.id}/incident-updates/${posted.body.id}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('etag')).toBe('"3"');
    expect(one.text).toBe(posted.text);

    clock.advance(minute);
    const edited = await api.put(`${INCIDENTS}/${incident.id}/incident-updates/${posted.body.id}`, { description: 'Reworded.', notifySubscribers: true });
    expect(edited.status).toBe(200);
    // Left out: status and date keep their values; notifySubscribers is never changed by an edit.
    expect(edited.body).toEqual({ ...posted.body, description: 'Reworded.' });
    expect((await api.get(`${INCIDENTS}/${incident.id}`)).body.updated_at).toBe(now());

    const resolvedByEdit = await api.put(`${INCIDENTS}/${incident.id}/incident-updates/${posted.body.id}`, { description: 'Reworded.', status: 'RESOLVED' });
    expect(resolvedByEdit.body.status).toBe('RESOLVED');
    expect((await api.get(`${INCIDENTS}/${incident.id}`)).body.lastUpdateStatus).toBe('RESOLVED');
  });

  it('records notifySubscribers on a newly posted update in the event, for delivery to follow', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const incident = await api.incident([s]);
    const posted = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Tell everyone.', notifySubscribers: true });
    expect(posted.body.notifySubscribers).toBe(true);
    const history = await api.get(`${INCIDENTS}/${incident.id}/history`);
    expect(history.body.entries[2]).toMatchObject({ type: 'IncidentUpdatePosted', data: { updateId: posted.body.id, notifySubscribers: true } });
  });

  it('deletes an update (204, then 404) but never the only one (409)', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const incident = await api.incident([s]);
    const only = incident.incidentUpdates[0];
    const refused = await api.delete(`${INCIDENTS}/${incident.id}/incident-updates/${only.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ statusCode: 409, error: 'Conflict', message: expect.stringMatching(/only/) });

    const resolved = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Fixed.', status: 'RESOLVED' });
    const removed = await api.delete(`${INCIDENTS}/${incident.id}/incident-updates/${resolved.body.id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await api.get(`${INCIDENTS}/${incident.id}/incident-updates/${resolved.body.id}`)).status).toBe(404);
    expect((await api.put(`${INCIDENTS}/${incident.id}/incident-updates/${resolved.body.id}`, { description: 'x' })).status).toBe(404);
    expect((await api.delete(`${INCIDENTS}/${incident.id}/incident-updates/${resolved.body.id}`)).status).toBe(404);
    // Deleting the resolving update re-opens the incident.
    expect((await api.get(`${INCIDENTS}/${incident.id}`)).body).toMatchObject({ lastUpdateStatus: 'INVESTIGATING', incidentUpdates: [only] });
  });
});

describe('lifecycle', () => {
  it('goes INVESTIGATING → IDENTIFIED → MONITORING → RESOLVED → re-opened, and the status filter follows', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const incident = await api.incident([s]);
    const inList = async (status: string) => (await api.get(`${INCIDENTS}?status=${status}`)).body.entries.some((e: IncidentBody) => e.id === incident.id);
    const steps: [string, boolean][] = [
      ['IDENTIFIED', true],
      ['MONITORING', true],
      ['RESOLVED', false],
      ['INVESTIGATING', true],
    ];
    expect(await inList('open')).toBe(true);
    for (const [status, open] of steps) {
      clock.advance(minute);
      const posted = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: `Now ${status}.`, status });
      expect(posted.status).toBe(200);
      const current = await api.get(`${INCIDENTS}/${incident.id}`);
      expect(current.body.lastUpdateStatus).toBe(status);
      expect(current.body.updated_at).toBe(now());
      expect([await inList('open'), await inList('resolved')]).toEqual([open, !open]);
    }
    const final = await api.get(`${INCIDENTS}/${incident.id}`);
    expect(final.body.incidentUpdates.map((u: { status: string }) => u.status)).toEqual(['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED', 'INVESTIGATING']);
    // An update without status on a resolved incident keeps it resolved.
    await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Resolved again.', status: 'RESOLVED' });
    const note = await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Post-mortem published.' });
    expect(note.body.status).toBe('RESOLVED');
  });
});

describe('asOf', () => {
  it('returns the incident as it stood at that time, rebuilt from its events', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('API');
    const t0 = now();
    const incident = await api.incident([s]);
    clock.advance(minute);
    const t1 = now();
    await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Found it.', status: 'IDENTIFIED' });
    clock.advance(minute);
    await api.patch(`${INCIDENTS}/${incident.id}`, { name: 'Renamed', severity: 'MINOR' });
    clock.advance(minute);

    const atCreation = await api.get(`${INCIDENTS}/${incident.id}?asOf=${encodeURIComponent(t0)}`);
    expect(atCreation.status).toBe(200);
    expect(atCreation.body).toEqual(incident);
    expect(atCreation.headers.get('etag')).toBe('"1"');

    const between = await api.get(`${INCIDENTS}/${incident.id}?asOf=${encodeURIComponent('2026-03-01T10:01:30+00:00')}`);
    expect(between.body).toMatchObject({ name: incident.name, severity: 'MAJOR', lastUpdateStatus: 'IDENTIFIED', updated_at: t1 });
    expect(between.body.incidentUpdates).toHaveLength(2);
    expect(between.headers.get('etag')).toBe('"2"');

    // Now or later: the current state, byte for byte.
    const current = await api.get(`${INCIDENTS}/${incident.id}`);
    expect((await api.get(`${INCIDENTS}/${incident.id}?asOf=2030-01-01`)).text).toBe(current.text);
    // Before it existed: nothing to show.
    expect((await api.get(`${INCIDENTS}/${incident.id}?asOf=2026-02-28`)).status).toBe(404);
  });
});

describe('delete and history', () => {
  it('deletes (204): gone from every read, while history still shows it to an ADMIN key only', async () => {
    const { account, api } = await accountWithApi(server);
    const readWrite = new Api(server.http, (await account.newKey('READ_WRITE')).apiKey);
    const readOnly = new Api(server.http, (await account.newKey('READ_ONLY')).apiKey);
    const s = await api.service('API');
    const incident = await api.incident([s]);
    const update = incident.incidentUpdates[0];
    clock.advance(minute);
    await readWrite.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'By another key.', status: 'MONITORING' });

    const before = await readOnly.get(`${INCIDENTS}/${incident.id}/history`);
    expect(before.status).toBe(200);
    expect((await readOnly.delete(`${INCIDENTS}/${incident.id}`)).status).toBe(403);

    clock.advance(minute);
    const deleted = await api.delete(`${INCIDENTS}/${incident.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');

    const base = `${INCIDENTS}/${incident.id}`;
    for (const response of [
      await api.get(base),
      await api.get(`${base}?asOf=${START}`),
      await api.put(base, { name: 'x', severity: 'MINOR', services: [{ id: s.id }] }),
      await api.patch(base, { severity: 'MINOR' }),
      await api.delete(base),
      await api.get(`${base}/incident-updates`),
      await api.post(`${base}/incident-updates`, { description: 'x' }),
      await api.get(`${base}/incident-updates/${update.id}`),
      await api.put(`${base}/incident-updates/${update.id}`, { description: 'x' }),
      await api.delete(`${base}/incident-updates/${update.id}`),
      await readWrite.get(`${base}/history`),
      await readOnly.get(`${base}/history`),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    }
    expect((await api.get(INCIDENTS)).body.entries.map((e: IncidentBody) => e.id)).not.toContain(incident.id);

    const history = await api.get(`${base}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual({
      entries: [
        {
          revision: 0,
          type: 'IncidentCreated',
          occurredAt: START,
          actor: { keyId: account.keyId, keyName: 'test' },
          data: { incidentId: incident.id, accountId: account.id, name: incident.name, severity: 'MAJOR', serviceIds: [s.id] },
        },
        {
          revision: 1,
          type: 'IncidentUpdatePosted',
          occurredAt: START,
          actor: { keyId: account.keyId, keyName: 'test' },
          data: {
            incidentId: incident.id,
            updateId: update.id,
            description: update.description,
            status: 'INVESTIGATING',
            publicIncidentUpdateDate: START,
            notifySubscribers: false,
          },
        },
        {
          revision: 2,
          type: 'IncidentUpdatePosted',
          occurredAt: '2026-03-01T10:01:00.000Z',
          actor: { keyId: expect.any(String), keyName: 'test READ_WRITE' },
          data: expect.objectContaining({ description: 'By another key.', status: 'MONITORING' }),
        },
        { revision: 3, type: 'IncidentDeleted', occurredAt: '2026-03-01T10:02:00.000Z', actor: { keyId: account.keyId, keyName: 'test' }, data: { incidentId: incident.id } },
      ],
    });
    expect(before.body.entries).toEqual(history.body.entries.slice(0, 3));
  });
});

describe('services and incidents', () => {
  it('refuses to delete a service an open incident uses (409); once resolved it can go and drops out of the incident', async () => {
    const { api } = await accountWithApi(server);
    const used = await api.service('Used');
    const other = await api.service('Other');
    const incident = await api.incident([used, other]);
    const refused = await api.delete(`/v1/status-pages/services/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ statusCode: 409, error: 'Conflict', message: expect.stringContaining(incident.id) });
    expect((await api.get(`/v1/status-pages/services/${used.id}`)).status).toBe(200);

    await api.post(`${INCIDENTS}/${incident.id}/incident-updates`, { description: 'Fixed.', status: 'RESOLVED' });
    expect((await api.delete(`/v1/status-pages/services/${used.id}`)).status).toBe(204);
    const after = await api.get(`${INCIDENTS}/${incident.id}`);
    expect(after.body.services.map((s: ServiceBody) => s.id)).toEqual([other.id]);
  });

  it('shows the current service name in incidents (joined at read time)', async () => {
    const { api } = await accountWithApi(server);
    const s = await api.service('Old name');
    const incident = await api.incident([s]);
    clock.advance(minute);
    await api.put(`/v1/status-pages/services/${s.id}`, { name: 'New name' });
    const got = await api.get(`${INCIDENTS}/${incident.id}`);
    expect(got.body.services[0]).toMatchObject({ name: 'New name', updated_at: now() });
    expect(got.body.updated_at).toBe(START);
  });
});

describe('rebuild', () => {
  it('rebuilding the incident read model from the log gives byte-identical GET responses', async () => {
    const { api } = await accountWithApi(server);
    const a = await api.service('A');
    const b = await api.service('B');
    const first = await api.incident([a, b], {
      incidentUpdates: [
        { description: 'One.', publicIncidentUpdateDate: '2026-02-01T10:00:00Z' },
        { description: 'Two.', status: 'IDENTIFIED', publicIncidentUpdateDate: '2026-02-01T09:00:00Z', notifySubscribers: true },
      ],
    });
    clock.advance(minute);
    const second = await api.incident([b]);
    clock.advance(minute);
    const extra = await api.post(`${INCIDENTS}/${first.id}/incident-updates`, { description: 'Three.', status: 'RESOLVED' });
    await api.put(`${INCIDENTS}/${first.id}/incident-updates/${first.incidentUpdates[0].id}`, { description: 'One, edited.' });
    await api.patch(`${INCIDENTS}/${second.id}`, { services: [{ id: a.id }, { id: b.id }] });
    const gone = await api.incident([a]);
    await api.delete(`${INCIDENTS}/${gone.id}`);

    const paths = [
      INCIDENTS,
      `${INCIDENTS}?limit=1`,
      `${INCIDENTS}?status=open`,
      `${INCIDENTS}?serviceId=${a.id}`,
      `${INCIDENTS}/${first.id}`,
      `${INCIDENTS}/${second.id}`,
      `${INCIDENTS}/${first.id}/incident-updates`,
      `${INCIDENTS}/${first.id}/incident-updates/${extra.body.id}`,
      `${INCIDENTS}/${gone.id}`,
    ];
    const snapshot = async () => Promise.all(paths.map(async (p) => {
      const r = await api.get(p);
      return { path: p, status: r.status, etag: r.headers.get('etag'), text: r.text };
    }));
    const before = await snapshot();
    expect(before.filter((r) => r.status === 200)).toHaveLength(paths.length - 1);

    const engine = server.app.get<ProjectionEngine>(PROJECTION_ENGINE);
    const collectionBefore = engine.collection('incidents');
    await engine.rebuild(['incidents']);
    expect(engine.collection('incidents')).not.toBe(collectionBefore);
    expect(await snapshot()).toEqual(before);
  });
});


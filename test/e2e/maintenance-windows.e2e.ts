import { MaintenanceDirectory } from '../../libs/maintenance/src/read/maintenance-directory';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Database upgrade',
  tags: ['db'],
  startsAt: '2026-12-01T01:00:00Z',
  endsAt: '2026-12-01T03:00:00.000Z',
  ...over,
});

describe('maintenance windows API', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_DAEMON: 'off' } });
    account = await server.account();
  });
  afterAll(() => server.close());

  const post = (payload: unknown, key = account.key, headers?: Record<string, string>) =>
    server.http.post('/v1/maintenance-windows', payload, { key, headers });
  const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path);

  it('creates a one-off window with defaults, reads it back with its ETag, updates, deletes', async () => {
    const created = await post({ ...body(), id: 'ignored', created_at: '2000-01-01' });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Database upgrade',
      tags: ['db'],
      startsAt: '2026-12-01T01:00:00.000Z',
      endsAt: '2026-12-01T03:00:00.000Z',
      repeatInterval: null,
      repeatUnit: null,
      repeatEndsAt: null,
      timezone: 'UTC',
      serviceIds: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id;
    const read = await server.http.get(`/v1/maintenance-windows/${id}`, { key: account.key });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"0"');
    expect(read.body).toEqual(created.body);

    const repeat = { repeatInterval: 1, repeatUnit: 'week', repeatEndsAt: '2027-06-01', timezone: 'europe/berlin' };
    const stale = await server.http.put(`/v1/maintenance-windows/${id}`, body(repeat), { key: account.key, headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(412);
    const put = await server.http.put(`/v1/maintenance-windows/${id}`, body(repeat), { key: account.key, headers: { 'if-match': '"0"' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe('"1"');
    expect(put.body).toMatchObject({ repeatInterval: 1, repeatUnit: 'WEEK', repeatEndsAt: '2027-06-01T00:00:00.000Z', timezone: 'Europe/Berlin' });
    expect((await server.http.get(`/v1/maintenance-windows/${id}`, { key: account.key })).body).toEqual(put.body);

    expect((await server.http.delete(`/v1/maintenance-windows/${id}`, { key: account.key })).status).toBe(204);
    expect((await server.http.get(`/v1/maintenance-windows/${id}`, { key: account.key })).status).toBe(404);
    expect((await server.http.delete(`/v1/maintenance-windows/${id}`, { key: account.key })).status).toBe(404);
  });

  it('lists newest first, paginated, per account; malformed and foreign ids are 404', async () => {
    const own = await server.account('Lists');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(body({ name: `w${i}` }), own.key)).body.id);
    const first = await server.http.get('/v1/maintenance-windows?limit=2', { key: own.key });
    expect(first.status).toBe(200);
    expect(first.body.length).toBe(2);
    expect(first.body.entries.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    const second = await server.http.get(`/v1/maintenance-windows?limit=2&nextId=${first.body.nextId}`, { key: own.key });
    expect(second.body.entries.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(second.body.nextId).toBeNull();
    expect((await server.http.get('/v1/maintenance-windows?limit=0', { key: own.key })).status).toBe(400);
    expect((await server.http.get('/v1/maintenance-windows?nextId=forged', { key: own.key })).status).toBe(400);

    const other = await server.account('Other');
    expect((await server.http.get(`/v1/maintenance-windows/${ids[0]}`, { key: other.key })).status).toBe(404);
    expect((await server.http.put(`/v1/maintenance-windows/${ids[0]}`, body(), { key: other.key })).status).toBe(404);
    expect((await server.http.delete(`/v1/maintenance-windows/${ids[0]}`, { key: other.key })).status).toBe(404);
    expect((await server.http.get('/v1/maintenance-windows', { key: other.key })).body.entries).toEqual([]);
    expect((await server.http.get('/v1/maintenance-windows/not-a-uuid', { key: own.key })).status).toBe(404);
  });

  it.each([
    ['end before start', { endsAt: '2026-12-01T00:00:00Z' }, ['endsAt']],
    ['a bad unit', { repeatInterval: 1, repeatUnit: 'YEAR' }, ['repeatUnit']],
    ['a unit without interval', { repeatUnit: 'DAY' }, ['repeatInterval']],
    ['interval 0', { repeatInterval: 0, repeatUnit: 'DAY' }, ['repeatInterval']],
    ['interval 2.5', { repeatInterval: 2.5, repeatUnit: 'DAY' }, ['repeatInterval']],
    ['a bad zone', { timezone: 'Mars/Olympus' }, ['timezone']],
    ['an offset for a zone', { timezone: '+01:00' }, ['timezone']],
    ['a bad date', { startsAt: 'tomorrow' }, ['startsAt']],
    ['an impossible date', { endsAt: '2026-02-30T00:00:00Z' }, ['endsAt']],
    ['no name', { name: '  ' }, ['name']],
    ['tags not an array', { tags: 'db' }, ['tags']],
    ['a window longer than its repeat', { endsAt: '2026-12-03T00:00:00Z', repeatInterval: 1, repeatUnit: 'DAY' }, ['endsAt']],
    ['repeatEndsAt without a repeat', { repeatEndsAt: '2027-01-01T00:00:00Z' }, ['repeatEndsAt']],
    ['repeatEndsAt before the start', { repeatInterval: 1, repeatUnit: 'DAY', repeatEndsAt: '2026-01-01T00:00:00Z' }, ['repeatEndsAt']],
    ['a service id that is not a string', { serviceIds: [5] }, ['serviceIds']],
  ])('refuses %s with 400 naming the field, nothing stored', async (_label, over, expected) => {
    const own = await server.account('Validation');
    const res = await post(body(over), own.key);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(paths(res)).toEqual(expect.arrayContaining(expected));
    expect((await server.http.get('/v1/maintenance-windows', { key: own.key })).body.entries).toEqual([]);
  });

  it('refuses unknown, foreign, malformed and repeated service ids (400 with each index), and keeps a service a window names (409 on delete)', async () => {
    const own = await server.account('Services');
    const other = await server.account('Foreign');
    const mine = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: own.key })).body.id;
    const theirs = (await server.http.post('/v1/status-pages/services', { name: 'Theirs' }, { key: other.key })).body.id;
    const unknown = '01900000-0000-7000-8000-000000000999';
    const bad = await post(body({ serviceIds: [mine, theirs, unknown, 'nope'] }), own.key);
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['serviceIds[1]', 'serviceIds[2]', 'serviceIds[3]']);
    expect((await post(body({ serviceIds: [mine, mine.toUpperCase()] }), own.key)).status).toBe(400);

    const ok = await post(body({ serviceIds: [mine.toUpperCase()] }), own.key);
    expect(ok.status).toBe(201);
    expect(ok.body.serviceIds).toEqual([mine]);
    const blocked = await server.http.delete(`/v1/status-pages/services/${mine}`, { key: own.key });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toMatch(/maintenance window "Database upgrade"/);
    await server.http.delete(`/v1/maintenance-windows/${ok.body.id}`, { key: own.key });
    expect((await server.http.delete(`/v1/status-pages/services/${mine}`, { key: own.key })).status).toBe(204);
  });

  it('never answers 500 to odd bodies', async () => {
    for (const payload of [null, [], 'x', { name: 5 }, { ...body(), startsAt: 12 }, { ...body(), repeatUnit: 7, repeatInterval: 'x' }, { ...body(), serviceIds: {} }]) {
      const res = await post(payload);
      expect(res.status).toBe(400);
    }
    const created = (await post(body())).body.id;
    expect((await server.http.put(`/v1/maintenance-windows/${created}`, { name: 'x' }, { key: account.key })).status).toBe(400);
  });

  it('replays a create sent again with the same Idempotency-Key; another body is 409', async () => {
    const own = await server.account('Idem');
    const headers = { 'idempotency-key': 'mw-1' };
    const first = await post(body(), own.key, headers);
    const retry = await post(body(), own.key, headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect((await post(body({ name: 'Other' }), own.key, headers)).status).toBe(409);
    expect((await server.http.get('/v1/maintenance-windows', { key: own.key })).body.length).toBe(1);
  });

  it('a read-only key may list but not write', async () => {
    const readOnly = await account.newKey('READ_ONLY');
    expect((await server.http.get('/v1/maintenance-windows', { key: readOnly.apiKey })).status).toBe(200);
    expect((await post(body(), readOnly.apiKey)).status).toBe(403);
  });

  it('windowsActiveAt and upcoming answer from the read model, by tag or service, in the window’s zone', async () => {
    const own = await server.account('Queries');
    const service = (await server.http.post('/v1/status-pages/services', { name: 'DB' }, { key: own.key })).body.id;
    // Every day 02:00–04:00 in Berlin from 1 March 2026; Berlin springs forward on 29 March.
    const nightly = (
      await post(body({ name: 'Nightly', tags: ['db'], startsAt: '2026-03-01T01:00:00Z', endsAt: '2026-03-01T03:00:00Z', repeatInterval: 1, repeatUnit: 'DAY', timezone: 'Europe/Berlin' }), own.key)
    ).body;
    const oneOff = (await post(body({ name: 'Move', tags: ['web'], serviceIds: [service], startsAt: '2026-03-29T10:00:00Z', endsAt: '2026-03-29T11:00:00Z' }), own.key)).body;
    const directory = server.app.get(MaintenanceDirectory);

    const active = await directory.windowsActiveAt(own.id, new Date('2026-03-29T01:30:00Z'), { tags: ['db'] });
    expect(active.map((a) => [a.window.id, a.start.toISOString(), a.end.toISOString()])).toEqual([
      [nightly.id, '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z'],
    ]);
    expect(await directory.windowsActiveAt(own.id, new Date('2026-03-29T01:30:00Z'), { tags: ['web'] })).toEqual([]);
    expect((await directory.windowsActiveAt(own.id, new Date('2026-03-29T10:30:00Z'), { serviceIds: [service] })).map((a) => a.window.id)).toEqual([oneOff.id]);
    expect(await directory.windowsActiveAt(account.id, new Date('2026-03-29T01:30:00Z'))).toEqual([]);

    const upcoming = await directory.upcoming(own.id, new Date('2026-03-28T12:00:00Z'), new Date('2026-03-30T12:00:00Z'));
    expect(upcoming.map((u) => `${u.window.name} ${u.start.toISOString()}`)).toEqual([
      'Nightly 2026-03-29T01:00:00.000Z',
      'Move 2026-03-29T10:00:00.000Z',
      'Nightly 2026-03-30T00:00:00.000Z',
    ]);
    expect(await directory.maintenanceEnd(own.id, new Date('2026-03-29T01:30:00Z'), { tags: ['db'] })).toEqual(new Date('2026-03-29T02:00:00Z'));
    expect(await directory.maintenanceEnd(own.id, new Date('2026-03-29T01:30:00Z'), { tags: ['web'] })).toBeNull();
  });
});

import { QueryBus } from '@nestjs/cqrs';
import { AuditQuery } from '../../libs/audit/src/audit.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Incident templates over real HTTP: CRUD with ETags, validation, roles, isolation between accounts, deleted services. */
const TEMPLATES = '/v1/incident-templates';
const body = (over: Record<string, unknown> = {}) => ({ name: 'Database failover', title: 'Degraded database performance', severity: 'MAJOR', body: 'We are failing over.', ...over });
const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path);

describe('incident templates API', () => {
  let server: TestServer;
  let account: TestAccount;
  let service: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_DAEMON: 'off', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account('Acme');
    service = (await server.http.post('/v1/status-pages/services', { name: 'Database' }, { key: account.key })).body.id;
  });
  afterAll(() => server.close());

  it('creates with defaults, reads back with its ETag, replaces (If-Match), deletes', async () => {
    const created = await server.http.post(TEMPLATES, { ...body({ services: [{ id: service.toUpperCase(), name: 'ignored' }] }), id: 'ignored' }, { key: account.key });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"0"');
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Database failover',
      title: 'Degraded database performance',
      severity: 'MAJOR',
      status: 'INVESTIGATING',
      body: 'We are failing over.',
      services: [expect.objectContaining({ id: service, name: 'Database' })],
      notifySubscribers: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id;
    const read = await server.http.get(`${TEMPLATES}/${id}`, { key: account.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const next = body({ name: '  Failover  ', status: 'IDENTIFIED', notifySubscribers: true, services: [] });
    expect((await server.http.put(`${TEMPLATES}/${id}`, next, { key: account.key, headers: { 'if-match': '"5"' } })).status).toBe(412);
    const put = await server.http.put(`${TEMPLATES}/${id}`, next, { key: account.key, headers: { 'if-match': '"0"' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe('"1"');
    expect(put.body).toMatchObject({ name: 'Failover', status: 'IDENTIFIED', notifySubscribers: true, services: [] });
    // The same content again writes nothing: the ETag stays.
    expect((await server.http.put(`${TEMPLATES}/${id}`, next, { key: account.key })).headers.get('etag')).toBe('"1"');

    expect((await server.http.delete(`${TEMPLATES}/${id}`, { key: account.key })).status).toBe(204);
    expect((await server.http.get(`${TEMPLATES}/${id}`, { key: account.key })).status).toBe(404);
    expect((await server.http.delete(`${TEMPLATES}/${id}`, { key: account.key })).status).toBe(404);
    expect((await server.http.put(`${TEMPLATES}/${id}`, body(), { key: account.key })).status).toBe(404);
  });

  it.each([
    ['no name', { name: ' ' }, ['name']],
    ['a name of 256 characters', { name: 'x'.repeat(256) }, ['name']],
    ['no title', { title: undefined }, ['title']],
    ['a bad severity', { severity: 'HUGE' }, ['severity']],
    ['a bad status', { status: 'DONE' }, ['status']],
    ['an empty body', { body: '' }, ['body']],
    ['a body of 10,001 characters', { body: 'x'.repeat(10_001) }, ['body']],
    ['services not a list', { services: 'all' }, ['services']],
    ['a service that is not an object', { services: ['x'] }, ['services[0]']],
    ['51 services', { services: Array.from({ length: 51 }, () => ({ id: '01900000-0000-7000-8000-000000000999' })) }, ['services']],
    ['notifySubscribers not a boolean', { notifySubscribers: 'yes' }, ['notifySubscribers']],
    ['several mistakes at once', { name: '', severity: 'HUGE', body: 5 }, ['name', 'severity', 'body']],
  ])('refuses %s with 400 and details naming the field, nothing stored', async (_label, over, expected) => {
    const own = await server.account('Validation');
    const res = await server.http.post(TEMPLATES, body(over), { key: own.key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
    expect([...new Set(paths(res))]).toEqual(expected);
    expect((await server.http.get(TEMPLATES, { key: own.key })).body.entries).toEqual([]);
  });

  it('refuses malformed, unknown, foreign and repeated services at their index; a body that is no object is a 400', async () => {
    const own = await server.account('Services');
    const other = await server.account('Foreign');
    const mine = (await server.http.post('/v1/status-pages/services', { name: 'API' }, { key: own.key })).body.id;
    const theirs = (await server.http.post('/v1/status-pages/services', { name: 'Theirs' }, { key: other.key })).body.id;
    const services = [mine, theirs, '01900000-0000-7000-8000-000000000999', 'nope', mine.toUpperCase()].map((id) => ({ id }));
    const bad = await server.http.post(TEMPLATES, body({ services }), { key: own.key });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { path: 'services[1].id', message: 'id names no service of this account' },
      { path: 'services[2].id', message: 'id names no service of this account' },
      { path: 'services[3].id', message: 'id must be the id of a service of this account' },
      { path: 'services[4].id', message: 'id duplicates services[0].id' },
    ]);
    expect((await server.http.post(TEMPLATES, [body()], { key: own.key })).status).toBe(400);
    expect((await server.http.get(TEMPLATES, { key: own.key })).body.entries).toEqual([]);
  });

  it('keeps accounts apart: another account lists none and gets 404 on every route; malformed ids are 404', async () => {
    const own = await server.account('Isolated');
    const other = await server.account('Other');
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await server.http.post(TEMPLATES, body({ name }), { key: own.key })).body.id);
    const first = await server.http.get(`${TEMPLATES}?limit=2`, { key: own.key });
    expect(first.body.entries.map((t: { name: string }) => t.name)).toEqual(['Three', 'Two']);
    const second = await server.http.get(`${TEMPLATES}?limit=2&nextId=${first.body.nextId}`, { key: own.key });
    expect(second.body).toMatchObject({ length: 1, nextId: null, entries: [expect.objectContaining({ name: 'One' })] });
    expect((await server.http.get(`${TEMPLATES}?nextId=${first.body.nextId}`, { key: other.key })).status).toBe(400);

    expect((await server.http.get(TEMPLATES, { key: other.key })).body.entries).toEqual([]);
    expect((await server.http.get(`${TEMPLATES}/${ids[0]}`, { key: other.key })).status).toBe(404);
    expect((await server.http.put(`${TEMPLATES}/${ids[0]}`, body({ name: 'Taken over' }), { key: other.key })).status).toBe(404);
    expect((await server.http.delete(`${TEMPLATES}/${ids[0]}`, { key: other.key })).status).toBe(404);
    // A foreign template is a 404 even when the body's services would be refused.
    const refusedBody = body({ services: [{ id: 'nope' }] });
    expect((await server.http.put(`${TEMPLATES}/${ids[0]}`, refusedBody, { key: other.key })).status).toBe(404);
    expect((await server.http.get(`${TEMPLATES}/${ids[0]}`, { key: own.key })).body.name).toBe('One');
    expect((await server.http.get(`${TEMPLATES}/not-a-uuid`, { key: own.key })).status).toBe(404);
    const missing = await server.http.get(`${TEMPLATES}/01900000-0000-7000-8000-000000000999`, { key: own.key });
    expect(missing.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Incident template not found' });
  });

  it('lets a READ_ONLY key read, not write; no key is a 401', async () => {
    const id = (await server.http.post(TEMPLATES, body({ name: 'Roles' }), { key: account.key })).body.id;
    const reader = (await account.newKey('READ_ONLY')).apiKey;
    expect((await server.http.get(`${TEMPLATES}/${id}`, { key: reader })).status).toBe(200);
    expect((await server.http.get(TEMPLATES, { key: reader })).status).toBe(200);
    for (const res of [
      await server.http.post(TEMPLATES, body(), { key: reader }),
      await server.http.put(`${TEMPLATES}/${id}`, body({ name: 'No' }), { key: reader }),
      await server.http.delete(`${TEMPLATES}/${id}`, { key: reader }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
    expect((await server.http.get(`${TEMPLATES}/${id}`, { key: account.key })).body.name).toBe('Roles');
    expect((await server.http.get(TEMPLATES)).status).toBe(401);
  });

  it('drops a service deleted since the template was saved, and refuses it when the template is saved again', async () => {
    const own = await server.account('Deleted service');
    const kept = (await server.http.post('/v1/status-pages/services', { name: 'Kept' }, { key: own.key })).body.id;
    const gone = (await server.http.post('/v1/status-pages/services', { name: 'Gone' }, { key: own.key })).body.id;
    const id = (await server.http.post(TEMPLATES, body({ services: [{ id: gone }, { id: kept }] }), { key: own.key })).body.id;
    // A template does not hold its services: deleting one is not refused.
    expect((await server.http.delete(`/v1/status-pages/services/${gone}`, { key: own.key })).status).toBe(204);
    const read = await server.http.get(`${TEMPLATES}/${id}`, { key: own.key });
    expect(read.body.services.map((s: { id: string }) => s.id)).toEqual([kept]);
    expect((await server.http.get(TEMPLATES, { key: own.key })).body.entries[0].services.map((s: { name: string }) => s.name)).toEqual(['Kept']);
    const again = await server.http.put(`${TEMPLATES}/${id}`, body({ services: [{ id: gone }, { id: kept }] }), { key: own.key });
    expect(paths(again)).toEqual(['services[0].id']);
  });

  it('shows every change in the audit log as incident-template:<id>, with the key as author and the diff', async () => {
    const id = (await server.http.post(TEMPLATES, body({ name: 'Audited' }), { key: account.key })).body.id;
    await server.http.put(`${TEMPLATES}/${id}`, body({ name: 'Audited', title: 'Changed' }), { key: account.key });
    await server.http.delete(`${TEMPLATES}/${id}`, { key: account.key });
    const entries = await server.app.get(QueryBus).execute(new AuditQuery({ type: 'ListAuditEntries', accountId: account.id, filter: { resource: `incident-template:${id}` }, limit: 10 }));
    expect(entries.map((e) => [e.action, e.actor.kind, e.resource.name])).toEqual([
      ['incident template deleted', 'key', 'Audited'],
      ['incident template changed', 'key', 'Audited'],
      ['incident template created', 'key', 'Audited'],
    ]);
    expect(entries[1].changes).toEqual([{ field: 'title', before: 'Degraded database performance', after: 'Changed' }]);
    const other = await server.account('Audit other');
    expect(await server.app.get(QueryBus).execute(new AuditQuery({ type: 'ListAuditEntries', accountId: other.id, filter: { resource: 'incident-template' }, limit: 10 }))).toEqual([]);
  });
});

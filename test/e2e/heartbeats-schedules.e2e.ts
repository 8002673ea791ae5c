import { ManualClock } from '../../libs/core/src/clock';
import { PingKeys } from '../../libs/accounts/src/accounts.api';
import { CheckDirectory, HeartbeatWatchdog, SlugPings } from '../../libs/heartbeats/src/heartbeats.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const scheduled = (over: Record<string, unknown> = {}, heartbeat: Record<string, unknown> = {}) => ({
  name: 'Nightly backup',
  heartbeat: { schedule: '30 2 * * *', timezone: 'Europe/Berlin', grace: 1, graceUnit: 'hours', ...heartbeat },
  ...over,
});

describe('cron schedules, slugs and the account ping key', () => {
  // Saturday 28 March 2026, the day before Berlin springs forward.
  const clock = new ManualClock('2026-03-28T12:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off', VIGIL_PUBLIC_URL: 'https://vigil.example' } });
    account = await server.account();
  });
  afterAll(() => server.close());

  const post = (payload: unknown, key = account.key) => server.http.post('/v1/checks/heartbeat', payload, { key });
  const expect400 = async (payload: unknown, path: string) => {
    const res = await post(payload);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    return res;
  };

  describe('schedule and timezone', () => {
    it('creates a schedule check: canonical zone, no period, nextDueAt at 03:00 local on the spring-forward day', async () => {
      const created = await post(scheduled({}, { timezone: 'europe/berlin' }));
      expect(created.status).toBe(201);
      expect(created.body.heartbeat).toMatchObject({
        period: null,
        periodUnit: null,
        schedule: '30 2 * * *',
        timezone: 'Europe/Berlin',
        grace: 1,
        graceUnit: 'hours',
        nextDueAt: '2026-03-29T01:00:00.000Z',
      });
      expect(created.body.slug).toBeNull();
      const read = await server.http.get(`/v1/checks/${created.body.id}`, { key: account.key });
      expect(read.body).toEqual(created.body);
      const listed = await server.http.get('/v1/checks?limit=100', { key: account.key });
      expect(listed.body.entries.find((c: { id: string }) => c.id === created.body.id)).toEqual(created.body);
    });

    it('defaults the zone to UTC and accepts the nicknames', async () => {
      const created = await post(scheduled({}, { schedule: '@daily', timezone: undefined }));
      expect(created.status).toBe(201);
      expect(created.body.heartbeat).toMatchObject({ schedule: '@daily', timezone: 'UTC', nextDueAt: '2026-03-29T00:00:00.000Z' });
    });

    it('moves nextDueAt past the occurrence a ping stood for', async () => {
      const created = (await post(scheduled({}, { schedule: '0 9 * * 1-5', timezone: 'America/New_York' }))).body;
      // Created on a Saturday: Monday 09:00 EDT.
      expect(created.heartbeat.nextDueAt).toBe('2026-03-30T13:00:00.000Z');
      clock.set('2026-03-30T13:00:20.000Z');
      const ping = await server.http.get(`/ping/${created.heartbeat.pingToken}`);
      expect(ping.status).toBe(200);
      const read = await server.http.get(`/v1/checks/${created.id}`, { key: account.key });
      expect(read.body.heartbeat.nextDueAt).toBe('2026-03-31T13:00:00.000Z');
      clock.set('2026-03-28T12:00:00.000Z');
    });

    it('a period check shows nextDueAt once its timer runs', async () => {
      const created = (await post({ name: 'p', heartbeat: { period: 10, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes' } })).body;
      expect(created.heartbeat).toMatchObject({ period: 10, periodUnit: 'minutes', schedule: null, timezone: null, nextDueAt: null });
      await server.http.get(`/ping/${created.heartbeat.pingToken}`);
      const read = await server.http.get(`/v1/checks/${created.id}`, { key: account.key });
      expect(read.body.heartbeat.nextDueAt).toBe('2026-03-28T12:10:00.000Z');
    });

    it('the watchdog fails a silent schedule check at expectedAt + grace, across the spring-forward night', async () => {
      const created = (await post(scheduled({ name: 'dst' }))).body;
      // Expected at 03:00 CEST (01:00Z) on the spring-forward day, deadline one hour later.
      expect(created.heartbeat.nextDueAt).toBe('2026-03-29T01:00:00.000Z');
      const events = async () =>
        (await server.http.get(`/v1/checks/heartbeats/${created.id}/events?startTime=2026-03-28T00:00:00Z`, { key: account.key })).body[0].events.map(
          (e: { state: string; timestamp: string }) => `${e.state}@${e.timestamp}`,
        );
      const watchdog = server.app.get(HeartbeatWatchdog);
      clock.set('2026-03-29T01:59:59.000Z');
      await watchdog.runOnce();
      expect(await events()).toEqual([]);
      clock.set('2026-03-29T02:00:01.000Z');
      await watchdog.runOnce();
      expect(await events()).toEqual(['FAILING@2026-03-29T02:00:00.000Z']);
      // Next: 02:30 CEST on the 30th.
      const read = await server.http.get(`/v1/checks/${created.id}`, { key: account.key });
      expect(read.body.heartbeat.nextDueAt).toBe('2026-03-30T00:30:00.000Z');
      clock.set('2026-03-30T00:30:10.000Z');
      expect((await server.http.get(`/ping/${created.heartbeat.pingToken}`)).status).toBe(200);
      await watchdog.runOnce();
      expect(await events()).toEqual(['RECEIVED@2026-03-30T00:30:10.000Z', 'FAILING@2026-03-29T02:00:00.000Z']);
      expect((await server.http.get(`/v1/checks/${created.id}`, { key: account.key })).body.heartbeat.nextDueAt).toBe('2026-03-31T00:30:00.000Z');
      // On time the next night: no FAILING in between.
      clock.set('2026-03-31T00:29:30.000Z');
      await server.http.get(`/ping/${created.heartbeat.pingToken}`);
      clock.set('2026-03-31T01:20:00.000Z');
      await watchdog.runOnce();
      expect((await events())[0]).toBe('RECEIVED@2026-03-31T00:29:30.000Z');
      clock.set('2026-03-28T12:00:00.000Z');
    });

    it.each([
      ['both a period and a schedule', { period: 1, periodUnit: 'days' }, 'heartbeat.schedule'],
      ['neither', { schedule: null, timezone: null }, 'heartbeat.period'],
      ['a bad expression', { schedule: '61 * * * *' }, 'heartbeat.schedule'],
      ['six fields', { schedule: '0 * * * * *' }, 'heartbeat.schedule'],
      ['an unknown nickname', { schedule: '@reboot' }, 'heartbeat.schedule'],
      ['a schedule that never fires', { schedule: '0 0 30 2 *' }, 'heartbeat.schedule'],
      ['a schedule that is not a string', { schedule: 15 }, 'heartbeat.schedule'],
      ['a bad zone', { timezone: 'Mars/Olympus' }, 'heartbeat.timezone'],
      ['an offset for a zone', { timezone: '+02:00' }, 'heartbeat.timezone'],
      ['a zone that is not a string', { timezone: ['UTC'] }, 'heartbeat.timezone'],
      ['a very long expression', { schedule: '*'.repeat(10_000) }, 'heartbeat.schedule'],
    ])('refuses %s with 400 naming the field', async (_label, heartbeat, path) => {
      await expect400(scheduled({}, heartbeat), path);
    });

    it('refuses a timezone on a period check', async () => {
      await expect400({ name: 'p', heartbeat: { period: 1, periodUnit: 'days', grace: 0, graceUnit: 'hours', timezone: 'UTC' } }, 'heartbeat.timezone');
    });

    it('switches a check between period and schedule with PUT', async () => {
      const created = (await post({ name: 'p', heartbeat: { period: 1, periodUnit: 'days', grace: 0, graceUnit: 'hours' } })).body;
      const put = await server.http.put(`/v1/checks/heartbeat/${created.id}`, scheduled({}, { schedule: '@hourly', timezone: 'UTC' }), { key: account.key });
      expect(put.status).toBe(200);
      expect(put.body.heartbeat).toMatchObject({ period: null, schedule: '@hourly', nextDueAt: '2026-03-28T13:00:00.000Z' });
      expect(put.body.heartbeat.pingToken).toBe(created.heartbeat.pingToken);
      const bad = await server.http.put(`/v1/checks/heartbeat/${created.id}`, scheduled({}, { timezone: 'Nowhere/Land' }), { key: account.key });
      expect(bad.status).toBe(400);
      expect((await server.http.get(`/v1/checks/${created.id}`, { key: account.key })).body.heartbeat.schedule).toBe('@hourly');
    });
  });

  describe('slug', () => {
    it('stores a slug, refuses it twice in one account (409) but not in another, and frees it on delete', async () => {
      const first = await post(scheduled({ slug: 'db-backup_1' }));
      expect(first.status).toBe(201);
      expect(first.body.slug).toBe('db-backup_1');
      const again = await post(scheduled({ slug: 'db-backup_1' }));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
      const other = await server.account('Other');
      expect((await post(scheduled({ slug: 'db-backup_1' }), other.key)).status).toBe(201);
      expect((await server.http.delete(`/v1/checks/${first.body.id}`, { key: account.key })).status).toBe(204);
      expect((await post(scheduled({ slug: 'db-backup_1' }))).status).toBe(201);
    });

    it('moves a slug with PUT and frees the old one', async () => {
      const created = (await post(scheduled({ slug: 'move-me' }))).body;
      const put = await server.http.put(`/v1/checks/heartbeat/${created.id}`, scheduled({ slug: 'moved' }), { key: account.key });
      expect(put.status).toBe(200);
      expect(put.body.slug).toBe('moved');
      expect((await post(scheduled({ slug: 'move-me' }))).status).toBe(201);
      expect((await post(scheduled({ slug: 'moved' }))).status).toBe(409);
      const cleared = await server.http.put(`/v1/checks/heartbeat/${created.id}`, scheduled({ slug: '' }), { key: account.key });
      expect(cleared.body.slug).toBeNull();
      expect((await post(scheduled({ slug: 'moved' }))).status).toBe(201);
    });

    it.each([
      ['a slash', 'a/b'],
      ['1,000 characters', 'a'.repeat(1000)],
      ['capitals', 'Backup'],
      ['a space', 'my backup'],
      ['a number', 42],
    ])('refuses a slug with %s (400, path slug)', async (_label, slug) => {
      await expect400(scheduled({ slug }), 'slug');
    });

    it('checkBySlug finds the account’s live check only', async () => {
      const created = (await post(scheduled({ slug: 'lookup' }))).body;
      const directory = server.app.get(CheckDirectory);
      expect((await directory.checkBySlug(account.id, 'lookup'))?.id).toBe(created.id);
      const other = await server.account('Third');
      expect(await directory.checkBySlug(other.id, 'lookup')).toBeNull();
      await server.http.delete(`/v1/checks/${created.id}`, { key: account.key });
      expect(await directory.checkBySlug(account.id, 'lookup')).toBeNull();
    });
  });

  describe('account ping key', () => {
    it('shows a 22-character URL-safe key, the same on every read, and rotates it with POST', async () => {
      const own = await server.account('Keys');
      const shown = await server.http.get('/v1/accounts/ping-key', { key: own.key });
      expect(shown.status).toBe(200);
      expect(shown.body.pingKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(shown.body.pingUrl).toBe(`https://vigil.example/ping/${shown.body.pingKey}`);
      expect((await server.http.get('/v1/accounts/ping-key', { key: own.key })).body.pingKey).toBe(shown.body.pingKey);

      const keys = server.app.get(PingKeys);
      expect(await keys.resolvePingKey(shown.body.pingKey)).toBe(own.id);

      const rotated = await server.http.post('/v1/accounts/ping-key', undefined, { key: own.key });
      expect(rotated.status).toBe(200);
      expect(rotated.body.pingKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(rotated.body.pingKey).not.toBe(shown.body.pingKey);
      expect((await server.http.get('/v1/accounts/ping-key', { key: own.key })).body.pingKey).toBe(rotated.body.pingKey);
      expect(await keys.resolvePingKey(rotated.body.pingKey)).toBe(own.id);
      expect(await keys.resolvePingKey(shown.body.pingKey)).toBeNull();
      expect(await keys.resolvePingKey('not a key')).toBeNull();
    });

    it('gives each account its own key; a read-only key may see it but not rotate it; no key → 401', async () => {
      const a = await server.account('A');
      const b = await server.account('B');
      const keyA = (await server.http.get('/v1/accounts/ping-key', { key: a.key })).body.pingKey;
      const keyB = (await server.http.get('/v1/accounts/ping-key', { key: b.key })).body.pingKey;
      expect(keyA).not.toBe(keyB);
      const readOnly = await a.newKey('READ_ONLY');
      expect((await server.http.get('/v1/accounts/ping-key', { key: readOnly.apiKey })).body.pingKey).toBe(keyA);
      expect((await server.http.post('/v1/accounts/ping-key', undefined, { key: readOnly.apiKey })).status).toBe(403);
      expect((await server.http.get('/v1/accounts/ping-key')).status).toBe(401);
      expect((await server.http.request('DELETE', '/v1/accounts/ping-key', { key: a.key })).status).toBe(405);
    });

    it('replays a rotation sent again with the same Idempotency-Key', async () => {
      const own = await server.account('Idem');
      const headers = { 'idempotency-key': 'rotate-1' };
      const first = await server.http.post('/v1/accounts/ping-key', undefined, { key: own.key, headers });
      const retry = await server.http.post('/v1/accounts/ping-key', undefined, { key: own.key, headers });
      expect(retry.status).toBe(200);
      expect(retry.body.pingKey).toBe(first.body.pingKey);
      expect((await server.http.get('/v1/accounts/ping-key', { key: own.key })).body.pingKey).toBe(first.body.pingKey);
    });
  });

  describe('slug URL resolution (for the ping routes of the next step)', () => {
    it('unknown key or slug → nothing; ?create=1 creates a day-period, hour-grace check once; concurrent creates agree', async () => {
      const own = await server.account('Slugs');
      const pingKey = (await server.http.get('/v1/accounts/ping-key', { key: own.key })).body.pingKey;
      const slugs = server.app.get(SlugPings);
      expect(await slugs.resolve('A'.repeat(22), 'job', { create: true })).toEqual({ found: false, reason: 'unknown-key' });
      expect(await slugs.resolve(pingKey, 'job', { create: false })).toEqual({ found: false, reason: 'unknown-slug' });
      expect(await slugs.resolve(pingKey, 'a/b', { create: true })).toEqual({ found: false, reason: 'invalid-slug' });

      const [a, b] = await Promise.all([slugs.resolve(pingKey, 'job', { create: true }), slugs.resolve(pingKey, 'job', { create: true })]);
      expect(a.found && b.found && a.checkId === b.checkId).toBe(true);
      if (!a.found) throw new Error('not created');
      const check = (await server.http.get(`/v1/checks/${a.checkId}`, { key: own.key })).body;
      expect(check).toMatchObject({ name: 'job', slug: 'job', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } });
      const list = await server.http.get('/v1/checks', { key: own.key });
      expect(list.body.entries).toHaveLength(1);
      expect(await slugs.resolve(pingKey, 'job', { create: false })).toMatchObject({ found: true, checkId: a.checkId, created: false });
      expect((await server.http.get(`/ping/${check.heartbeat.pingToken}`)).status).toBe(200);
    });
  });
});

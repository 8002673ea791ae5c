import { Clock, ManualClock } from '../../libs/core/src/clock';
import { HeartbeatWatchdog } from '../../libs/heartbeats/src/heartbeats.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** Period 5 min, grace 2 min: expectedAt = last ping + 5 min, tol 30 s, deadline = last ping + 7 min. */
const FIVE_AND_TWO = { period: 5, periodUnit: 'minutes', grace: 2, graceUnit: 'minutes' };

describe('heartbeat pings, watchdog, events and availability (manual clock)', () => {
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  let server: TestServer;
  let account: TestAccount;
  let watchdog: HeartbeatWatchdog;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off' } });
    account = await server.account();
    watchdog = server.app.get(HeartbeatWatchdog);
  });
  afterAll(() => server.close());

  async function newCheck(heartbeat: Record<string, unknown> = FIVE_AND_TWO, extra: Record<string, unknown> = {}) {
    const response = await server.http.post('/v1/checks/heartbeat', { name: 'job', heartbeat, ...extra }, { key: account.key });
    expect(response.status).toBe(201);
    return response.body as { id: string; heartbeat: { pingToken: string } };
  }

  const ping = (token: string, options: { method?: string; headers?: Record<string, string>; body?: string; path?: string } = {}) =>
    server.http.request(options.method ?? 'GET', `${options.path ?? '/ping'}/${token}`, { headers: options.headers, rawBody: options.body });

  const events = async (checkId: string, query = '') => {
    const response = await server.http.get(`/v1/checks/heartbeats/${checkId}/events${query}`, { key: account.key });
    expect(response.status).toBe(200);
    return response.body[0].events as { id: string; state: string; timestamp: string; source: string | null; userAgent: string | null }[];
  };

  it('produces every ping state on purpose, FAILING from the watchdog, and RECEIVED on recovery', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    const states: string[] = [];
    const at = async (offsetMs: number) => {
      clock.advance(offsetMs);
      const response = await ping(token);
      expect(response.status).toBe(200);
      expect(response.text).toBe('OK');
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      states.push((await events(check.id, '?limit=1'))[0].state);
    };
    await at(0); // first ping ever
    await at(MIN); // well before expectedAt − tol
    await at(5 * MIN - 30_000 - 1); // 1 ms before expectedAt − tol
    await at(5 * MIN - 30_000); // exactly expectedAt − tol
    await at(5 * MIN + 30_000); // exactly expectedAt + tol
    await at(5 * MIN + 30_001); // just past tol
    await at(7 * MIN); // exactly the deadline
    await at(7 * MIN + 1); // past the deadline, no FAILING written yet
    expect(states).toEqual(['RECEIVED', 'EARLY', 'EARLY', 'RECEIVED', 'RECEIVED', 'GRACE', 'GRACE', 'LATE']);

    clock.advance(7 * MIN);
    expect((await watchdog.runOnce()).failed).toBe(0); // at the deadline itself nothing is due
    clock.advance(1);
    expect((await watchdog.runOnce()).failed).toBe(1);
    const [failing] = await events(check.id, '?limit=1');
    expect(failing).toMatchObject({ state: 'FAILING', source: 'watchdog', userAgent: null, timestamp: iso(clock.now().getTime() - 1) });
    clock.advance(MIN); // early by the timer restarted at the deadline, but a recovery
    expect((await ping(token)).status).toBe(200);
    expect((await events(check.id, '?limit=1'))[0].state).toBe('RECEIVED');
  });

  it('records source from Origin, else Referer, else null, and the user agent', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    await ping(token, { headers: { origin: 'https://ci.example', referer: 'https://ref.example/x', 'user-agent': 'cron/1.0' } });
    clock.advance(5 * MIN);
    await ping(token, { headers: { referer: 'https://ref.example/x', 'user-agent': 'curl/8' } });
    clock.advance(5 * MIN);
    await ping(token, { method: 'POST', path: '/heartbeats/ping', body: 'done', headers: { 'content-type': 'text/plain', 'user-agent': '' } });
    const listed = await events(check.id);
    expect(listed.map((e) => [e.source, e.userAgent])).toEqual([
      [null, null],
      ['https://ref.example/x', 'curl/8'],
      ['https://ci.example', 'cron/1.0'],
    ]);
  });

  it('accepts POST bodies of any type up to 100 KB without weakening the JSON-only rule elsewhere', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    for (const [type, body] of [
      ['text/plain', 'backup done'],
      ['application/json', '{"broken": '],
      ['application/octet-stream', 'x'.repeat(100 * 1024)],
      ['multipart/form-data; boundary=x', '--x--'],
    ]) {
      clock.advance(5 * MIN);
      expect((await ping(token, { method: 'POST', body, headers: { 'content-type': type } })).status).toBe(200);
    }
    clock.advance(5 * MIN);
    expect((await ping(token, { method: 'POST', body: 'x'.repeat(100 * 1024 + 1), headers: { 'content-type': 'text/plain' } })).status).toBe(413);
    expect((await events(check.id)).length).toBe(4);
    const elsewhere = await server.http.request('POST', '/v1/checks/heartbeat', { key: account.key, rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    expect(elsewhere.status).toBe(415);
  });

  it('takes a HEAD ping as a GET ping: 200 without a body, recorded, on every ping URL form', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    for (const path of ['/ping', '/heartbeats/ping']) {
      clock.advance(MIN);
      const response = await ping(token, { method: 'HEAD', path });
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect(response.headers.get('x-heartbeat-event-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    clock.advance(MIN);
    expect((await ping(`${token}/start`, { method: 'HEAD' })).status).toBe(200);
    expect((await ping('3b241101-e2bb-4255-8caf-4136c566a962', { method: 'HEAD' })).status).toBe(404);
    expect((await events(check.id)).map((e) => e.state)).toEqual(['STARTED', 'EARLY', 'RECEIVED']);
  });

  it('refuses bad pings and records nothing for them', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const response = await ping(token, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    }
    expect((await ping('3b241101-e2bb-4255-8caf-4136c566a962')).status).toBe(404);
    expect((await ping('not-a-token')).status).toBe(404);
    expect((await ping('3b241101-e2bb-4255-8caf-4136c566a962', { path: '/heartbeats/ping' })).status).toBe(404);
    for (const ua of ['Slackbot-LinkExpanding 1.0', 'Twitterbot/1.0', 'facebookexternalhit/1.1', 'Discordbot/2.0', 'TelegramBot', 'WhatsApp/2', 'LinkedInBot/1.0', 'Googlebot/2.1']) {
      expect((await ping(token, { headers: { 'user-agent': ua } })).status).toBe(403);
    }
    expect(await events(check.id)).toEqual([]);

    const off = await newCheck(FIVE_AND_TWO, { activated: false });
    const deactivated = await ping(off.heartbeat.pingToken);
    expect(deactivated.status).toBe(200);
    expect(deactivated.text).toBe('OK');
    expect(await events(off.id)).toEqual([]);

    await server.http.delete(`/v1/checks/${check.id}`, { key: account.key });
    expect((await ping(token)).status).toBe(404);
  });

  it('limits each token to a burst of 10, then 1 per second', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push(await ping(token));
    expect(statuses.slice(0, 10).every((r) => r.status === 200)).toBe(true);
    const limited = statuses[10];
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('ratelimit-limit')).toBe('10');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    clock.advance(1000);
    expect((await ping(token)).status).toBe(200);
    // Another token is not affected.
    expect((await ping((await newCheck()).heartbeat.pingToken)).status).toBe(200);
  });

  it('re-activation and a new period restart the timer; deactivation stops the watchdog', async () => {
    const check = await newCheck();
    const token = check.heartbeat.pingToken;
    const put = (over: Record<string, unknown>) =>
      server.http.put(`/v1/checks/heartbeat/${check.id}`, { name: 'job', heartbeat: FIVE_AND_TWO, ...over }, { key: account.key });
    await ping(token);
    expect((await put({ activated: false })).status).toBe(200);
    clock.advance(60 * MIN);
    await watchdog.runOnce();
    expect((await events(check.id)).map((e) => e.state)).toEqual(['RECEIVED']);
    expect((await put({ activated: true })).status).toBe(200);
    clock.advance(5 * MIN);
    await ping(token); // expectedAt is counted from the re-activation
    expect((await events(check.id, '?limit=1'))[0].state).toBe('RECEIVED');
    clock.advance(2 * MIN);
    expect((await put({ heartbeat: { ...FIVE_AND_TWO, period: 10 } })).status).toBe(200);
    clock.advance(10 * MIN);
    await ping(token);
    expect((await events(check.id, '?limit=1'))[0].state).toBe('RECEIVED');
  });

  it('catches up every missed deadline once, each FAILING at its deadline', async () => {
    const check = await newCheck();
    await ping(check.heartbeat.pingToken);
    const start = clock.now().getTime();
    clock.advance(3 * 7 * MIN + 30_000); // three deadlines passed
    const first = await watchdog.runOnce();
    expect(first.failed).toBeGreaterThanOrEqual(3);
    expect((await watchdog.runOnce()).failed).toBe(0);
    const failing = (await events(check.id)).filter((e) => e.state === 'FAILING').map((e) => e.timestamp);
    expect(failing).toEqual([iso(start + 21 * MIN), iso(start + 14 * MIN), iso(start + 7 * MIN)]);
  });

  it('lists events newest first, capped by limit (default 10)', async () => {
    const check = await newCheck();
    const times: string[] = [];
    for (let i = 0; i < 12; i++) {
      clock.advance(5 * MIN);
      times.push(clock.now().toISOString());
      await ping(check.heartbeat.pingToken);
    }
    const newest = [...times].reverse();
    expect((await events(check.id, `?startTime=${times[0]}`)).map((e) => e.timestamp)).toEqual(newest.slice(0, 10));
    expect((await events(check.id, `?startTime=${times[0]}&limit=3`)).map((e) => e.timestamp)).toEqual(newest.slice(0, 3));
    expect((await events(check.id, `?startTime=${times[2]}&endTime=${times[4]}`)).map((e) => e.timestamp)).toEqual([times[4], times[3], times[2]]);
    const one = (await events(check.id, '?limit=1'))[0];
    const detail = await server.http.get(`/v1/checks/heartbeats/${check.id}/events/${one.id}`, { key: account.key });
    expect(detail.status).toBe(200);
    expect(detail.body.event).toEqual({ ...one, body: null, truncated: false });
    expect(detail.body.stats.last24Hours.totalEntitiesCurrentPeriod).toBe(12);
    const other = await newCheck();
    expect((await server.http.get(`/v1/checks/heartbeats/${other.id}/events/${one.id}`, { key: account.key })).status).toBe(404);
    expect((await server.http.get(`/v1/checks/heartbeats/${check.id}/events/nope`, { key: account.key })).status).toBe(404);
    expect((await server.http.get(`/v1/checks/heartbeats/${check.id}/events/3b241101-e2bb-4255-8caf-4136c566a962`, { key: account.key })).status).toBe(404);
  });

  it.each([
    ['limit=0'],
    ['limit=11'],
    ['limit=abc'],
    ['limit=2.5'],
    ['limit=1&limit=2'],
    ['startTime=yesterday'],
    ['endTime=2026-02-30'],
    ['startTime=2026-03-01T25:00:00Z'],
    ['startTime=2026-03-02&endTime=2026-03-01'],
    ['startTime=2026-03-01T10:00:00Z&endTime=2026-03-01T10:00:00Z'],
    ['startTime=2025-01-01&endTime=2026-03-01'],
  ])('endpoint 9 answers 400 for %s', async (query) => {
    const check = await newCheck();
    const response = await server.http.get(`/v1/checks/heartbeats/${check.id}/events?${query}`, { key: account.key });
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
  });

  it.each([['startTime=nope'], ['endTime=2026-13-01'], ['startTime=2026-03-02&endTime=2026-03-01'], ['startTime=2025-01-01T00:00:00Z&endTime=2026-02-05T00:00:00.001Z']])(
    'endpoint 10 answers 400 for %s',
    async (query) => {
      const check = await newCheck();
      expect((await server.http.get(`/v1/checks/heartbeats/${check.id}/availability?${query}`, { key: account.key })).status).toBe(400);
    },
  );

  it('accepts a window of exactly 400 days and omits ratios of empty windows', async () => {
    const check = await newCheck();
    const response = await server.http.get(`/v1/checks/heartbeats/${check.id}/availability?startTime=2025-01-01T00:00:00Z&endTime=2026-02-05T00:00:00Z`, { key: account.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ successRatio: {}, totalEntitiesCurrentPeriod: 0 });
  });

  it('a token moved to another check, or given up, pings the right check at once (the remembered token is confirmed on the timer)', async () => {
    const a = await newCheck();
    const token = a.heartbeat.pingToken;
    expect((await ping(token)).status).toBe(200);
    const moved = '6f1c3a52-9d0e-4b7a-8c21-5e4f3d2b1a09';
    const put = await server.http.put(`/v1/checks/heartbeat/${a.id}`, { name: 'job', heartbeat: { ...FIVE_AND_TWO, pingToken: moved } }, { key: account.key });
    expect(put.status).toBe(200);
    expect((await ping(token)).status).toBe(404);
    expect((await ping(moved)).status).toBe(200);
    const b = await newCheck(FIVE_AND_TWO, {});
    const taken = await server.http.put(`/v1/checks/heartbeat/${b.id}`, { name: 'job', heartbeat: { ...FIVE_AND_TWO, pingToken: token } }, { key: account.key });
    expect(taken.status).toBe(200);
    expect((await ping(token)).status).toBe(200);
    expect(await events(b.id)).toHaveLength(1);
    expect(await events(a.id)).toHaveLength(2);
    expect((await server.http.delete(`/v1/checks/${b.id}`, { key: account.key })).status).toBe(204);
    expect((await ping(token)).status).toBe(404);
    expect((await server.http.delete(`/v1/checks/${a.id}`, { key: account.key })).status).toBe(204);
  });
});

describe('stats and availability', () => {
  const clock = new ManualClock('2026-04-10T06:17:23.456Z');
  let server: TestServer;
  let account: TestAccount;
  let watchdog: HeartbeatWatchdog;

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off' } });
    account = await server.account();
    watchdog = server.app.get(HeartbeatWatchdog);
  });
  afterAll(() => server.close());

  const ping = (token: string) => server.http.get(`/ping/${token}`);
  async function newCheck(heartbeat: Record<string, unknown>) {
    return (await server.http.post('/v1/checks/heartbeat', { name: 'job', heartbeat }, { key: account.key })).body as { id: string; heartbeat: { pingToken: string } };
  }

  it('computes stats and availability equal to counts of the events the test caused', async () => {
    const check = await newCheck({ period: 1, periodUnit: 'hours', grace: 30, graceUnit: 'minutes' });
    const token = check.heartbeat.pingToken;
    const caused: { at: number; failing: boolean }[] = [];
    const pingNow = async () => {
      expect((await ping(token)).status).toBe(200);
      caused.push({ at: clock.now().getTime(), failing: false });
    };
    // 9 days: mostly hourly pings at odd minutes, with silent stretches the watchdog fails.
    for (let i = 0; i < 9 * 24; i++) {
      if (i % 29 === 0 && i > 0) {
        // Stay silent for 4 h: deadlines every 1.5 h after the last ping.
        const last = caused.filter((e) => !e.failing).at(-1)!.at;
        for (let d = last + 90 * MIN; d < clock.now().getTime() + 4 * HOUR; d += 90 * MIN) caused.push({ at: d, failing: true });
        clock.advance(4 * HOUR);
        await watchdog.runOnce();
      }
      clock.advance(HOUR - 7 * 1000 + ((i * 7919) % 600) * 100);
      await pingNow();
    }
    const now = clock.now().getTime();
    const count = (from: number, to: number) => {
      const inside = caused.filter((e) => e.at >= from && e.at <= to);
      return { total: inside.length, failing: inside.filter((e) => e.failing).length };
    };
    const availability = (from: number, to: number, previousTo: number) => {
      const current = count(from, to);
      const previous = count(from - (to - from + 1), previousTo);
      const ratio = (c: { total: number; failing: number }) => Math.round(((c.total - c.failing) / c.total) * 10_000) / 10_000;
      return {
        successRatio: { ...(previous.total > 0 && { previousPeriod: ratio(previous) }), ...(current.total > 0 && { currentPeriod: ratio(current) }) },
        totalEntitiesCurrentPeriod: current.total,
      };
    };
    expect(caused.filter((e) => e.failing).length).toBeGreaterThan(10);

    const endpoint9 = await server.http.get(`/v1/checks/heartbeats/${check.id}/events`, { key: account.key });
    expect(endpoint9.body[0].stats).toEqual({
      last24Hours: availability(now - DAY, now, now - DAY - 1),
      last7Days: availability(now - 7 * DAY, now, now - 7 * DAY - 1),
    });
    const windows = [
      [now - 3 * DAY - 17 * MIN, now - DAY + 3 * MIN],
      [now - 8 * DAY, now - 2 * DAY],
      [now - 30 * HOUR, now],
      [Date.parse('2026-04-12T00:00:00.000Z'), Date.parse('2026-04-14T00:00:00.000Z')],
    ];
    for (const [from, to] of windows) {
      const response = await server.http.get(`/v1/checks/heartbeats/${check.id}/availability?startTime=${iso(from)}&endTime=${iso(to)}`, { key: account.key });
      expect(response.body).toEqual(availability(from, to, from - 1));
    }
  });
});

/** Each read of the time moves it on by a millisecond, so a burst of concurrent requests spans an hour boundary. */
class TickingClock implements Clock {
  constructor(public at: number) {}
  now(): Date {
    this.at += 1;
    return new Date(this.at);
  }
}

describe('a burst of concurrent pings across an hour boundary', () => {
  it('lands every ping and counts each once, in both hours', async () => {
    const boundary = Date.parse('2026-05-01T11:00:00.000Z');
    const clock = new TickingClock(boundary - DAY);
    const server = await startTestServer({ clock, env: { VIGIL_DAEMON: 'off', VIGIL_PING_RATE_BURST: '0' } });
    try {
      const account = await server.account();
      const check = (await server.http.post('/v1/checks/heartbeat', { name: 'burst', heartbeat: FIVE_AND_TWO }, { key: account.key })).body;
      clock.at = boundary - 40;
      const responses = await Promise.all(Array.from({ length: 60 }, () => server.http.get(`/ping/${check.heartbeat.pingToken}`)));
      expect(responses.map((r) => r.status)).toEqual(Array(60).fill(200));
      const ids = new Set(responses.map((r) => r.headers.get('x-heartbeat-event-id')));
      expect(ids.size).toBe(60);
      const total = async (from: number, to: number) =>
        (await server.http.get(`/v1/checks/heartbeats/${check.id}/availability?startTime=${iso(from)}&endTime=${iso(to)}`, { key: account.key })).body
          .totalEntitiesCurrentPeriod as number;
      const before = await total(boundary - HOUR, boundary - 1);
      const after = await total(boundary, boundary + HOUR - 1);
      expect(before).toBeGreaterThan(0);
      expect(after).toBeGreaterThan(0);
      expect(before + after).toBe(60);
      expect(await total(boundary - DAY, boundary + DAY)).toBe(60);
    } finally {
      await server.close();
    }
  });
});

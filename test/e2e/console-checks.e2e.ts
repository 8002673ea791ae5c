import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { formAsShown } from './console-form-reader';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The console's checks over real HTTP: create, the list's runs and tag filter, a check's ping log, output, settings and actions. */
let server: TestServer;
let account: TestAccount;
let writer: string;
let viewer: string;
let channelId: string;
const clock = new ManualClock('2026-05-01T08:00:00.000Z');

const api = (path: string) => server.http.get(path, { key: account.key });
const checkCount = async () => (await api('/v1/checks?limit=100')).body.entries.length as number;
const ping = async (token: string, suffix = '', body?: string) => {
  clock.advance(1000);
  await fetch(`${server.url}/ping/${token}${suffix}`, { method: body === undefined ? 'GET' : 'POST', body });
};

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off', VIGIL_PING_RATE_BURST: '0' } });
  account = await server.account('Ops');
  writer = await signedInMember(server, 'wes@example.com', account.id, 'READ_WRITE');
  viewer = await signedInMember(server, 'rae@example.com', account.id, 'READ_ONLY');
  channelId = (await server.http.post('/v1/alert-channels', { type: 'EMAIL', config: { address: 'oncall@example.com' } }, { key: account.key })).body.id;
});

afterAll(() => server.close());

describe('creating a check', () => {
  it('a form with mistakes writes nothing and keeps what was typed, each error beside its field', async () => {
    const list = await consoleRequest(server, 'GET', '/console/checks', { cookie: writer });
    const before = await checkCount();
    const answer = await consoleRequest(server, 'POST', '/console/checks', { cookie: writer, form: { csrf: csrfOf(list.text), name: '', tags: 'db, <nightly>', timing: 'period', period: 'often', periodUnit: 'days', grace: '1', graceUnit: 'hours' } });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('id="name-error">Name the check.');
    expect(answer.text).toContain('id="period-error">The period is a whole number');
    expect(answer.text).toContain('value="db, &lt;nightly&gt;"');
    expect(answer.text).toContain('value="often"');
    // The decider's own rules: a schedule that does not parse, a period under 30 seconds.
    const badCron = await consoleRequest(server, 'POST', '/console/checks', { cookie: writer, form: { csrf: csrfOf(list.text), name: 'bad', timing: 'schedule', schedule: '61 * * * *', timezone: 'UTC', grace: '5', graceUnit: 'minutes' } });
    expect(badCron.status).toBe(400);
    expect(badCron.text).toMatch(/id="schedule-error">[^<]+/);
    expect(badCron.text).toContain('value="61 * * * *"');
    const tooOften = await consoleRequest(server, 'POST', '/console/checks', { cookie: writer, form: { csrf: csrfOf(list.text), name: 'fast', timing: 'period', period: '10', periodUnit: 'seconds', grace: '5', graceUnit: 'minutes' } });
    expect(tooOften.text).toContain('id="period-error">Period must be between 30 seconds and 365 days.');
    expect(await checkCount()).toBe(before);
  });

  it('creates a scheduled check with tags and an alert channel', async () => {
    const list = await consoleRequest(server, 'GET', '/console/checks', { cookie: writer });
    const created = await consoleRequest(server, 'POST', '/console/checks', {
      cookie: writer,
      form: { csrf: csrfOf(list.text), name: 'nightly-backup', tags: 'db, nightly', timing: 'schedule', schedule: '0 3 * * *', timezone: 'Europe/Paris', grace: '30', graceUnit: 'minutes', [`channel-${channelId}`]: 'on' },
    });
    expect(created.status).toBe(303);
    const id = /^\/console\/checks\/([0-9a-f-]{36})\?notice=created$/.exec(created.location!)![1];
    const check = (await api(`/v1/checks/${id}`)).body;
    expect(check).toMatchObject({ name: 'nightly-backup', tags: ['db', 'nightly'], heartbeat: { schedule: '0 3 * * *', timezone: 'Europe/Paris', grace: 30, graceUnit: 'minutes' }, alertChannelSubscriptions: [{ alertChannelId: channelId, activated: true }] });
    const page = await consoleRequest(server, 'GET', created.location!, { cookie: writer });
    expect(page.text).toContain('Check created');
    expect(page.text).toContain('0 3 * * * (Europe/Paris), grace 30 minutes');
    expect(page.text).toContain(`href="/console/alert-channels/${channelId}">Email oncall@example.com</a>`);
    expect(page.text).toContain(`0 3 * * * /path/to/job.sh; curl -fsS -m 10 --retry 3 -o /dev/null ${check.heartbeat.pingUrl}/$?`);
  });
});

describe('the list', () => {
  it('shows each check\'s recent runs and filters by tag', async () => {
    const other = (await server.http.post('/v1/checks/heartbeat', { name: 'hourly-sync', tags: ['sync'], heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } }, { key: account.key })).body;
    await ping(other.heartbeat.pingToken);
    await ping(other.heartbeat.pingToken, '/fail');
    const all = await consoleRequest(server, 'GET', '/console/checks', { cookie: writer });
    expect(all.text).toContain('aria-label="Recent runs, newest first: FAILING, RECEIVED"');
    expect(all.text).toContain('aria-label="Recent runs, newest first: none yet"');
    expect(all.text).toContain('href="/console/checks?tag=nightly">#nightly</a>');
    const tagged = await consoleRequest(server, 'GET', '/console/checks?tag=sync', { cookie: writer });
    expect(tagged.text).toContain('hourly-sync');
    expect(tagged.text).not.toContain('>nightly-backup<');
    expect(tagged.text).toContain('href="/console/checks?tag=sync" aria-current="page"');
    await server.http.post('/v1/checks/heartbeat', { name: 'odd-tag', tags: ['a&b c'], heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } }, { key: account.key });
    const odd = await consoleRequest(server, 'GET', '/console/checks', { cookie: writer });
    expect(odd.text).toContain('href="/console/checks?tag=a%26b%20c">#a&amp;b c</a>');
    expect((await consoleRequest(server, 'GET', '/console/checks?tag=a%26b%20c', { cookie: writer })).text).toContain('>odd-tag</a>');
    const none = await consoleRequest(server, 'GET', '/console/checks?tag=nothing&state=UP', { cookie: writer });
    expect(none.text).toContain('No checks in state UP tagged nothing.');
  });
});

describe("a check's page", () => {
  let id: string;
  let token: string;

  beforeAll(async () => {
    const check = (await server.http.post('/v1/checks/heartbeat', { name: 'export', heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes' } }, { key: account.key })).body;
    [id, token] = [check.id, check.heartbeat.pingToken];
    await ping(token, '', 'rows exported: 1 <ok>');
    for (let i = 0; i < 24; i++) await ping(token);
  });

  it('pages the ping log 20 at a time and shows a ping\'s captured output', async () => {
    const first = await consoleRequest(server, 'GET', `/console/checks/${id}`, { cookie: writer });
    expect(first.text.match(/<li><span class="who"><a href="\/console\/checks\/[^"]+\/pings\//g)!.length).toBe(20);
    const older = /href="(\/console\/checks\/[^"]+before=\d+\.\d+)"/.exec(first.text)![1];
    const second = await consoleRequest(server, 'GET', older, { cookie: writer });
    const links = [...second.text.matchAll(/href="(\/console\/checks\/[^"]+\/pings\/[0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(links).toHaveLength(5);
    expect(second.text).not.toContain('Older pings');
    const oldest = await consoleRequest(server, 'GET', links[4], { cookie: writer });
    expect(oldest.status).toBe(200);
    expect(oldest.text).toContain('<pre><code>rows exported: 1 &lt;ok&gt;</code></pre>');
    const plain = await consoleRequest(server, 'GET', links[0], { cookie: writer });
    expect(plain.text).toContain('This ping sent no body.');
    expect((await consoleRequest(server, 'GET', `/console/checks/${id}/pings/00000000-0000-4000-8000-000000000000`, { cookie: writer })).status).toBe(404);
    expect((await consoleRequest(server, 'GET', `/console/checks/${id}?before=soon`, { cookie: writer })).status).toBe(400);
  });

  it('pages pings of the same millisecond without losing or repeating one', async () => {
    const check = (await server.http.post('/v1/checks/heartbeat', { name: 'burst', heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes' } }, { key: account.key })).body;
    clock.advance(1000);
    for (let i = 0; i < 45; i++) await fetch(`${server.url}/ping/${check.heartbeat.pingToken}`);
    const seen: string[] = [];
    let path: string | undefined = `/console/checks/${check.id}`;
    while (path) {
      const page = await consoleRequest(server, 'GET', path, { cookie: writer });
      seen.push(...[...page.text.matchAll(/\/pings\/([0-9a-f-]{36})"/g)].map((m) => m[1]));
      path = /href="(\/console\/checks\/[^"]+before=[^"]+)"/.exec(page.text)?.[1];
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
  });

  it('edits the schedule and grace; the form as shown saves without change; a bad value writes nothing', async () => {
    const page = await consoleRequest(server, 'GET', `/console/checks/${id}`, { cookie: writer });
    const form = formAsShown(page.text, `/console/checks/${id}`);
    expect(form).toMatchObject({ name: 'export', timing: 'period', period: '5', periodUnit: 'minutes', grace: '1', graceUnit: 'minutes' });
    const bad = await consoleRequest(server, 'POST', `/console/checks/${id}`, { cookie: writer, form: { ...form, grace: '-1' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('value="-1"');
    expect((await api(`/v1/checks/${id}`)).body.heartbeat.grace).toBe(1);
    const saved = await consoleRequest(server, 'POST', `/console/checks/${id}`, { cookie: writer, form: { ...form, period: '10', grace: '3' } });
    expect(saved).toMatchObject({ status: 303, location: `/console/checks/${id}?notice=saved` });
    const check = (await api(`/v1/checks/${id}`)).body;
    expect(check.heartbeat).toMatchObject({ period: 10, periodUnit: 'minutes', grace: 3, graceUnit: 'minutes', pingToken: token });
  });

  it('turns monitoring off and resumes it', async () => {
    const page = await consoleRequest(server, 'GET', `/console/checks/${id}`, { cookie: writer });
    const off = await consoleRequest(server, 'POST', `/console/checks/${id}/deactivate`, { cookie: writer, form: { csrf: csrfOf(page.text) } });
    expect(off).toMatchObject({ status: 303, location: `/console/checks/${id}?notice=deactivated` });
    expect((await api(`/v1/checks/${id}`)).body).toMatchObject({ activated: false, state: 'PAUSED' });
    const shown = await consoleRequest(server, 'GET', `/console/checks/${id}`, { cookie: writer });
    expect(shown.text).toContain('Resume monitoring');
    const on = await consoleRequest(server, 'POST', `/console/checks/${id}/resume`, { cookie: writer, form: { csrf: csrfOf(page.text) } });
    expect(on).toMatchObject({ status: 303, location: `/console/checks/${id}?notice=resumed` });
    expect((await api(`/v1/checks/${id}`)).body.activated).toBe(true);
  });

  it('a READ_ONLY member sees the log, no forms; forged posts are refused and write nothing', async () => {
    const page = await consoleRequest(server, 'GET', `/console/checks/${id}`, { cookie: viewer });
    expect(page.text).toContain('Ping log');
    expect(page.text).not.toMatch(/Save check|Turn monitoring off|>Pause</);
    expect((await consoleRequest(server, 'GET', '/console/checks', { cookie: viewer })).text).not.toContain('Create check');
    const before = JSON.stringify((await api('/v1/checks?limit=100')).body.entries.map((c: { updated_at: string }) => c.updated_at));
    const csrf = csrfOf(page.text);
    for (const path of ['/console/checks', `/console/checks/${id}`, `/console/checks/${id}/deactivate`, `/console/checks/${id}/resume`, `/console/checks/${id}/pause`]) {
      const forged = await consoleRequest(server, 'POST', path, { cookie: viewer, form: { csrf, name: 'forged', timing: 'period', period: '1', periodUnit: 'days', grace: '1', graceUnit: 'hours' } });
      expect([path, forged.status]).toEqual([path, 403]);
    }
    expect(JSON.stringify((await api('/v1/checks?limit=100')).body.entries.map((c: { updated_at: string }) => c.updated_at))).toBe(before);
  });
});

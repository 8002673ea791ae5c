import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The operator console over real HTTP: pages, forms without JavaScript, roles, and the overview's event stream. */
let server: TestServer;
let account: TestAccount;
let admin: string;
let viewer: string;
const clock = new ManualClock('2026-04-01T08:00:00.000Z');

const api = (method: 'get' | 'post', path: string, body?: unknown) =>
  method === 'get' ? server.http.get(path, { key: account.key }) : server.http.post(path, body, { key: account.key });
const incidentCount = async () => (await api('get', '/v1/status-pages/incidents?limit=100')).body.entries.length as number;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
  account = await server.account('Acme');
  admin = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
  viewer = await signedInMember(server, 'val@example.com', account.id, 'READ_ONLY');
});

afterAll(() => server.close());

describe('the console without a session', () => {
  it('leads every page to sign-in and gives the event stream nothing', async () => {
    for (const path of ['/console', '/console/incidents', `/console/incidents/${account.id}`]) {
      expect(await consoleRequest(server, 'GET', path)).toMatchObject({ status: 303, location: '/console/sign-in' });
    }
    expect((await consoleRequest(server, 'GET', '/console/events')).status).toBe(401);
    expect((await consoleRequest(server, 'POST', '/console/incidents', { form: { name: 'x' } })).status).toBe(303);
  });
});

describe('the overview', () => {
  it('shows open incidents, services by status, checks failing first with their last ping, and maintenance', async () => {
    const db = (await api('post', '/v1/status-pages/services', { name: 'Database' })).body;
    await api('post', '/v1/status-pages/services', { name: 'Website' });
    await api('post', '/v1/status-pages/incidents', { name: 'Slow queries', severity: 'MAJOR', services: [{ id: db.id }], incidentUpdates: [{ description: 'Looking', status: 'INVESTIGATING' }] });
    const good = (await api('post', '/v1/checks/heartbeat', { name: 'a-backup', heartbeat: { period: 5, periodUnit: 'minutes', grace: 2, graceUnit: 'minutes' } })).body;
    const bad = (await api('post', '/v1/checks/heartbeat', { name: 'z-export', heartbeat: { period: 5, periodUnit: 'minutes', grace: 2, graceUnit: 'minutes' } })).body;
    await server.http.get(`/ping/${good.heartbeat.pingToken}`);
    await server.http.get(`/ping/${bad.heartbeat.pingToken}/fail`);
    await api('post', '/v1/maintenance-windows', { name: 'Disk swap', startsAt: '2026-04-02T01:00:00.000Z', endsAt: '2026-04-02T02:00:00.000Z' });

    const page = await consoleRequest(server, 'GET', '/console', { cookie: admin });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in as ada@example.com');
    expect(page.text).toMatch(/Slow queries<\/a><\/span><span class="state s-MAJOR">MAJOR/);
    expect(page.text).toMatch(/Database<\/span><span class="state s-MAJOR">MAJOR incident/);
    expect(page.text).toMatch(/Website<\/span><span class="state s-OPERATIONAL">Operational/);
    const failing = page.text.indexOf('z-export');
    expect(failing).toBeGreaterThan(0);
    expect(failing).toBeLessThan(page.text.indexOf('a-backup'));
    expect(page.text).toContain('last ping 2026-04-01 08:00 UTC');
    expect(page.text).toContain('Disk swap');
    expect(page.text).toContain('2026-04-02 01:00 UTC – 2026-04-02 02:00 UTC');
  });

  it('is served with a strict CSP, and its stylesheet and script from hashed static files', async () => {
    const response = await fetch(`${server.url}/console`, { headers: { cookie: admin } });
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<style|style="/);
    const css = /href="(\/console\/assets\/console\.[0-9a-f]{12}\.css)"/.exec(html)![1];
    const js = /src="(\/console\/assets\/live\.[0-9a-f]{12}\.js)"/.exec(html)![1];
    const cssAnswer = await fetch(server.url + css);
    expect([cssAnswer.status, cssAnswer.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    expect(await cssAnswer.text()).toContain('prefers-color-scheme:dark');
    expect((await fetch(server.url + js)).status).toBe(200);
    expect((await fetch(`${server.url}/console/assets/nothing.css`)).status).toBe(404);
  });

  it('streams a change event when a ping changes what it shows', async () => {
    const check = (await api('post', '/v1/checks/heartbeat', { name: 'live-check', heartbeat: { period: 5, periodUnit: 'minutes', grace: 2, graceUnit: 'minutes' } })).body;
    const abort = new AbortController();
    const response = await fetch(`${server.url}/console/events`, { headers: { cookie: admin }, signal: abort.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended: ${seen}`);
        seen += decoder.decode(value);
      }
    };
    await until(/event: ready\n/);
    await server.http.get(`/ping/${check.heartbeat.pingToken}/fail`);
    await until(/event: change\n/);
    abort.abort();
    const page = await consoleRequest(server, 'GET', '/console', { cookie: admin });
    expect(page.text).toMatch(/live-check<\/a><\/span><span class="state s-FAILING">FAILING/);
  });
});

describe('incidents, with forms only (no JavaScript)', () => {
  let services: { id: string; name: string }[];

  beforeAll(async () => {
    services = (await api('get', '/v1/status-pages/services?limit=100')).body.entries;
    await api('post', '/v1/status-pages', { name: 'Acme status', url: 'acme-console', cards: [{ name: 'Core', services: services.map((s) => ({ id: s.id })) }] });
  });

  it('a form with mistakes writes nothing and comes back with each error beside its field, what was typed kept', async () => {
    const before = await incidentCount();
    const list = await consoleRequest(server, 'GET', '/console/incidents', { cookie: admin });
    const answer = await consoleRequest(server, 'POST', '/console/incidents', {
      cookie: admin,
      form: { csrf: csrfOf(list.text), name: '  ', severity: 'HUGE', status: 'INVESTIGATING', description: 'Checkout <b>fails</b>', 'service-00000000-0000-4000-8000-000000000000': 'on' },
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('<p class="field-error" id="name-error">Name the incident');
    expect(answer.text).toContain('id="name" name="name" maxlength="255" required value="" aria-invalid="true" aria-describedby="name-error"');
    expect(answer.text).toContain('id="severity-error">Choose a severity');
    expect(answer.text).toContain('id="services-error">Choose services of this account');
    expect(answer.text).toContain('>Checkout &lt;b&gt;fails&lt;/b&gt;</textarea>');
    expect(await incidentCount()).toBe(before);
  });

  it('declares an incident with two services: it shows on the public page; an update, then resolved', async () => {
    const list = await consoleRequest(server, 'GET', '/console/incidents', { cookie: admin });
    const body = new URLSearchParams({ csrf: csrfOf(list.text), name: 'Checkout down', severity: 'CRITICAL', status: 'INVESTIGATING', description: 'Payments fail.', notify: 'on' });
    for (const s of services) body.append(`service-${s.id}`, 'on');
    const declared = await fetch(`${server.url}/console/incidents`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded', origin: server.url, 'sec-fetch-site': 'same-origin' },
      body: body.toString(),
    });
    expect(declared.status).toBe(303);
    const location = declared.headers.get('location')!;
    expect(location).toMatch(/^\/console\/incidents\/[0-9a-f-]{36}\?notice=declared$/);
    const id = location.split('/')[3].split('?')[0];
    const created = (await api('get', `/v1/status-pages/incidents/${id}`)).body;
    expect(created).toMatchObject({ name: 'Checkout down', severity: 'CRITICAL', lastUpdateStatus: 'INVESTIGATING' });
    expect(created.services.map((s: { id: string }) => s.id).sort()).toEqual(services.map((s) => s.id).sort());
    expect(created.incidentUpdates[0]).toMatchObject({ description: 'Payments fail.', notifySubscribers: true });
    const history = (await api('get', `/v1/status-pages/incidents/${id}/history`)).body;
    expect(JSON.stringify(history)).toContain('person:ada@example.com');

    const publicPage = await fetch(`${server.url}/status/acme-console`);
    expect(await publicPage.text()).toContain('Checkout down');

    const page = await consoleRequest(server, 'GET', location, { cookie: admin });
    expect(page.text).toContain('<p class="notice" role="status">Incident declared.</p>');
    expect(page.text).toContain('<h1>Checkout down</h1>');
    const update = await consoleRequest(server, 'POST', `/console/incidents/${id}/updates`, { cookie: admin, form: { csrf: csrfOf(page.text), status: 'IDENTIFIED', description: 'A bad deploy.' } });
    expect(update).toMatchObject({ status: 303, location: `/console/incidents/${id}?notice=posted` });
    const empty = await consoleRequest(server, 'POST', `/console/incidents/${id}/updates`, { cookie: admin, form: { csrf: csrfOf(page.text), status: 'MONITORING', description: '' } });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('id="description-error">Write what customers should read.');
    const resolved = await consoleRequest(server, 'POST', `/console/incidents/${id}/updates`, { cookie: admin, form: { csrf: csrfOf(page.text), status: 'RESOLVED', description: 'Fixed.' } });
    expect(resolved).toMatchObject({ status: 303, location: `/console/incidents/${id}?notice=resolved` });
    const after = await consoleRequest(server, 'GET', `/console/incidents/${id}`, { cookie: admin });
    expect(after.text.indexOf('Fixed.')).toBeLessThan(after.text.indexOf('A bad deploy.'));
    expect(after.text.indexOf('A bad deploy.')).toBeLessThan(after.text.indexOf('Payments fail.'));
    expect((await api('get', `/v1/status-pages/incidents/${id}`)).body.lastUpdateStatus).toBe('RESOLVED');
    const resolvedList = await consoleRequest(server, 'GET', '/console/incidents?status=resolved', { cookie: admin });
    expect(resolvedList.text).toContain('Checkout down');
    expect((await consoleRequest(server, 'GET', '/console/incidents?status=open', { cookie: admin })).text).not.toContain('Checkout down');
  });

  it('an unknown or malformed incident id is a 404 page', async () => {
    expect((await consoleRequest(server, 'GET', '/console/incidents/not-an-id', { cookie: admin })).status).toBe(404);
    expect((await consoleRequest(server, 'GET', '/console/incidents/00000000-0000-4000-8000-000000000000', { cookie: admin })).status).toBe(404);
  });
});

describe('roles and forged posts', () => {
  it('a READ_ONLY member sees no actions, and the server refuses their forged post (403), writing nothing', async () => {
    const list = await consoleRequest(server, 'GET', '/console/incidents', { cookie: viewer });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('Declare incident');
    const id = /\/console\/incidents\/([0-9a-f-]{36})/.exec(list.text)![1];
    const page = await consoleRequest(server, 'GET', `/console/incidents/${id}`, { cookie: viewer });
    expect(page.text).not.toContain('Post update');
    const before = await incidentCount();
    const forged = await consoleRequest(server, 'POST', '/console/incidents', { cookie: viewer, form: { csrf: csrfOf(list.text), name: 'Forged', severity: 'MINOR', status: 'INVESTIGATING', description: 'x' } });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('READ_ONLY');
    const forgedUpdate = await consoleRequest(server, 'POST', `/console/incidents/${id}/updates`, { cookie: viewer, form: { csrf: csrfOf(list.text), status: 'INVESTIGATING', description: 'x' } });
    expect(forgedUpdate.status).toBe(403);
    expect(await incidentCount()).toBe(before);
  });

  it('a post from another site or without the form token is refused (403)', async () => {
    const list = await consoleRequest(server, 'GET', '/console/incidents', { cookie: admin });
    const form = { csrf: csrfOf(list.text), name: 'Cross', severity: 'MINOR', status: 'INVESTIGATING', description: 'x' };
    const before = await incidentCount();
    const crossSite = await consoleRequest(server, 'POST', '/console/incidents', { cookie: admin, form, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const noToken = await consoleRequest(server, 'POST', '/console/incidents', { cookie: admin, form: { ...form, csrf: 'wrong' } });
    expect(noToken.status).toBe(403);
    expect(await incidentCount()).toBe(before);
  });
});

describe('checks', () => {
  it('lists checks with state and last ping, filters by state, and refuses an unknown state', async () => {
    const all = await consoleRequest(server, 'GET', '/console/checks', { cookie: admin });
    expect(all.status).toBe(200);
    expect(all.text).toContain('a-backup');
    expect(all.text).toContain('z-export');
    const failing = await consoleRequest(server, 'GET', '/console/checks?state=FAILING', { cookie: admin });
    expect(failing.text).toContain('z-export');
    expect(failing.text).not.toContain('a-backup');
    expect(failing.text).toContain('href="/console/checks?state=FAILING" aria-current="page"');
    expect((await consoleRequest(server, 'GET', '/console/checks?state=BROKEN', { cookie: admin })).status).toBe(400);
  });

  it('the overview shows the first 50 checks, failing first, with the counts by state; the list shows every check, 50 a page', async () => {
    for (let i = 0; i < 60; i++) await api('post', '/v1/checks/heartbeat', { name: `m-batch-${String(i).padStart(2, '0')}`, heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } });
    const names = (html: string) => [...html.matchAll(/<a href="\/console\/checks\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1]);
    const overview = await consoleRequest(server, 'GET', '/console', { cookie: admin });
    expect(names(overview.text)).toHaveLength(50);
    expect(names(overview.text)[0]).toBe('live-check');
    const total = Number(/(\d+) checks: \d+ FAILING,/.exec(overview.text)![1]);
    expect(total).toBeGreaterThan(60);
    const first = await consoleRequest(server, 'GET', '/console/checks', { cookie: admin });
    const second = await consoleRequest(server, 'GET', '/console/checks?from=50', { cookie: admin });
    expect(new Set([...names(first.text), ...names(second.text)]).size).toBe(total);
  });

  it("a check's page shows its ping URL and a crontab line; pause works for READ_WRITE, is refused for READ_ONLY", async () => {
    const check = (await api('post', '/v1/checks/heartbeat', { name: 'hourly <sync>', heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } })).body;
    const page = await consoleRequest(server, 'GET', `/console/checks/${check.id}`, { cookie: admin });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>hourly &lt;sync&gt;</h1>');
    expect(page.text).toContain(`<code>${check.heartbeat.pingUrl}</code>`);
    expect(page.text).toContain(`0 * * * * /path/to/job.sh; curl -fsS -m 10 --retry 3 -o /dev/null ${check.heartbeat.pingUrl}/$?`);

    const seen = await consoleRequest(server, 'GET', `/console/checks/${check.id}`, { cookie: viewer });
    expect(seen.text).not.toContain('>Pause</button>');
    const forged = await consoleRequest(server, 'POST', `/console/checks/${check.id}/pause`, { cookie: viewer, form: { csrf: csrfOf(seen.text) } });
    expect(forged.status).toBe(403);
    expect((await api('get', `/v1/checks/${check.id}`)).body.state).toBe('NEW');

    const paused = await consoleRequest(server, 'POST', `/console/checks/${check.id}/pause`, { cookie: admin, form: { csrf: csrfOf(page.text) } });
    expect(paused).toMatchObject({ status: 303, location: `/console/checks/${check.id}?notice=paused` });
    expect((await api('get', `/v1/checks/${check.id}`)).body.state).toBe('PAUSED');
    const after = await consoleRequest(server, 'GET', `/console/checks/${check.id}`, { cookie: admin });
    expect(after.text).toContain("Paused: the check's next ping resumes it.");
    await server.http.get(`/ping/${check.heartbeat.pingToken}`);
    expect((await api('get', `/v1/checks/${check.id}`)).body.state).toBe('UP');
    expect((await consoleRequest(server, 'GET', '/console/checks/not-a-check', { cookie: admin })).status).toBe(404);
  });
});

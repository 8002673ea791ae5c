import { QueryBus } from '@nestjs/cqrs';
import { ManualClock } from '../../libs/core/src/clock';
import { PeopleQuery } from '../../libs/people/src/people.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, csrfOf, MINUTE, signedInMember } from './people-fixtures';

/** The audit log over real HTTP: authors, diffs, filters, exports, account isolation, and an incident as it was. */
let server: TestServer;
let acme: TestAccount;
let other: TestAccount;
let ada: string;
let viewer: string;
let incidentId: string;
let adaId: string;
const clock = new ManualClock('2026-05-01T08:00:00.000Z');

const api = (account: TestAccount, method: 'get' | 'post' | 'patch', path: string, body?: unknown) =>
  method === 'get' ? server.http.get(path, { key: account.key }) : server.http[method](path, body, { key: account.key });
const page = (path: string, cookie = ada) => consoleRequest(server, 'GET', path, { cookie });
/** The audit page's entries as plain text, one line each, newest first. */
const entries = (html: string) =>
  [...html.matchAll(/<li>\s*<p><time[^>]*>([^<]*)<\/time> · <a[^>]*>([^<]*)<\/a> · ([^<]*)<\/p>([\s\S]*?)<\/li>/g)].map((m) => ({
    when: m[1],
    author: m[2],
    action: m[3],
    body: m[4].replace(/<[^>]+>/g, ' ').replace(/→/g, ' ').replace(/\s+/g, ' ').trim(),
  }));

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
  acme = await server.account('Acme');
  other = await server.account('Other');
  ada = await signedInMember(server, 'ada@example.com', acme.id, 'READ_WRITE');
  viewer = await signedInMember(server, 'val@example.com', acme.id, 'READ_ONLY');
  const members = await server.app.get(QueryBus).execute(new PeopleQuery({ type: 'MembersOfAccount', accountId: acme.id }));
  adaId = members.find((m) => m.email === 'ada@example.com')!.userId;

  // A key declares the incident; Ada posts an update from the console; the key renames it later.
  clock.advance(MINUTE);
  const db = (await api(acme, 'post', '/v1/status-pages/services', { name: 'Database' })).body;
  clock.advance(MINUTE);
  incidentId = (await api(acme, 'post', '/v1/status-pages/incidents', { name: 'Slow queries', severity: 'MAJOR', services: [{ id: db.id }], incidentUpdates: [{ description: 'Looking', status: 'INVESTIGATING' }] })).body.id;
  clock.advance(10 * MINUTE);
  const form = await page(`/console/incidents/${incidentId}`);
  const posted = await consoleRequest(server, 'POST', `/console/incidents/${incidentId}/updates`, { cookie: ada, form: { csrf: csrfOf(form.text), status: 'IDENTIFIED', description: 'An index was missing' } });
  expect(posted.status).toBe(303);
  clock.advance(10 * MINUTE);
  expect((await api(acme, 'patch', `/v1/status-pages/incidents/${incidentId}`, { name: 'Slow database queries', severity: 'CRITICAL' })).status).toBe(200);
  await api(other, 'post', '/v1/status-pages/services', { name: 'Other secret service' });
});

afterAll(() => server.close());

let otherCookie: string | null = null;
/** An ADMIN of the other account (signed in once). */
async function otherAdmin(): Promise<string> {
  otherCookie ??= await signedInMember(server, 'bo@example.com', other.id, 'ADMIN');
  return otherCookie;
}

describe('the audit log', () => {
  it('lists every change newest first with its author, and the change field by field, before → after', async () => {
    const answer = await page('/console/audit');
    expect(answer.status).toBe(200);
    const rows = entries(answer.text);
    expect(rows.map((r) => [r.author, r.action])).toEqual([
      ['API key test (' + rows[0].author.slice('API key test ('.length), 'incident details changed'],
      ['ada@example.com', 'incident update posted'],
      [rows[2].author, 'incident update posted'],
      [rows[2].author, 'incident created'],
      [rows[2].author, 'service created'],
      ...rows.slice(5).map((r) => [r.author, r.action]),
    ]);
    expect(rows[0].author).toMatch(/^API key test \(/);
    expect(rows[0].when).toBe('2026-05-01 08:22 UTC');
    expect(rows[0].body).toContain('name Slow queries changed to Slow database queries');
    expect(rows[0].body).toContain('severity MAJOR changed to CRITICAL');
    expect(rows[1].body).toMatch(/status not set changed to IDENTIFIED/);
    expect(rows[1].body).toMatch(/description not set changed to An index was missing/);
    expect(rows[3].body).toContain('name not set changed to Slow queries');
    // Members added by the CLI are Vigil's own work, on the team.
    expect(rows.slice(5).map((r) => r.action)).toContain('member added');
    expect(answer.text).not.toContain('Other secret service');
  });

  it('filters by resource, by person and by time, each with the others', async () => {
    const one = entries((await page(`/console/audit?resource=incident:${incidentId}`)).text);
    expect(one.map((r) => r.action)).toEqual(['incident details changed', 'incident update posted', 'incident update posted', 'incident created']);
    expect(entries((await page('/console/audit?resource=service')).text).map((r) => r.action)).toEqual(['service created']);
    const byAda = entries((await page(`/console/audit?actor=person:${adaId}`)).text);
    expect(byAda.map((r) => [r.author, r.action])).toEqual([['ada@example.com', 'incident update posted']]);
    const byKey = entries((await page(`/console/audit?actor=key:${acme.keyId}&resource=incident`)).text);
    expect(byKey).toHaveLength(3);
    const window = entries((await page(`/console/audit?resource=incident&from=2026-05-01T08:05&to=2026-05-01T08:15`)).text);
    expect(window.map((r) => r.action)).toEqual(['incident update posted']);
  });

  it('pages 25 changes at a time, older ones behind a link, none twice', async () => {
    for (let i = 0; i < 55; i++) await api(other, 'post', '/v1/status-pages/services', { name: `svc ${i}` });
    const nextOf = (html: string) => /href="\/console\/audit\?([^"]+)" rel="next"/.exec(html)?.[1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '=');
    const first = await consoleRequest(server, 'GET', '/console/audit?resource=service', { cookie: await otherAdmin() });
    const pages = [entries(first.text)];
    let next = nextOf(first.text);
    expect(next).toContain('resource=service&after=');
    while (next) {
      const answer = await consoleRequest(server, 'GET', `/console/audit?${next}`, { cookie: await otherAdmin() });
      pages.push(entries(answer.text));
      next = nextOf(answer.text);
    }
    expect(pages.map((rows) => rows.length)).toEqual([25, 25, 6]);
    const names = pages.flat().map((r) => r.body.replace(/^service (\S+ \S+).*$/, '$1'));
    expect(new Set(names).size).toBe(56);
  });

  it('answers a bad filter with the form, the error beside its field and what was typed, and reads nothing', async () => {
    const answer = await page('/console/audit?resource=spaceship&from=yesterday&actor=person:x');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('id="resource-error"');
    expect(answer.text).toContain('id="from-error"');
    expect(answer.text).toContain('value="spaceship"');
    expect(entries(answer.text)).toEqual([]);
    expect((await page('/console/audit?after=bm9wZQ')).status).toBe(400);
    expect((await page('/console/audit?from=2026-05-02T00:00&to=2026-05-01T00:00')).text).toContain('The end must be after the start.');
  });

  it('is shown to READ_ONLY members, and leads the signed-out to sign-in', async () => {
    expect((await page('/console/audit', viewer)).status).toBe(200);
    expect(await consoleRequest(server, 'GET', '/console/audit')).toMatchObject({ status: 303, location: '/console/sign-in' });
    expect(await consoleRequest(server, 'GET', '/console/audit/export.csv')).toMatchObject({ status: 303, location: '/console/sign-in' });
  });
});

describe('exports', () => {
  it('CSV: one row per changed field, quoted where needed, that a parser reads back', async () => {
    const answer = await page(`/console/audit/export.csv?resource=incident:${incidentId}`);
    expect(answer.status).toBe(200);
    const rows = parseCsv(answer.text);
    expect(rows[0]).toEqual(['at', 'author', 'actor', 'resource_type', 'resource_id', 'resource_name', 'action', 'event_type', 'field', 'before', 'after']);
    const severity = rows.find((r) => r[8] === 'severity' && r[7] === 'IncidentDetailsChanged')!;
    expect(severity.slice(2, 11)).toEqual([`key:${acme.keyId}`, 'incident', incidentId, 'Slow database queries', 'incident details changed', 'IncidentDetailsChanged', 'severity', 'MAJOR', 'CRITICAL']);
    const byAda = rows.filter((r) => r[1] === 'ada@example.com');
    expect(byAda.length).toBeGreaterThan(1);
    expect(new Set(rows.slice(1).map((r) => r[4]))).toEqual(new Set([incidentId]));
  });

  it('NDJSON: one entry a line with its author and changes, filtered like the page', async () => {
    const response = await fetch(`${server.url}/console/audit/export.ndjson?actor=person:${adaId}`, { headers: { cookie: ada } });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="vigil-audit.ndjson"');
    const lines = (await response.text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ author: 'ada@example.com', actor: { kind: 'person', id: adaId }, resource: { type: 'incident', id: incidentId }, eventType: 'IncidentUpdatePosted' });
    expect(lines[0].changes).toContainEqual(expect.objectContaining({ before: null, after: 'IDENTIFIED' }));
    expect((await page('/console/audit/export.xml')).status).toBe(404);
    expect((await page('/console/audit/export.csv?from=never')).status).toBe(400);
  });
});

describe('isolation between accounts', () => {
  it('shows a person only the account they look at, never another one’s changes', async () => {
    const both = await otherAdmin();
    const otherLog = await page('/console/audit/export.ndjson', both);
    expect(otherLog.text).toContain('Other secret service');
    expect(otherLog.text).not.toContain('Slow queries');
    expect(otherLog.text).not.toContain(acme.id);
    expect((await page('/console/audit', both)).text).not.toContain('Slow queries');
    const exported = await page(`/console/audit/export.ndjson?resource=incident:${incidentId}`, both);
    expect(exported.text).toBe('');
    expect(await page(`/console/incidents/${incidentId}/as-of?at=2026-05-01T09:00`, both)).toMatchObject({ status: 404 });
    expect((await page('/console/audit')).text).not.toContain('Other secret service');
  });
});

describe('a person with several accounts', () => {
  it('sees the chosen account’s log, and its filter, pages and exports keep that account', async () => {
    await signedInMember(server, 'multi@example.com', acme.id, 'READ_ONLY');
    const multi = await signedInMember(server, 'multi@example.com', other.id, 'READ_ONLY');
    const log = await page(`/console/audit?account=${other.id}&resource=service`, multi);
    expect(log.status).toBe(200);
    expect(log.text).toContain(`<input type="hidden" name="account" value="${other.id}">`);
    expect(entries(log.text).every((r) => r.action === 'service created')).toBe(true);
    expect(log.text).not.toContain('Slow queries');
    const decoded = log.text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
    expect(decoded).toMatch(new RegExp(`href="/console/audit\\?account=${other.id}&resource=service&after=[^"]+" rel="next"`));
    expect(decoded).toContain(`href="/console/audit/export.csv?account=${other.id}&resource=service"`);
    const own = await page(`/console/audit?account=${acme.id}&resource=incident:${incidentId}`, multi);
    expect(entries(own.text)).toHaveLength(4);
  });
});

describe('an incident as of a chosen moment', () => {
  it('shows the state before its last update, labelled as the past and without any action', async () => {
    const before = await page(`/console/incidents/${incidentId}/as-of?at=2026-05-01T08:05`);
    expect(before.status).toBe(200);
    expect(before.text).toContain('Past view.');
    expect(before.text).toContain('2026-05-01 08:05 UTC');
    expect(before.text).toContain('<h1>Slow queries</h1>');
    expect(before.text).toContain('Looking');
    expect(before.text).not.toContain('An index was missing');
    expect(before.text.slice(before.text.indexOf("<main"))).not.toMatch(/method="post"/);
    const later = await page(`/console/incidents/${incidentId}/as-of?at=2026-05-01T08:15`);
    expect(later.text).toContain('An index was missing');
    expect(later.text).toContain('<h1>Slow queries</h1>');
    expect((await page(`/console/incidents/${incidentId}/as-of?at=2026-05-01T07:00`)).status).toBe(404);
    expect((await page(`/console/incidents/${incidentId}/as-of?at=soon`)).status).toBe(400);
  });

  it('is linked from the incident page with its history, and the check page links its history', async () => {
    const now = await page(`/console/incidents/${incidentId}`);
    expect(now.text).toContain(`href="/console/audit?resource=incident:${incidentId}"`);
    expect(now.text).toContain(`action="/console/incidents/${incidentId}/as-of"`);
    const check = (await api(acme, 'post', '/v1/checks/heartbeat', { name: 'nightly', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } })).body;
    const checkPage = await page(`/console/checks/${check.id}`);
    expect(checkPage.text).toContain(`href="/console/audit?resource=check:${check.id}"`);
    const service = (await api(acme, 'get', '/v1/status-pages/services?limit=10')).body.entries[0];
    const window = (await api(acme, 'post', '/v1/maintenance-windows', { name: 'db upgrade', startsAt: '2026-07-01T11:00:00.000Z', endsAt: '2026-07-01T13:00:00.000Z' })).body;
    const hook = (await api(acme, 'post', '/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'hook', url: 'https://hooks.example.com/x' } })).body;
    for (const [path, resource] of [[`services/${service.id}`, `service:${service.id}`], [`maintenance/${window.id}`, `maintenance-window:${window.id}`], [`alert-channels/${hook.id}`, `alert-channel:${hook.id}`]]) {
      expect([path, (await page(`/console/${path}`)).text]).toEqual([path, expect.stringContaining(`href="/console/audit?resource=${resource}"`)]);
    }
    const pause = await consoleRequest(server, 'POST', `/console/checks/${check.id}/pause`, { cookie: ada, form: { csrf: csrfOf(checkPage.text) } });
    expect(pause.status).toBe(303);
    const history = entries((await page(`/console/audit?resource=check:${check.id}`)).text);
    expect(history.map((r) => [r.author, r.action])).toEqual([['ada@example.com', 'heartbeat paused'], [expect.stringMatching(/^API key test/), 'heartbeat check created']]);
  });
});

describe('a status page as of a chosen moment', () => {
  it('shows its settings before a rename, links each change to the page as it was, and hides other accounts’ pages', async () => {
    const db = (await api(acme, 'get', '/v1/status-pages/services?limit=10')).body.entries[0];
    clock.set('2026-05-01T10:00:00.000Z');
    const created = (await api(acme, 'post', '/v1/status-pages', { name: 'Acme status', url: 'acme-audit', cards: [{ name: 'Core', services: [{ id: db.id }] }] })).body;
    clock.set('2026-05-01T11:00:00.000Z');
    expect((await api(acme, 'patch', `/v1/status-pages/${created.id}`, { name: 'Acme Inc status' })).status).toBe(200);
    const before = await page(`/console/status-pages/${created.id}/as-of?at=2026-05-01T10:30`);
    expect(before.status).toBe(200);
    expect(before.text).toContain('Past view.');
    expect(before.text).toContain('<h1>Acme status</h1>');
    expect(before.text).toContain('Database');
    expect(before.text.slice(before.text.indexOf('<main'))).not.toMatch(/method="post"/);
    expect((await page(`/console/status-pages/${created.id}/as-of?at=2026-05-01T11:30`)).text).toContain('<h1>Acme Inc status</h1>');
    expect((await page(`/console/status-pages/${created.id}/as-of?at=2026-05-01T09:00`)).status).toBe(404);
    expect((await page(`/console/status-pages/${created.id}/as-of?at=2026-05-01T10:30`, await otherAdmin())).status).toBe(404);
    const now = await page(`/console/status-pages/${created.id}`);
    expect(now.text).toContain(`href="/console/audit?resource=status-page:${created.id}"`);
    expect(now.text).toContain(`action="/console/status-pages/${created.id}/as-of"`);
    const log = await page(`/console/audit?resource=status-page:${created.id}`);
    expect(entries(log.text).map((r) => r.body)).toEqual([expect.stringContaining('name Acme status changed to Acme Inc status'), expect.stringContaining('name not set changed to Acme status')]);
    expect(log.text).toContain(`<a href="/console/status-pages/${created.id}">Acme Inc status</a>`);
    expect(log.text.replace(/&#x3D;/g, "=")).toContain(`href="/console/status-pages/${created.id}/as-of?at=2026-05-01T10%3A00%3A00.000Z"`);
  });
});

/** RFC 4180: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += c;
  }
  return rows;
}

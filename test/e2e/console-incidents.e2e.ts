import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The console's incident screens over real HTTP: search and pages, preview, backfill, details and edited updates. */
let server: TestServer;
let account: TestAccount;
let writer: string;
let reader: string;
let services: { id: string; name: string }[];
const clock = new ManualClock('2026-04-01T08:00:00.000Z');

const api = (method: 'get' | 'post', path: string, body?: unknown) =>
  method === 'get' ? server.http.get(path, { key: account.key }) : server.http.post(path, body, { key: account.key });
const incidentCount = async () => (await api('get', '/v1/status-pages/incidents?limit=100')).body.entries.length as number;
const incidentOf = async (id: string) => (await api('get', `/v1/status-pages/incidents/${id}`)).body;

/** A form post of the writer with the token of the page it came from. */
async function send(path: string, page: string, form: Record<string, string>, cookie = writer) {
  return consoleRequest(server, 'POST', path, { cookie, form: { csrf: csrfOf(page), ...form } });
}

async function listPage(query = '') {
  const page = await consoleRequest(server, 'GET', `/console/incidents${query}`, { cookie: writer });
  return { ...page, names: [...page.text.matchAll(/<a href="\/console\/incidents\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1]) };
}

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
  account = await server.account('Acme');
  for (const name of ['Checkout', 'Search']) await api('post', '/v1/status-pages/services', { name });
  const all: { id: string; name: string }[] = (await api('get', '/v1/status-pages/services?limit=100')).body.entries;
  services = ['Checkout', 'Search'].map((name) => all.find((s) => s.name === name)!);
  writer = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
  reader = await signedInMember(server, 'val@example.com', account.id, 'READ_ONLY');
});

afterAll(() => server.close());

describe('the incident list', () => {
  beforeAll(async () => {
    // 60 incidents an hour apart: "Outage 1" oldest; every third on Search, every fifth MINOR, the first ten resolved.
    for (let n = 1; n <= 60; n++) {
      const service = n % 3 === 0 ? services[1] : services[0];
      const updates = [{ description: 'Looking', status: 'INVESTIGATING', publicIncidentUpdateDate: new Date(Date.parse('2026-03-20T00:00:00.000Z') + n * 3_600_000).toISOString() }];
      if (n <= 10) updates.push({ description: 'Fixed', status: 'RESOLVED', publicIncidentUpdateDate: new Date(Date.parse('2026-03-20T00:30:00.000Z') + n * 3_600_000).toISOString() });
      await api('post', '/v1/status-pages/incidents', { name: `Outage ${n}`, severity: n % 5 === 0 ? 'MINOR' : 'MAJOR', services: [{ id: service.id }], incidentUpdates: updates });
    }
  });

  it('shows 50 a page, newest first, and the next page continues where it stopped', async () => {
    const first = await listPage();
    expect(first.names).toHaveLength(50);
    expect(first.names.slice(0, 2)).toEqual(['Outage 60', 'Outage 59']);
    const next = /<a href="(\/console\/incidents\?after[^"]+)">Older incidents<\/a>/.exec(first.text)![1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '=');
    const second = await listPage(next.slice('/console/incidents'.length));
    expect(second.names).toEqual(['Outage 10', 'Outage 9', 'Outage 8', 'Outage 7', 'Outage 6', 'Outage 5', 'Outage 4', 'Outage 3', 'Outage 2', 'Outage 1']);
    expect(second.text).not.toContain('Older incidents');
    expect(second.text).toContain('>Newest incidents</a>');
  });

  it('searches by name (any case) and filters by status, severity and service, keeping them across pages', async () => {
    expect((await listPage('?search=outage%205')).names).toEqual(['Outage 59', 'Outage 58', 'Outage 57', 'Outage 56', 'Outage 55', 'Outage 54', 'Outage 53', 'Outage 52', 'Outage 51', 'Outage 50', 'Outage 5']);
    expect((await listPage('?status=resolved')).names).toHaveLength(10);
    expect((await listPage('?status=resolved&severity=MINOR')).names).toEqual(['Outage 10', 'Outage 5']);
    const search = await listPage(`?service=${services[1].id}&status=open`);
    expect(search.names).toHaveLength(17);
    expect(search.text).toContain(`<option value="${services[1].id}" selected>Search</option>`);
    const severe = await listPage('?severity=MAJOR');
    expect(severe.names).toHaveLength(48);
    expect(severe.text).toContain('value="MAJOR" selected');
    expect(severe.text).not.toContain('Older incidents');
    // 50 open ones fill a page exactly: no next page; all 60 need two.
    expect((await listPage('?search=OUTAGE&status=open')).text).not.toContain('Older incidents');
    const outages = await listPage('?search=OUTAGE');
    expect(outages.names).toHaveLength(50);
    const next = /<a href="([^"]+)">Older incidents<\/a>/.exec(outages.text)![1].replace(/&amp;/g, '&').replace(/&#x3D;/g, '=');
    expect(next).toMatch(/^\/console\/incidents\?search=OUTAGE&after=/);
    expect((await listPage(next.slice('/console/incidents'.length))).names).toHaveLength(10);
    const none = await listPage('?search=nothing%20like%20this');
    expect(none.text).toContain('No incidents match.');
  });

  it('answers an unusable filter or cursor with 400 and the reason, not an error', async () => {
    for (const query of ['?status=closed', '?severity=HUGE', '?service=nope', '?after=garbage', `?after=not-a-date_${services[0].id}`]) {
      const page = await listPage(query);
      expect([query, page.status]).toEqual([query, 400]);
      expect(page.text).toContain('<p class="error" role="alert">');
    }
  });
});

describe('declaring', () => {
  it('previews the incident as customers will see it, Markdown rendered and escaped, and declares nothing', async () => {
    const before = await incidentCount();
    const list = await listPage();
    const answer = await send('/console/incidents', list.text, {
      action: 'preview', name: 'Checkout <slow>', severity: 'CRITICAL', status: 'IDENTIFIED', description: 'Payments **time out** <script>x</script>', [`service-${services[0].id}`]: 'on', notify: 'on',
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Preview: as customers will see it');
    expect(answer.text).toContain('<p class="preview-name">Checkout &lt;slow&gt;</p>');
    expect(answer.text).toContain('Affects Checkout');
    expect(answer.text).toContain('<strong>time out</strong>');
    expect(answer.text).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(answer.text).not.toContain('<script>x');
    expect(answer.text).toContain('id="name" name="name" maxlength="255" required value="Checkout &lt;slow&gt;"');
    expect(await incidentCount()).toBe(before);
  });

  it('a preview with mistakes shows the errors, not a preview', async () => {
    const list = await listPage();
    const answer = await send('/console/incidents', list.text, { action: 'preview', name: 'No service', severity: 'MINOR', status: 'INVESTIGATING', description: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('id="services-error">Choose at least one affected service.');
    expect(answer.text).not.toContain('Preview: as customers');
  });

  it('backfills a past incident: started and resolved in the past, the timeline in that order, not open', async () => {
    const list = await listPage();
    const form = { name: 'Night outage', severity: 'MAJOR', status: 'INVESTIGATING', description: 'Database down.', at: '2026-03-01T02:00', resolvedAt: '2026-03-01T03:15', resolution: 'Failed over.', [`service-${services[1].id}`]: 'on' };
    const backwards = await send('/console/incidents', list.text, { ...form, resolvedAt: '2026-03-01T01:00' });
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain('id="resolvedAt-error">Resolved after it started.');
    expect(backwards.text).toContain('<details open>');
    const future = await send('/console/incidents', list.text, { ...form, at: '2026-05-01T00:00' });
    expect(future.text).toContain('id="at-error">Not in the future');
    const noStart = await send('/console/incidents', list.text, { ...form, at: '' });
    expect(noStart.text).toContain('id="at-error">A past incident needs its start');
    const badDay = await send('/console/incidents', list.text, { ...form, at: '2026-02-30T02:00' });
    expect(badDay.text).toContain('id="at-error">A date and time (UTC)');

    const declared = await send('/console/incidents', list.text, form);
    expect(declared.status).toBe(303);
    const id = declared.location!.split('/')[3].split('?')[0];
    const incident = await incidentOf(id);
    expect(incident.lastUpdateStatus).toBe('RESOLVED');
    expect(incident.incidentUpdates.map((u: { status: string; publicIncidentUpdateDate: string }) => [u.status, u.publicIncidentUpdateDate])).toEqual([
      ['INVESTIGATING', '2026-03-01T02:00:00.000Z'],
      ['RESOLVED', '2026-03-01T03:15:00.000Z'],
    ]);
    expect((await listPage('?status=resolved&search=night')).names).toEqual(['Night outage']);
  });
});

describe("an incident's page", () => {
  let id: string;
  let page: string;

  beforeAll(async () => {
    id = (await api('post', '/v1/status-pages/incidents', { name: 'API errors', severity: 'MINOR', services: [{ id: services[0].id }], incidentUpdates: [{ description: 'Some 500s.', status: 'INVESTIGATING', notifySubscribers: true }] })).body.id;
    page = (await consoleRequest(server, 'GET', `/console/incidents/${id}`, { cookie: writer })).text;
  });

  it('posts a backdated update where it happened in the timeline', async () => {
    const posted = await send(`/console/incidents/${id}/updates`, page, { status: 'IDENTIFIED', description: 'Earlier note.', at: '2026-04-01T07:30' });
    expect(posted.status).toBe(303);
    const incident = await incidentOf(id);
    expect(incident.incidentUpdates[0]).toMatchObject({ description: 'Earlier note.', publicIncidentUpdateDate: '2026-04-01T07:30:00.000Z' });
    expect(incident.lastUpdateStatus).toBe('INVESTIGATING');
  });

  it("changes the name, severity and services; a mistake keeps what was typed and changes nothing", async () => {
    const wrong = await send(`/console/incidents/${id}`, page, { name: 'API <errors>', severity: 'HUGE', [`service-${services[1].id}`]: 'on' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('id="severity-error">Choose a severity');
    expect(wrong.text).toContain('value="API &lt;errors&gt;"');
    expect((await incidentOf(id)).severity).toBe('MINOR');
    const changed = await send(`/console/incidents/${id}`, page, { name: 'API errors everywhere', severity: 'MAJOR', [`service-${services[0].id}`]: 'on', [`service-${services[1].id}`]: 'on' });
    expect(changed).toMatchObject({ status: 303, location: `/console/incidents/${id}?notice=changed` });
    const incident = await incidentOf(id);
    expect([incident.name, incident.severity, incident.services.length]).toEqual(['API errors everywhere', 'MAJOR', 2]);
    const history = (await api('get', `/v1/status-pages/incidents/${id}/history`)).body;
    expect(history.entries.at(-1)).toMatchObject({ type: 'IncidentDetailsChanged' });
    expect(JSON.stringify(history.entries.at(-1))).toContain('person:ada@example.com');
  });

  it('edits an update: its text, status and date, without notifying again', async () => {
    const first = (await incidentOf(id)).incidentUpdates.find((u: { description: string }) => u.description === 'Some 500s.');
    const form = await consoleRequest(server, 'GET', `/console/incidents/${id}/updates/${first.id}`, { cookie: writer });
    expect(form.status).toBe(200);
    expect(form.text).toContain('>Some 500s.</textarea>');
    expect(form.text).toContain('value="2026-04-01T08:00"');
    const empty = await send(`/console/incidents/${id}/updates/${first.id}`, form.text, { status: 'INVESTIGATING', description: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('id="description-error">Write what customers should read.');
    const edited = await send(`/console/incidents/${id}/updates/${first.id}`, form.text, { status: 'IDENTIFIED', description: 'Some 500s on /v1.', at: '2026-04-01T07:00' });
    expect(edited).toMatchObject({ status: 303, location: `/console/incidents/${id}?notice=edited` });
    const incident = await incidentOf(id);
    expect(incident.incidentUpdates[0]).toMatchObject({ id: first.id, description: 'Some 500s on /v1.', status: 'IDENTIFIED', publicIncidentUpdateDate: '2026-04-01T07:00:00.000Z', notifySubscribers: true });
    expect((await consoleRequest(server, 'GET', `/console/incidents/${id}/updates/00000000-0000-4000-8000-000000000000`, { cookie: writer })).status).toBe(404);
    expect((await consoleRequest(server, 'GET', `/console/incidents/${id}/updates/nope`, { cookie: writer })).status).toBe(404);
  });

  it('a READ_ONLY member sees no edit link or details form, and their forged posts are refused (403), writing nothing', async () => {
    const seen = await consoleRequest(server, 'GET', `/console/incidents/${id}`, { cookie: reader });
    expect(seen.text).not.toContain('>Edit</a>');
    expect(seen.text).not.toContain('Save details');
    const before = await incidentOf(id);
    const updateId = before.incidentUpdates[0].id;
    expect((await consoleRequest(server, 'GET', `/console/incidents/${id}/updates/${updateId}`, { cookie: reader })).status).toBe(403);
    expect((await send(`/console/incidents/${id}`, seen.text, { name: 'Forged', severity: 'MINOR', [`service-${services[0].id}`]: 'on' }, reader)).status).toBe(403);
    expect((await send(`/console/incidents/${id}/updates/${updateId}`, seen.text, { status: 'RESOLVED', description: 'Forged' }, reader)).status).toBe(403);
    const list = await consoleRequest(server, 'GET', '/console/incidents', { cookie: reader });
    expect((await send('/console/incidents', list.text, { action: 'preview', name: 'x', severity: 'MINOR', status: 'INVESTIGATING', description: 'x', [`service-${services[0].id}`]: 'on' }, reader)).status).toBe(403);
    expect(await incidentOf(id)).toEqual(before);
  });
});

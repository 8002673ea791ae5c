import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The console's incident templates over real HTTP: manage them, declare from one, roles, isolation, the audit log. */
let server: TestServer;
let account: TestAccount;
let writer: string;
let reader: string;
let services: { id: string; name: string }[];

const TEMPLATES = '/console/incidents/templates';
const api = (path: string) => server.http.get(path, { key: account.key });
const templatesOf = async () => (await api('/v1/incident-templates?limit=100')).body.entries as { id: string; name: string; title: string; services: { id: string }[] }[];
const get = (path: string, cookie = writer) => consoleRequest(server, 'GET', path, { cookie });
/** A form post with the token of the page it came from. */
const send = (path: string, page: string, form: Record<string, string>, cookie = writer) => consoleRequest(server, 'POST', path, { cookie, form: { csrf: csrfOf(page), ...form } });
const unescape = (html: string) => html.replace(/&amp;/g, '&').replace(/&#x3D;/g, '=');

const filled = (over: Record<string, string> = {}) => ({
  name: 'Checkout down',
  title: 'Checkout is unavailable',
  severity: 'CRITICAL',
  status: 'IDENTIFIED',
  body: 'Payments **fail**; we know why.',
  [`service-${services[0].id}`]: 'on',
  [`service-${services[1].id}`]: 'on',
  notify: 'on',
  ...over,
});

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
  account = await server.account('Acme');
  for (const name of ['Checkout', 'Search', 'Mail']) await server.http.post('/v1/status-pages/services', { name }, { key: account.key });
  const all: { id: string; name: string }[] = (await api('/v1/status-pages/services?limit=100')).body.entries;
  services = ['Checkout', 'Search', 'Mail'].map((name) => all.find((s) => s.name === name)!);
  writer = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
  reader = await signedInMember(server, 'val@example.com', account.id, 'READ_ONLY');
});

afterAll(() => server.close());

describe('incident templates in the console', () => {
  it('a failed form writes nothing and keeps what was typed, each error beside its field', async () => {
    const page = await get(TEMPLATES);
    expect(page.status).toBe(200);
    const answer = await send(TEMPLATES, page.text, filled({ name: '  ', title: 'Kept <title>', severity: 'HUGE', body: '' }));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('The template was not added');
    expect(answer.text).toMatch(/id="name-error">name should not be empty/);
    expect(answer.text).toMatch(/id="severity-error">severity must be one of/);
    expect(answer.text).toMatch(/id="body-error">body should not be empty/);
    expect(answer.text).toContain('value="Kept &lt;title&gt;"');
    expect(answer.text).toContain(`id="svc-${services[0].id}" name="service-${services[0].id}" value="on" checked`);
    expect(answer.text).not.toContain(`id="svc-${services[2].id}" name="service-${services[2].id}" value="on" checked`);
    expect(await templatesOf()).toEqual([]);

    // A service that is not the account's is refused by the command handler, as the API refuses it.
    const foreign = await send(TEMPLATES, page.text, filled({ 'service-01900000-0000-7000-8000-000000000999': 'on' }));
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('id="services-error">Choose services of this account');
    expect(await templatesOf()).toEqual([]);
  });

  it('creates a template, declares an incident from it (form filled by a plain GET), and the incident carries its fields', async () => {
    const page = await get(TEMPLATES);
    const added = await send(TEMPLATES, page.text, filled());
    expect(added.status).toBe(303);
    expect(added.location).toBe(`${TEMPLATES}?notice=added`);
    const [template] = await templatesOf();
    expect(template).toMatchObject({ name: 'Checkout down', title: 'Checkout is unavailable', severity: 'CRITICAL', status: 'IDENTIFIED', notifySubscribers: true });
    expect(template.services.map((s) => s.id)).toEqual([services[0].id, services[1].id]);

    const list = await get(`${TEMPLATES}?notice=added`);
    expect(list.text).toContain('Template added.');
    expect(unescape(list.text)).toContain(`<a href="/console/incidents?template=${template.id}#declare-h" aria-label="Declare an incident from Checkout down">Declare</a>`);

    const incidents = await get('/console/incidents');
    expect(incidents.text).toContain(`<option value="${template.id}">Checkout down</option>`);
    const declare = await get(`/console/incidents?template=${template.id}`);
    expect(declare.status).toBe(200);
    expect(declare.text).toContain(`<option value="${template.id}" selected>Checkout down</option>`);
    expect(declare.text).toContain('id="name" name="name" maxlength="255" required value="Checkout is unavailable"');
    expect(declare.text).toContain('<option value="CRITICAL" selected>');
    expect(declare.text).toContain('<option value="IDENTIFIED" selected>');
    expect(declare.text).toContain('Payments **fail**; we know why.</textarea>');
    expect(declare.text).toContain('id="notify" name="notify" value="on" checked');
    expect(declare.text).toContain(`name="service-${services[1].id}" value="on" checked`);
    expect(declare.text).not.toContain(`name="service-${services[2].id}" value="on" checked`);

    // The declarer sends the filled form (previewed first, as without JavaScript).
    const form = { name: 'Checkout is unavailable', severity: 'CRITICAL', status: 'IDENTIFIED', description: 'Payments **fail**; we know why.', notify: 'on', [`service-${services[0].id}`]: 'on', [`service-${services[1].id}`]: 'on' };
    const preview = await send('/console/incidents', declare.text, { ...form, action: 'preview' });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('Preview: as customers will see it');
    const declared = await send('/console/incidents', preview.text, { ...form, action: 'declare' });
    expect(declared.status).toBe(303);
    const id = /\/console\/incidents\/([0-9a-f-]{36})/.exec(declared.location!)![1];
    const incident = (await api(`/v1/status-pages/incidents/${id}`)).body;
    expect(incident).toMatchObject({ name: 'Checkout is unavailable', severity: 'CRITICAL', lastUpdateStatus: 'IDENTIFIED' });
    expect(incident.services.map((s: { id: string }) => s.id)).toEqual([services[0].id, services[1].id]);
    expect(incident.incidentUpdates).toEqual([expect.objectContaining({ description: 'Payments **fail**; we know why.', status: 'IDENTIFIED', notifySubscribers: true })]);
  });

  it('edits and deletes a template; an unknown or foreign template is a 404 everywhere', async () => {
    const [template] = await templatesOf();
    const page = await get(`${TEMPLATES}/${template.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="Checkout down"');
    expect(page.text).toContain(`href="/console/audit?resource=incident-template:${template.id}"`);
    const bad = await send(`${TEMPLATES}/${template.id}`, page.text, filled({ title: 'x'.repeat(256) }));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="title-error">title must be shorter than or equal to 255 characters');
    expect((await templatesOf())[0].title).toBe('Checkout is unavailable');

    const saved = await send(`${TEMPLATES}/${template.id}`, page.text, filled({ name: 'Checkout slow', [`service-${services[1].id}`]: '' }));
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${TEMPLATES}/${template.id}?notice=saved`);
    const [after] = await templatesOf();
    expect(after).toMatchObject({ name: 'Checkout slow' });
    expect(after.services.map((s) => s.id)).toEqual([services[0].id]);

    const other = await server.account('Other');
    const stranger = await signedInMember(server, 'eve@example.com', other.id, 'ADMIN');
    const theirs = await get(`${TEMPLATES}/${template.id}`, stranger);
    expect(theirs.status).toBe(404);
    expect((await get(`/console/incidents?template=${template.id}`, stranger)).status).toBe(404);
    const strangerPage = await get(TEMPLATES, stranger);
    expect(strangerPage.text).not.toContain('Checkout slow');
    expect((await send(`${TEMPLATES}/${template.id}/delete`, strangerPage.text, {}, stranger)).status).toBe(404);
    expect((await send(`${TEMPLATES}/${template.id}`, strangerPage.text, filled({ name: 'Taken' }), stranger)).status).toBe(404);
    expect((await get(`${TEMPLATES}/not-an-id`)).status).toBe(404);
    expect((await templatesOf())[0].name).toBe('Checkout slow');

    const deleted = await send(`${TEMPLATES}/${template.id}/delete`, page.text, {});
    expect(deleted.status).toBe(303);
    expect(await templatesOf()).toEqual([]);
    expect((await get(`${TEMPLATES}/${template.id}`)).status).toBe(404);
    expect((await get(`/console/incidents?template=${template.id}`)).status).toBe(404);
  });

  it('READ_ONLY members see templates with no action, and a forged post is refused and writes nothing', async () => {
    const page = await get(TEMPLATES);
    expect((await send(TEMPLATES, page.text, filled({ name: 'Readable' }))).status).toBe(303);
    const [template] = await templatesOf();
    const seen = await get(TEMPLATES, reader);
    expect(seen.status).toBe(200);
    expect(seen.text).toContain('Readable');
    expect(seen.text).not.toContain('<form method="post" action="/console/incidents');
    expect(seen.text).not.toContain('Declare</a>');
    const one = await get(`${TEMPLATES}/${template.id}`, reader);
    expect(one.text).toContain('<dt>Incident name</dt><dd>Checkout is unavailable</dd>');
    expect(one.text).not.toContain('<form method="post" action="/console/incidents');
    // The declare form is not theirs: ?template= shows the list without it.
    const incidents = await get(`/console/incidents?template=${template.id}`, reader);
    expect(incidents.status).toBe(200);
    expect(incidents.text).not.toContain('Start from a template');

    for (const [path, form] of [[TEMPLATES, filled({ name: 'Forged' })], [`${TEMPLATES}/${template.id}`, filled({ name: 'Forged' })], [`${TEMPLATES}/${template.id}/delete`, {}]] as const) {
      const forged = await send(path, seen.text, form, reader);
      expect([path, forged.status]).toEqual([path, 403]);
      expect(forged.text).toContain('READ_ONLY');
    }
    // Without the page's form token, a writer's post is refused too.
    expect((await consoleRequest(server, 'POST', TEMPLATES, { cookie: writer, form: { csrf: 'stale', ...filled({ name: 'Stale' }) } })).status).toBe(403);
    expect((await templatesOf()).map((t) => t.name)).toEqual(['Readable']);
  });

  it('the audit log shows the changes made in the console with the person as author, linked to the template', async () => {
    const [template] = await templatesOf();
    const audit = await get(`/console/audit?resource=incident-template:${template.id}`);
    expect(audit.status).toBe(200);
    expect(audit.text).toContain('incident template created');
    expect(audit.text).toContain('ada@example.com');
    expect(audit.text).toContain(`href="/console/incidents/templates/${template.id}"`);
    const all = await get('/console/audit?resource=incident-template');
    expect((all.text.match(/incident template deleted/g) ?? []).length).toBe(1);
  });
});

import { createServer } from 'node:http';
import { ManualClock } from '../../libs/core/src/clock';
import { CustomDomainChecks } from '../../libs/status-pages/src/status-pages.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The console's status pages, subscribers, services and maintenance screens over real HTTP, without JavaScript. */
let server: TestServer;
let account: TestAccount;
let writer: string;
let admin: string;
let viewer: string;
const clock = new ManualClock('2026-04-01T08:00:00.000Z');

const api = (path: string) => server.http.get(path, { key: account.key });
const page = (path: string, cookie = writer) => consoleRequest(server, 'GET', path, { cookie });
async function post(path: string, form: Record<string, string>, cookie = writer, from = path) {
  const token = csrfOf((await page(from, cookie)).text);
  return consoleRequest(server, 'POST', path, { cookie, form: { csrf: token, ...form } });
}
/** A READ_ONLY member's page shows no form but sign-out's, and a post it forges (with its own valid token) is refused. */
/** The name of the position field of a service on a card of a status page form, found by the service's label. */
function slot(html: string, card: string, service: string): string {
  return new RegExp(`<label for="(${card}-s\\d+)">${service}</label>`).exec(html)![1];
}
const colorsOf = (html: string) => Object.fromEntries([...html.matchAll(/<input type="color" id="([^"]+)" name="[^"]+" value="([^"]+)"/g)].map((m) => [m[1], m[2]]));
const svcsOf = (html: string) => /name="svcs" value="([^"]*)"/.exec(html)![1];

async function readOnly(path: string, action: string, form: Record<string, string>) {
  const seen = await page(path, viewer);
  expect(seen.status).toBe(200);
  expect(seen.text.match(/<form method="post"/g)).toHaveLength(1);
  const forged = await consoleRequest(server, 'POST', action, { cookie: viewer, form: { csrf: csrfOf(seen.text), ...form } });
  expect(forged.status).toBe(403);
  expect(forged.text).toContain('READ_ONLY');
}

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
  account = await server.account('Acme');
  writer = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
  admin = await signedInMember(server, 'max@example.com', account.id, 'ADMIN');
  viewer = await signedInMember(server, 'val@example.com', account.id, 'READ_ONLY');
});

afterAll(() => server.close());

describe('services', () => {
  it('adds, edits and deletes a service; a failed form writes nothing and keeps what was typed', async () => {
    const failed = await post('/console/services', { name: '', description: 'Kept <b>text</b>' });
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('aria-invalid="true" aria-describedby="name-hint name-error"');
    expect(failed.text).toContain('Kept &lt;b&gt;text&lt;/b&gt;</textarea>');
    expect((await api('/v1/status-pages/services')).body.entries).toHaveLength(0);

    const added = await post('/console/services', { name: 'Checkout', description: 'Payments' });
    expect(added).toMatchObject({ status: 303, location: '/console/services?notice=added' });
    const [service] = (await api('/v1/status-pages/services')).body.entries;
    expect(service).toMatchObject({ name: 'Checkout', description: 'Payments' });
    expect((await page('/console/services')).text).toContain(`<a href="/console/services/${service.id}">Checkout</a>`);

    const long = await post(`/console/services/${service.id}`, { name: 'x'.repeat(256), description: '' });
    expect(long.status).toBe(400);
    expect(long.text).toContain('name must be shorter than or equal to 255 characters');
    const saved = await post(`/console/services/${service.id}`, { name: 'Checkout API', description: '' });
    expect(saved.location).toBe(`/console/services/${service.id}?notice=saved`);
    const edited = (await api(`/v1/status-pages/services/${service.id}`)).body;
    expect([edited.name, edited.description ?? null]).toEqual(['Checkout API', null]);

    await readOnly(`/console/services/${service.id}`, `/console/services/${service.id}/delete`, {});
    expect((await post(`/console/services/${service.id}/delete`, {}, writer, `/console/services/${service.id}`)).location).toBe('/console/services?notice=deleted');
    expect((await api('/v1/status-pages/services')).body.entries).toHaveLength(0);
  });
});

describe('maintenance windows', () => {
  it('plans, edits, ends and deletes a window, listed as upcoming, active and past', async () => {
    const failed = await post('/console/maintenance', { name: 'Disk swap', startsAt: '2026-04-01T10:00', endsAt: '2026-04-01T09:00', timezone: 'UTC', repeatUnit: '', repeatInterval: '', repeatEndsAt: '', tags: 'db' });
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('endsAt must be after startsAt');
    expect(failed.text).toContain('value="Disk swap"');
    expect((await api('/v1/maintenance-windows')).body.entries).toHaveLength(0);

    const planned = await post('/console/maintenance', { name: 'Disk swap', startsAt: '2026-04-01T10:00', endsAt: '2026-04-01T12:00', timezone: 'UTC', repeatUnit: '', repeatInterval: '', repeatEndsAt: '', tags: 'db, disks' });
    expect(planned).toMatchObject({ status: 303, location: '/console/maintenance?notice=planned' });
    const [window] = (await api('/v1/maintenance-windows')).body.entries;
    expect(window).toMatchObject({ name: 'Disk swap', startsAt: '2026-04-01T10:00:00.000Z', endsAt: '2026-04-01T12:00:00.000Z', tags: ['db', 'disks'] });
    expect((await page('/console/maintenance')).text).toMatch(/Upcoming<\/h2>\s*<ul class="rows card"><li><span class="who"><a href="\/console\/maintenance\/[^"]+">Disk swap/);

    clock.set(new Date('2026-04-01T11:00:00.000Z'));
    const shown = await page(`/console/maintenance/${window.id}`);
    expect(shown.text).toContain('End now');
    await readOnly(`/console/maintenance/${window.id}`, `/console/maintenance/${window.id}/end`, {});
    expect((await post(`/console/maintenance/${window.id}/end`, {}, writer, `/console/maintenance/${window.id}`)).status).toBe(303);
    expect((await api(`/v1/maintenance-windows/${window.id}`)).body.endsAt).toBe('2026-04-01T11:00:00.000Z');
    expect((await page('/console/maintenance')).text).toMatch(/Past<\/h2>\s*<ul class="rows card"><li>.*Disk swap/);

    const edited = await post(`/console/maintenance/${window.id}`, { name: 'Weekly swap', startsAt: '2026-03-25T10:30', endsAt: '2026-03-25T11:30', timezone: 'Asia/Tokyo', repeatUnit: 'WEEK', repeatInterval: '1', repeatEndsAt: '', tags: '' });
    expect(edited.status).toBe(303);
    expect((await api(`/v1/maintenance-windows/${window.id}`)).body).toMatchObject({ name: 'Weekly swap', repeatUnit: 'WEEK', repeatInterval: 1, timezone: 'Asia/Tokyo' });
    const repeating = await page('/console/maintenance');
    expect(repeating.text).toMatch(/Active now<\/h2>\s*<ul class="rows card"><li>.*Weekly swap<\/a><\/span><span>now until 2026-04-01 11:30 UTC; first 2026-03-25 10:30 UTC/);
    expect((await page(`/console/maintenance/${window.id}`)).text).not.toContain('End now');
    clock.set(new Date('2026-04-01T12:00:00.000Z'));
    expect((await page('/console/maintenance')).text).toMatch(/Repeating<\/h2>\s*<ul class="rows card"><li>.*Weekly swap/);
    expect((await post(`/console/maintenance/${window.id}/delete`, {}, writer, `/console/maintenance/${window.id}`)).location).toBe('/console/maintenance?notice=deleted');
    expect((await api('/v1/maintenance-windows')).body.entries).toHaveLength(0);
  });
});

describe('status pages and their subscribers', () => {
  let pageId = '';

  it('creates a page with colours and a card of two services in order; a failed form writes nothing and keeps what was typed', async () => {
    for (const name of ['Search', 'Web']) await server.http.post('/v1/status-pages/services', { name }, { key: account.key });
    const blank = await page('/console/status-pages/new');
    expect(blank.status).toBe(200);
    const form = colorsOf(blank.text);
    expect(Object.keys(form)).toHaveLength(24);
    const [web, search] = [slot(blank.text, 'c0', 'Web'), slot(blank.text, 'c0', 'Search')];
    const fields = { ...form, svcs: svcsOf(blank.text), name: 'Acme status', url: 'acme', description: '', customDomain: 'status.acme.test', logo: '', logoDark: '', favicon: '', defaultTheme: 'DARK', 'l-linkFontColor': '#0044aa', 'c0-id': '', 'c0-name': 'Core', 'c0-pos': '1', [web]: '1', [search]: '2' };

    const failed = await post('/console/status-pages', { ...fields, url: 'No Spaces', logo: 'ftp://x', [search]: 'two' }, writer, '/console/status-pages/new');
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('url must be 3 to 63 lowercase letters, digits or hyphens');
    expect(failed.text).toContain('logo must be an http or https URL');
    expect(failed.text).toContain('A position is a whole number');
    expect(failed.text).toContain('value="No Spaces"');
    expect(failed.text).toContain('value="#0044aa"');
    expect((await api('/v1/status-pages')).body.entries).toHaveLength(0);

    const created = await post('/console/status-pages', fields, writer, '/console/status-pages/new');
    expect(created.status).toBe(303);
    pageId = /status-pages\/([0-9a-f-]+)\?notice=created/.exec(created.location!)![1];
    const saved = (await api(`/v1/status-pages/${pageId}`)).body;
    expect(saved).toMatchObject({ name: 'Acme status', url: 'acme', defaultTheme: 'DARK', customDomain: 'status.acme.test', customDomainVerification: { status: 'PENDING' } });
    expect(saved.themeColors.light.linkFontColor.toLowerCase()).toBe('#0044aa');
    expect(saved.cards.map((c: { name: string; services: { name: string }[] }) => [c.name, c.services.map((s) => s.name)])).toEqual([['Core', ['Web', 'Search']]]);

    const shown = await page(`/console/status-pages/${pageId}`);
    expect(shown.text).toContain(saved.customDomainVerification.dns.name);
    expect(shown.text).toContain(saved.customDomainVerification.http.body);
    expect(shown.text).toContain('PENDING');
    expect(shown.text).toContain(`href="${saved.publicUrl}"`);
    expect(shown.text).toContain('data-fill="l-linkFontColor" fill="#0044aa"');
  });

  it('reorders services and renames a card on edit, keeping what the form did not change; READ_ONLY sees no form and a forged save is refused', async () => {
    const patched = await fetch(`${server.url}/v1/status-pages/${pageId}`, { method: 'PATCH', headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ redirectTo: 'https://example.com/moved' }) });
    expect(patched.status).toBe(200);
    const current = await page(`/console/status-pages/${pageId}`);
    const form = Object.fromEntries([...current.text.matchAll(/<input type="(?:color|text|url|number|hidden)" (?:class="pos" )?id="([^"]+)" name="[^"]+"(?: maxlength="\d+")?(?: required)?(?: min="1" max="9999")? value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const cardId = /name="c0-id" value="([^"]+)"/.exec(current.text)![1];
    const edit = { ...form, svcs: svcsOf(current.text), 'c0-id': cardId, 'c0-name': 'Everything', [slot(current.text, 'c0', 'Web')]: '2', [slot(current.text, 'c0', 'Search')]: '1', description: '', defaultTheme: 'AUTO', 'c1-name': '' };
    const saved = await post(`/console/status-pages/${pageId}`, edit, writer, `/console/status-pages/${pageId}`);
    expect(saved.status).toBe(303);
    const after = (await api(`/v1/status-pages/${pageId}`)).body;
    expect(after.cards).toMatchObject([{ id: cardId, name: 'Everything', services: [{ name: 'Search' }, { name: 'Web' }] }]);
    expect([after.redirectTo, after.customDomain, after.themeColors.light.linkFontColor.toLowerCase()]).toEqual(['https://example.com/moved', 'status.acme.test', '#0044aa']);
    await readOnly(`/console/status-pages/${pageId}`, `/console/status-pages/${pageId}`, edit);
    expect((await api(`/v1/status-pages/${pageId}`)).body.updated_at).toBe(after.updated_at);
  });

  it('checks the custom domain now: once the token is served, the page says VERIFIED', async () => {
    const token = (await api(`/v1/status-pages/${pageId}`)).body.customDomainVerification.http.body as string;
    const receiver = createServer((request, response) => {
      const found = request.url === '/.well-known/vigil-domain-verification';
      response.writeHead(found ? 200 : 404, { 'content-type': 'text/plain' }).end(found ? token : 'not here');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server.app.get(CustomDomainChecks).httpTarget = () => ({ host: '127.0.0.1', port: (receiver.address() as { port: number }).port });
    try {
      const checked = await post(`/console/status-pages/${pageId}/domain-check`, {}, writer, `/console/status-pages/${pageId}`);
      expect(checked).toMatchObject({ status: 303, location: `/console/status-pages/${pageId}?notice=checked` });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
    const shown = await page(`/console/status-pages/${pageId}`);
    expect(shown.text).toContain('<span class="state s-VERIFIED">VERIFIED</span> — the page answers at https://status.acme.test.');
    expect((await api(`/v1/status-pages/${pageId}`)).body.customDomainVerification.status).toBe('VERIFIED');
  });

  it('imports subscribers only when every row is valid, exports them as CSV, and removes one', async () => {
    const subscribers = `/console/status-pages/${pageId}/subscribers`;
    const bad = await post(subscribers, { rows: 'type,address\nEMAIL,ann@example.com\nEMAIL,not-an-address\nFAX,123' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Line 3: &quot;not-an-address&quot; is not an email address.');
    expect(bad.text).toContain('Line 4: the type must be EMAIL or WEBHOOK, not &quot;FAX&quot;.');
    expect(bad.text).toContain('EMAIL,not-an-address');
    expect((await api(`/v1/status-pages/${pageId}/subscriptions`)).body).toHaveLength(0);

    const good = await post(subscribers, { rows: 'ann@example.com\nWEBHOOK,https://hooks.example.com/x\nANN@example.com' });
    expect(good).toMatchObject({ status: 303, location: `${subscribers}?added=2&skipped=1` });
    expect((await page(good.location!)).text).toContain('2 added, 1 skipped');
    const verified = await post(subscribers, { rows: 'bob@example.com', verified: 'on' }, admin);
    expect(verified.status).toBe(303);
    expect((await post(subscribers, { rows: 'cy@example.com', verified: 'on' })).status).toBe(403);
    const list = (await api(`/v1/status-pages/${pageId}/subscriptions`)).body as { id: string; address: string; status: string }[];
    expect(list.map((s) => [s.address, s.status]).sort()).toEqual([['ann@example.com', 'PENDING'], ['bob@example.com', 'VERIFIED'], ['https://hooks.example.com/x', 'PENDING']]);

    const csv = await fetch(`${server.url}${subscribers}/export.csv`, { headers: { cookie: viewer } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('type,address,status,created_at');
    expect(text).toContain('EMAIL,bob@example.com,VERIFIED,');

    await readOnly(subscribers, subscribers, { rows: 'eve@example.com' });
    const ann = list.find((s) => s.address === 'ann@example.com')!;
    expect((await post(`${subscribers}/${ann.id}/remove`, {}, writer, subscribers)).location).toBe(`${subscribers}?notice=removed`);
    expect((await api(`/v1/status-pages/${pageId}/subscriptions`)).body).toHaveLength(2);
  });

  it('bounds an import: at most 100 lines and 3,500 characters, and a form body over 4 KB is refused; nothing is written', async () => {
    const subscribers = `/console/status-pages/${pageId}/subscribers`;
    const before = (await api(`/v1/status-pages/${pageId}/subscriptions`)).body.length;
    const many = await post(subscribers, { rows: Array.from({ length: 101 }, (_, i) => `u${i}@ex.io`).join('\n') });
    expect(many.status).toBe(400);
    expect(many.text).toContain('At most 100 subscribers at a time (this has 101)');
    const long = await post(subscribers, { rows: Array.from({ length: 80 }, (_, i) => `${'y'.repeat(30)}${i}@example.com`).join('\n') });
    expect(long.status).toBe(400);
    expect(long.text).toContain('The list is longer than 3500 characters');
    // Console forms may be up to 64 KB (a status page with many services); past that, 413 says so.
    const huge = await post(subscribers, { rows: Array.from({ length: 900 }, (_, i) => `${'x'.repeat(60)}${i}@example.com`).join('\n') });
    expect(huge.status).toBe(413);
    expect(huge.text).toContain('larger than 64 KB');
    expect((await api(`/v1/status-pages/${pageId}/subscriptions`)).body).toHaveLength(before);
  });

  it('lists pages with links to their public page, and answers 404 for another account’s page', async () => {
    const list = await page('/console/status-pages');
    expect(list.text).toContain(`<a href="/console/status-pages/${pageId}">Acme status</a>`);
    expect(list.text).toContain('Open public page');
    expect((await page('/console/status-pages')).text).toContain('aria-current="page">Status pages</a>');
    const other = await server.account('Other');
    const theirs = (await server.http.post('/v1/status-pages', { name: 'Theirs', url: 'theirs', cards: [] }, { key: other.key })).body;
    expect((await page(`/console/status-pages/${theirs.id}`)).status).toBe(404);
    expect((await page(`/console/status-pages/${theirs.id}/subscribers`)).status).toBe(404);
    const blank = await page('/console/status-pages/new');
    const taken = await post('/console/status-pages', { ...colorsOf(blank.text), svcs: svcsOf(blank.text), name: 'Mine', url: 'theirs', defaultTheme: 'AUTO', 'c0-id': '', 'c0-name': '' }, writer, '/console/status-pages/new');
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('<p class="field-error" id="url-error">url &quot;theirs&quot; is already taken</p>');
  });
});

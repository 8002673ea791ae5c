import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { ManualClock } from '../../libs/core/src/clock';
import { HttpResponse } from '../../libs/testing/src/http-client';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createIncident, createPage, postForm, proveDomain } from './public-pages-fixtures';
import { ROUTES, violations } from './statuspage-v2.schema';

const NOW = '2026-11-20T12:00:00.000Z';
const clock = new ManualClock(NOW);
let server: TestServer;
let account: TestAccount;
let count = 0;

beforeAll(async () => {
  server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_PUBLIC_URL: 'https://vigil.example.com' } });
  account = await server.account();
});
afterAll(() => server.close());

const key = () => ({ key: account.key });
const slug = (prefix = 'pub') => `${prefix}-${++count}`;
/** fetch never sends a Host of our choosing: custom-domain requests go through node:http. */
function get(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  if (!headers.host) return server.http.get(path, { headers });
  return rawRequest('GET', path, headers);
}

function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpResponse & { raw: Buffer }> {
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // HTML, XML, SVG: tests read `text`.
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: parsed, text, raw: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const HTML_ROUTES = ['', '/history'];
const JSON_ROUTES = Object.keys(ROUTES).map((route) => `/api/v2/${route}`);
const FEED_ROUTES = ['/history.rss', '/history.atom'];
const BADGE_ROUTES = ['/badge.svg', '/badge.json'];

function expectSafeHeaders(response: HttpResponse) {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBeTruthy();
  expect(response.headers.get('set-cookie')).toBeNull();
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('script-src');
}

describe('public status pages: routes', () => {
  it('serves every route of §6 with its type, cache rules, CORS on machine-readable answers, and no cookie', async () => {
    const page = await createPage(server, account, slug());
    const incidentId = await createIncident(server, account, [page.serviceIds[0]]);
    const base = `/status/${page.url}`;
    for (const path of [...HTML_ROUTES, `/incidents/${incidentId}`]) {
      const response = await get(base + path);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      expect(response.text).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(response.text).toContain(`<link rel="alternate" type="application/rss+xml" title="Acme – incident history (RSS)" href="${base}/history.rss">`);
      expect(response.text).toContain(`href="${base}/history.atom"`);
      expect(response.text).not.toMatch(/<script|style="/i);
      expectSafeHeaders(response);
    }
    for (const path of [...JSON_ROUTES, ...FEED_ROUTES, ...BADGE_ROUTES]) {
      const response = await get(base + path);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get('cache-control')).toBe('public, max-age=30');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expectSafeHeaders(response);
    }
    expect((await get(`${base}/api/v2/summary.json`)).headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await get(`${base}/history.rss`)).headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect((await get(`${base}/history.atom`)).headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect((await get(`${base}/badge.svg`)).headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  });

  it('serves its stylesheets for a year under hashed names, and the theme the page links', async () => {
    const page = await createPage(server, account, slug(), { extra: { defaultTheme: 'DARK' } });
    const html = (await get(`/status/${page.url}`)).text;
    const hrefs = [...html.matchAll(/<link rel="(?:stylesheet|icon)" href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toHaveLength(3);
    for (const href of hrefs) {
      const response = await get(href);
      expect([href, response.status]).toEqual([href, 200]);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expectSafeHeaders(response);
    }
    const theme = await get(hrefs[1]);
    expect(theme.headers.get('content-type')).toBe('text/css; charset=utf-8');
    // DARK: the dark palette only, no media query.
    expect(theme.text).toContain('color-scheme:dark');
    expect(theme.text).not.toContain('prefers-color-scheme');
    expect((await get(`/status/${page.url}/theme/stale.css`)).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/_vigil/nothing.css')).status).toBe(404);
  });

  it('answers an unknown page with an HTML 404 on HTML routes and the JSON error shape elsewhere', async () => {
    for (const path of ['/status/no-such-page', '/status/no-such-page/history', '/status/no-such-page/incidents/01a1b2c3-0000-7000-8000-000000000000']) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('<h1>Page not found</h1>');
      expectSafeHeaders(response);
    }
    for (const path of [...JSON_ROUTES, ...FEED_ROUTES, ...BADGE_ROUTES].map((p) => `/status/no-such-page${p}`)) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    }
    const page = await createPage(server, account, slug());
    expect((await get(`/status/${page.url}/api/v2/nothing.json`)).body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    const missing = await get(`/status/${page.url}/incidents/not-a-uuid`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Incident not found');
    const otherIncident = await createIncident(server, account, [(await createPage(server, account, slug())).serviceIds[0]]);
    expect((await get(`/status/${page.url}/incidents/${otherIncident}`)).status).toBe(404);
    expect((await get(`/status/${page.url}/badge.svg?service=${otherIncident}`)).status).toBe(404);
    expect((await get(`/status/${page.url}/history?page=0`)).status).toBe(400);
    // Without a matching Host, the custom-domain routes are nobody's page; the instance's own root leads to the docs.
    expect((await fetch(`${server.url}/`, { redirect: 'manual' })).headers.get('location')).toBe('/console');
    expect((await get('/api/v2/status.json')).status).toBe(404);
  });

  it('answers If-None-Match with 304 until a write changes the answer, and shows the write at once', async () => {
    const page = await createPage(server, account, slug());
    for (const path of ['', '/api/v2/summary.json', '/history.rss', '/badge.svg']) {
      const first = await get(`/status/${page.url}${path}`);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get(`/status/${page.url}${path}`, { 'if-none-match': etag });
      expect([path, again.status, again.text]).toEqual([path, 304, '']);
      expect((await get(`/status/${page.url}${path}`, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    }
    const before = await get(`/status/${page.url}`);
    await createIncident(server, account, [page.serviceIds[0]], { name: 'Database unreachable', severity: 'CRITICAL' });
    const after = await get(`/status/${page.url}`, { 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.text).toContain('Database unreachable');
    expect(after.text).toContain('Major System Outage');
    expect((await get(`/status/${page.url}/api/v2/status.json`)).body.status).toEqual({ indicator: 'critical', description: 'Major System Outage' });
  });

  it('gzips pages for clients that accept it, as a representation of its own', async () => {
    const page = await createPage(server, account, slug(), { services: 6 });
    const host = new URL(server.url).host;
    const plain = await rawRequest('GET', `/status/${page.url}`, { host });
    const gzipped = await rawRequest('GET', `/status/${page.url}`, { host, 'accept-encoding': 'br, gzip;q=0.8' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(gzipped.raw)).toString('utf8')).toBe(plain.text);
    expect(gzipped.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    const notModified = await rawRequest('GET', `/status/${page.url}`, { host, 'accept-encoding': 'gzip', 'if-none-match': gzipped.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect((await rawRequest('GET', `/status/${page.url}`, { host, 'accept-encoding': 'gzip;q=0' })).headers.get('content-encoding')).toBeNull();
  });

  it('drops a deleted page at once, and a renamed one at its old address', async () => {
    const page = await createPage(server, account, slug());
    expect((await get(`/status/${page.url}`)).status).toBe(200);
    const renamed = slug('renamed');
    const current = await server.http.get(`/v1/status-pages/${page.pageId}`, key());
    const { id: _id, accountId: _a, incidents: _i, created_at: _c, updated_at: _u, ...body } = current.body;
    expect((await server.http.put(`/v1/status-pages/${page.pageId}`, { ...body, url: renamed }, key())).status).toBe(200);
    expect((await get(`/status/${page.url}`)).status).toBe(404);
    expect((await get(`/status/${page.url}/api/v2/summary.json`)).status).toBe(404);
    expect((await get(`/status/${renamed}`)).status).toBe(200);
    expect((await server.http.delete(`/v1/status-pages/${page.pageId}`, key())).status).toBe(204);
    expect((await get(`/status/${renamed}`)).status).toBe(404);
    expect((await get(`/status/${renamed}/badge.json`)).status).toBe(404);
  });

  it('serves a page on its custom domain by Host, without the /status prefix', async () => {
    const page = await createPage(server, account, slug(), { customDomain: 'Status.Example.org' });
    expect((await get('/', { host: 'status.example.org' })).status).toBe(404);
    expect((await proveDomain(server, account, page.pageId)).body.customDomainVerification.status).toBe('VERIFIED');
    const incidentId = await createIncident(server, account, [page.serviceIds[0]], { name: 'Slow checkout' });
    for (const host of ['status.example.org', 'STATUS.example.org:8080']) {
      const home = await get('/', { host });
      expect(home.status).toBe(200);
      expect(home.text).toContain('Slow checkout');
      // Links on the custom domain stay on it.
      expect(home.text).toContain('href="/history"');
      expect(home.text).toContain(`href="/incidents/${incidentId}"`);
      expect(home.text).toContain('<form method="post" action="/subscribe">');
    }
    const host = { host: 'status.example.org' };
    for (const path of ['/history', `/incidents/${incidentId}`, ...JSON_ROUTES, ...FEED_ROUTES, ...BADGE_ROUTES]) {
      expect([path, (await get(path, host)).status]).toEqual([path, 200]);
    }
    const summary = await get('/api/v2/summary.json', host);
    expect(summary.body.page.url).toBe('https://status.example.org');
    expect(summary.body.incidents[0].shortlink).toBe(`https://status.example.org/incidents/${incidentId}`);
    expect((await get('/', { host: 'other.example.org' })).status).toBe(404);
    // The prefixed routes keep working on any host.
    expect((await get(`/status/${page.url}`, host)).status).toBe(200);
  });
});

describe('public status pages: what they show', () => {
  it('shows each service status from its open incidents and 90 daily bars weighted by severity', async () => {
    clock.set('2026-11-18T00:00:00.000Z');
    const page = await createPage(server, account, slug(), { services: 3 });
    const [api, web, db] = page.serviceIds;
    // 2 h of CRITICAL on api on 18 Nov, 2 h of MAJOR on web the same day, then MINOR on db, still open.
    clock.set('2026-11-18T12:00:00.000Z');
    await createIncident(server, account, [api], {
      severity: 'CRITICAL',
      updates: [
        { description: 'Down', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-11-18T10:00:00.000Z' },
        { description: 'Fixed', status: 'RESOLVED', publicIncidentUpdateDate: '2026-11-18T12:00:00.000Z' },
      ],
    });
    await createIncident(server, account, [web], {
      severity: 'MAJOR',
      updates: [
        { description: 'Slow', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-11-18T10:00:00.000Z' },
        { description: 'Fixed', status: 'RESOLVED', publicIncidentUpdateDate: '2026-11-18T12:00:00.000Z' },
      ],
    });
    await createIncident(server, account, [db], { severity: 'MINOR', name: 'Replica lag' });
    clock.set(NOW);
    const html = (await get(`/status/${page.url}`)).text;
    expect(html).toContain('18 Nov 2026: 91.66 % uptime, 1 incident (major outage)');
    expect(html).toContain('18 Nov 2026: 95.83 % uptime, 1 incident (partial outage)');
    // Opened 18 Nov 12:00 and still open: 10 % of its time counts as downtime.
    expect(html).toContain('18 Nov 2026: 95 % uptime, 1 incident (degraded performance)');
    expect(html).toContain('19 Nov 2026: 90 % uptime, 1 incident (degraded performance)');
    expect(html).toContain('Minor Service Outage');
    expect(html.match(/class="bars"/g)).toHaveLength(3);
    // Every bar run spans whole days and all runs of a service make 90.
    const firstService = html.split('class="bars"')[1].split('</ol>')[0];
    const days = [...firstService.matchAll(/ w(\d+)[ "]/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(days).toBe(90);
    // Runs older than the last 30 days (hidden on narrow screens) say so; none crosses that day.
    const recent = [...firstService.matchAll(/ w(\d+)"/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(recent).toBe(30);
    const components = (await get(`/status/${page.url}/api/v2/components.json`)).body.components;
    const byId = new Map(components.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect([byId.get(api), byId.get(web), byId.get(db)]).toEqual(['operational', 'operational', 'degraded_performance']);
    const badge = await get(`/status/${page.url}/badge.json?service=${db}`);
    expect(badge.body).toEqual({ schemaVersion: 1, label: 'Service 3', message: 'degraded performance', color: 'yellow' });
  });

  it('lists past incidents by 90-day history pages, newest first', async () => {
    clock.set('2026-07-01T00:00:00.000Z');
    const page = await createPage(server, account, slug());
    await createIncident(server, account, [page.serviceIds[0]], {
      name: 'Old outage',
      updates: [{ description: 'Was down', status: 'RESOLVED' }],
    });
    clock.set(NOW);
    await createIncident(server, account, [page.serviceIds[0]], { name: 'New outage', updates: [{ description: 'Done', status: 'RESOLVED' }] });
    const first = (await get(`/status/${page.url}/history`)).text;
    expect(first).toContain('New outage');
    expect(first).not.toContain('Old outage');
    // Handlebars escapes "=" in attributes as &#x3D;, which browsers read back as "=".
    expect(first).toContain(`href="/status/${page.url}/history?page&#x3D;2"`);
    const second = (await get(`/status/${page.url}/history?page=2`)).text;
    expect(second).toContain('Old outage');
    expect(second).toContain(`href="/status/${page.url}/history"`);
    // Resolved today: among the past incidents of the page, not the open ones.
    const home = (await get(`/status/${page.url}`)).text;
    expect(home.split('Past incidents')[1]).toContain('New outage');
    expect(home).toContain('All systems operational');
  });

  it('answers Statuspage v2 JSON on all eight routes with its field names, enums and nesting', async () => {
    const page = await createPage(server, account, slug());
    await createIncident(server, account, [page.serviceIds[0]], {
      severity: 'MEDIUM',
      updates: [
        { description: 'Looking', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-11-20T10:00:00.000Z' },
        { description: 'Watching', status: 'MONITORING', publicIncidentUpdateDate: '2026-11-20T11:00:00.000Z' },
      ],
    });
    await createIncident(server, account, [page.serviceIds[1]], { updates: [{ description: 'Gone', status: 'RESOLVED' }] });
    for (const [route, shape] of Object.entries(ROUTES)) {
      const response = await get(`/status/${page.url}/api/v2/${route}`);
      expect([route, violations(response.body, shape)]).toEqual([route, []]);
    }
    const summary = (await get(`/status/${page.url}/api/v2/summary.json`)).body;
    expect(summary.page).toEqual(expect.objectContaining({ id: page.pageId, name: 'Acme', url: `https://vigil.example.com/status/${page.url}` }));
    expect(summary.status).toEqual({ indicator: 'minor', description: 'Minor Service Outage' });
    expect(summary.incidents).toHaveLength(1);
    const [open] = summary.incidents;
    expect(open).toEqual(expect.objectContaining({ status: 'monitoring', impact: 'minor', monitoring_at: '2026-11-20T11:00:00.000Z', resolved_at: null, started_at: '2026-11-20T10:00:00.000Z' }));
    expect(open.incident_updates.map((u: { status: string }) => u.status)).toEqual(['monitoring', 'investigating']);
    expect(summary.components.filter((c: { group: boolean }) => c.group).map((c: { name: string }) => c.name)).toEqual(['Core', 'Edge']);
    expect(summary.scheduled_maintenances).toEqual([]);
    const incidents = (await get(`/status/${page.url}/api/v2/incidents.json`)).body.incidents;
    expect(incidents.map((i: { status: string }) => i.status)).toEqual(['resolved', 'monitoring']);
    expect((await get(`/status/${page.url}/api/v2/incidents/unresolved.json`)).body.incidents).toHaveLength(1);
    for (const route of ['scheduled-maintenances.json', 'scheduled-maintenances/upcoming.json', 'scheduled-maintenances/active.json']) {
      expect((await get(`/status/${page.url}/api/v2/${route}`)).body.scheduled_maintenances).toEqual([]);
    }
  });

  it('renders Markdown in updates with safe links only', async () => {
    const page = await createPage(server, account, slug());
    const incidentId = await createIncident(server, account, [page.serviceIds[0]], {
      updates: [{ description: 'See **[the postmortem](https://example.com/pm)**, [mail](mailto:ops@example.com), [bad](javascript:alert(1)), [data](data:text/html,x) and ![img](https://tracker.example/p.png)' }],
    });
    const html = (await get(`/status/${page.url}/incidents/${incidentId}`)).text;
    expect(html).toContain('<strong><a href="https://example.com/pm" rel="nofollow noopener">the postmortem</a></strong>');
    expect(html).toContain('<a href="mailto:ops@example.com" rel="nofollow noopener">mail</a>');
    expect(html).not.toMatch(/href="(javascript|data):/);
    expect(html).not.toContain('<img src="https://tracker');
  });
});

describe('public status pages: subscribe form', () => {
  beforeEach(() => clock.advance(11 * 60_000));

  it('creates a PENDING subscription and answers the same page whether or not the address was known', async () => {
    const page = await createPage(server, account, slug());
    const first = await postForm(server, `/status/${page.url}/subscribe`, { email: 'reader@example.com' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.text).toContain('Check your inbox');
    expect(first.text).not.toContain('reader@example.com');
    expectSafeHeaders(first);
    const again = await postForm(server, `/status/${page.url}/subscribe`, { email: 'reader@example.com' });
    expect(again.status).toBe(200);
    expect(again.text.replace(/x-request-id.*/g, '')).toBe(first.text);
    const subscriptions = await server.http.get(`/v1/status-pages/${page.pageId}/subscriptions`, key());
    expect(subscriptions.body).toEqual([expect.objectContaining({ type: 'EMAIL', address: 'reader@example.com', status: 'PENDING' })]);
  });

  it('works on the custom domain too', async () => {
    const page = await createPage(server, account, slug(), { customDomain: 'news.example.org' });
    await proveDomain(server, account, page.pageId);
    const response = await rawRequest('POST', '/subscribe', { host: 'news.example.org', 'content-type': 'application/x-www-form-urlencoded' }, 'email=domain%40example.com');
    expect(response.status).toBe(200);
    const subscriptions = await server.http.get(`/v1/status-pages/${page.pageId}/subscriptions`, key());
    expect(subscriptions.body.map((s: { address: string }) => s.address)).toEqual(['domain@example.com']);
  });

  it('refuses a bad address with a 400 page, and an unknown page with a 404 page', async () => {
    const page = await createPage(server, account, slug());
    const bad = await postForm(server, `/status/${page.url}/subscribe`, { email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Please check the address');
    expect((await postForm(server, `/status/${page.url}/subscribe`, {})).status).toBe(400);
    const unknown = await postForm(server, '/status/no-such-page/subscribe', { email: 'a@example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await server.http.get(`/v1/status-pages/${page.pageId}/subscriptions`, key())).body).toEqual([]);
  });

  it('allows 5 posts per IP per 10 minutes, then answers 429 with Retry-After', async () => {
    const page = await createPage(server, account, slug());
    for (let i = 0; i < 5; i++) expect((await postForm(server, `/status/${page.url}/subscribe`, { email: `r${i}@example.com` })).status).toBe(200);
    const limited = await postForm(server, `/status/${page.url}/subscribe`, { email: 'r9@example.com' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many requests');
    clock.advance(10 * 60_000 + 1000);
    expect((await postForm(server, `/status/${page.url}/subscribe`, { email: 'r9@example.com' })).status).toBe(200);
  });

  it('takes form bodies nowhere else, and no large ones', async () => {
    const page = await createPage(server, account, slug());
    const elsewhere = await server.http.request('POST', '/v1/status-pages', { key: account.key, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(elsewhere.status).toBe(415);
    const large = await postForm(server, `/status/${page.url}/subscribe`, { email: 'a@example.com', pad: 'x'.repeat(5000) });
    expect(large.status).toBe(413);
  });
});

import { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { axeViolations, chromiumDescribe, launchChromium, signedInContext, watchPage } from './browser-kit';
import { signedInMember } from './people-fixtures';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const describeInBrowser = chromiumDescribe('console browser tests');

let server: TestServer;
let account: TestAccount;
let browser: Browser;
let writer: string;
let reader: string;
let incidentPath = '';
let checkId = '';

/** Console errors, page errors, failed and third-party requests of a page. */
function watch(page: Page): string[] {
  // The overview's event stream is cut when the page goes away: not a failure of the page.
  return watchPage(page, server.url, { ignore: (url) => url.includes('/console/events') });
}

/** A browser of a signed-in person (the session cookie of a CLI sign-in link). */
async function personWith(cookie: string, javaScriptEnabled: boolean, options: Record<string, unknown> = {}): Promise<BrowserContext> {
  return signedInContext(browser, server.url, cookie, { javaScriptEnabled, ...options });
}

async function axe(context: BrowserContext, url: string): Promise<string[]> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const violations = await axeViolations(page);
  await page.close();
  return violations;
}

jest.setTimeout(120_000);

describeInBrowser('the operator console in headless Chromium', () => {
  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account('Acme');
    for (const name of ['Checkout', 'Search']) await server.http.post('/v1/status-pages/services', { name }, { key: account.key });
    const services = (await server.http.get('/v1/status-pages/services', { key: account.key })).body.entries as { id: string }[];
    await server.http.post('/v1/status-pages', { name: 'Acme status', url: 'acme-browser', cards: [{ name: 'Core', services: services.map((s) => ({ id: s.id })) }] }, { key: account.key });
    checkId = (await server.http.post('/v1/checks/heartbeat', { name: 'nightly-backup', heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } }, { key: account.key })).body.id;
    writer = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
    reader = await signedInMember(server, 'val@example.com', account.id, 'READ_ONLY');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('with JavaScript off: declare an incident with two services, see it on the public page, post an update, resolve', async () => {
    const context = await personWith(writer, false);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/console/incidents`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Declare incident' }).click();
    await page.waitForLoadState('load');
    await expect(page.locator('#name-error').textContent()).resolves.toContain('Name the incident');

    // The declaration's own fields: the list's search form above it has a Status, Severity and Service too.
    const form = page.locator('form.declare');
    await form.getByLabel('Name', { exact: true }).fill('Checkout is down');
    await form.getByLabel('Severity').selectOption('CRITICAL');
    await form.getByLabel('Checkout').check();
    await form.getByLabel('Search').check();
    await form.getByLabel('First update').fill('Payments fail for everyone.');
    await Promise.all([page.waitForURL(/notice=declared$/), form.getByRole('button', { name: 'Declare incident' }).click()]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Checkout is down');
    await expect(page.locator('main').textContent()).resolves.toMatch(/Affected services: (Checkout, Search|Search, Checkout)/);
    incidentPath = new URL(page.url()).pathname;

    const publicPage = await context.newPage();
    await publicPage.goto(`${server.url}/status/acme-browser`, { waitUntil: 'load' });
    await expect(publicPage.locator('body').textContent()).resolves.toContain('Checkout is down');
    await publicPage.close();

    await page.getByLabel('Status').selectOption('IDENTIFIED');
    await page.getByLabel('Update', { exact: true }).fill('A bad deploy; rolling back.');
    await Promise.all([page.waitForURL(/notice=posted$/), page.getByRole('button', { name: 'Post update' }).click()]);
    await expect(page.locator('.timeline li').first().textContent()).resolves.toContain('A bad deploy; rolling back.');

    await page.getByLabel('Status').selectOption('RESOLVED');
    await page.getByLabel('Update', { exact: true }).fill('Rolled back; payments work.');
    await Promise.all([page.waitForURL(/notice=resolved$/), page.getByRole('button', { name: 'Post update' }).click()]);
    await expect(page.locator('p.notice').textContent()).resolves.toBe('Incident resolved.');
    const incident = (await server.http.get(`/v1/status-pages/incidents/${incidentPath.split('/').pop()}`, { key: account.key })).body;
    expect(incident).toMatchObject({ name: 'Checkout is down', lastUpdateStatus: 'RESOLVED' });
    expect(incident.incidentUpdates).toHaveLength(3);
    // The one error is the deliberate empty form's answer (400, the form with its errors).
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await context.close();
  });

  it('a READ_ONLY member sees no actions, and a forged post with their own form token gets 403', async () => {
    const context = await personWith(reader, false);
    const page = await context.newPage();
    await page.goto(server.url + incidentPath, { waitUntil: 'load' });
    await expect(page.locator('h1').textContent()).resolves.toBe('Checkout is down');
    expect(await page.getByRole('button', { name: 'Post update' }).count()).toBe(0);
    await page.goto(`${server.url}/console/incidents`, { waitUntil: 'load' });
    expect(await page.getByRole('button', { name: 'Declare incident' }).count()).toBe(0);
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const forged = await context.request.post(`${server.url}${incidentPath}/updates`, { form: { csrf: csrf!, status: 'INVESTIGATING', description: 'Forged' }, headers: { origin: server.url } });
    expect(forged.status()).toBe(403);
    const incident = (await server.http.get(`/v1/status-pages/incidents/${incidentPath.split('/').pop()}`, { key: account.key })).body;
    expect(incident.incidentUpdates).toHaveLength(3);
    await context.close();
  });

  it('the overview changes live, without a reload, when a ping changes a check', async () => {
    const context = await personWith(writer, true);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/console`, { waitUntil: 'load' });
    const row = page.locator('#live li', { hasText: 'nightly-backup' });
    await expect(row.locator('.state').textContent()).resolves.toBe('NEW');
    await page.evaluate(() => ((document as any).body.dataset.marker = 'same page'));
    const token = (await server.http.get(`/v1/checks/${checkId}`, { key: account.key })).body.heartbeat.pingToken;
    await server.http.get(`/ping/${token}/fail`);
    await row.locator('.state', { hasText: 'FAILING' }).waitFor();
    await expect(page.evaluate(() => (document as any).body.dataset.marker)).resolves.toBe('same page');
    await page.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe violation, light and dark, and nothing overflows at 320 px', async () => {
    const paths = ['/console', '/console/incidents', incidentPath, '/console/checks', `/console/checks/${checkId}`];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await personWith(writer, true, { colorScheme, bypassCSP: true });
      for (const path of paths) expect([colorScheme, path, await axe(context, server.url + path)]).toEqual([colorScheme, path, []]);
      await context.close();
    }
    const narrow = await personWith(writer, false, { viewport: { width: 320, height: 640 } });
    for (const path of paths) {
      const page = await narrow.newPage();
      await page.goto(server.url + path, { waitUntil: 'load' });
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      expect([path, fits]).toEqual([path, true]);
      await page.close();
    }
    await narrow.close();
  });
});

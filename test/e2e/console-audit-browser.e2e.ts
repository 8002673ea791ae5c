import { Browser, BrowserContext, Page } from 'playwright-core';
import { ManualClock } from '../../libs/core/src/clock';
import { axeViolations, chromiumDescribe, launchChromium, signedInContext, watchPage } from './browser-kit';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, csrfOf, MINUTE, signedInMember } from './people-fixtures';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const describeInBrowser = chromiumDescribe('audit browser tests');

let server: TestServer;
let account: TestAccount;
let browser: Browser;
let ada: string;
let incidentId = '';
let pageId = '';
const clock = new ManualClock('2026-06-01T08:00:00.000Z');

/** Console errors, page errors, failed and third-party requests of a page. */
function watch(page: Page): string[] {
  return watchPage(page, server.url);
}

async function personWith(cookie: string, options: Record<string, unknown> = {}): Promise<BrowserContext> {
  return signedInContext(browser, server.url, cookie, options);
}

async function axe(context: BrowserContext, url: string): Promise<string[]> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const violations = await axeViolations(page);
  await page.close();
  return violations;
}

jest.setTimeout(120_000);

describeInBrowser('the audit log and past views in headless Chromium', () => {
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
    account = await server.account('Acme');
    const key = { key: account.key };
    const service = (await server.http.post('/v1/status-pages/services', { name: 'Checkout' }, key)).body;
    pageId = (await server.http.post('/v1/status-pages', { name: 'Acme status', url: 'acme-audit-browser', cards: [{ name: 'Core', services: [{ id: service.id }] }] }, key)).body.id;
    clock.advance(MINUTE);
    incidentId = (await server.http.post('/v1/status-pages/incidents', { name: 'Checkout is slow', severity: 'MAJOR', services: [{ id: service.id }], incidentUpdates: [{ description: 'Looking into a very long explanation of what is happening with the payment provider and its https://example.com/a/very/long/url/that/should/wrap/nicely', status: 'INVESTIGATING' }] }, key)).body.id;
    ada = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
    clock.advance(30 * MINUTE);
    const form = await consoleRequest(server, 'GET', `/console/incidents/${incidentId}`, { cookie: ada });
    await consoleRequest(server, 'POST', `/console/incidents/${incidentId}/updates`, { cookie: ada, form: { csrf: csrfOf(form.text), status: 'RESOLVED', description: 'Fixed.' } });
    await server.http.patch(`/v1/status-pages/${pageId}`, { name: 'Acme Inc status' }, key);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('filters by person with the form, and opens an incident as it was from its page', async () => {
    const context = await personWith(ada);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/console/audit`, { waitUntil: 'load' });
    await page.getByLabel('Who').selectOption({ label: 'ada@example.com' });
    await Promise.all([page.waitForURL(/actor=person/), page.getByRole('button', { name: 'Filter' }).click()]);
    await expect(page.locator('ol.audit > li').count()).resolves.toBe(1);
    await expect(page.locator('ol.audit').textContent()).resolves.toContain('RESOLVED');

    await page.goto(`${server.url}/console/incidents/${incidentId}`, { waitUntil: 'load' });
    await page.getByLabel('View as it was at (UTC)').fill('2026-06-01T08:10');
    await Promise.all([page.waitForURL(/as-of\?at=/), page.getByRole('button', { name: 'Show' }).click()]);
    await expect(page.locator('.past-view').textContent()).resolves.toContain('2026-06-01 08:10 UTC');
    await expect(page.locator('main').textContent()).resolves.not.toContain('Fixed.');
    expect(await page.locator('main form[method=post]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe violation, light and dark, and nothing overflows at 320 px', async () => {
    const paths = ['/console/audit', `/console/audit?resource=incident:${incidentId}`, '/console/audit?resource=spaceship', `/console/incidents/${incidentId}/as-of?at=2026-06-01T08:10`, `/console/status-pages/${pageId}/as-of?at=2026-06-01T08:10`];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await personWith(ada, { colorScheme, bypassCSP: true });
      for (const path of paths) expect([colorScheme, path, await axe(context, server.url + path)]).toEqual([colorScheme, path, []]);
      await context.close();
    }
    const narrow = await personWith(ada, { viewport: { width: 320, height: 640 } });
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

import { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { axeViolations, chromiumDescribe, launchChromium, signedInContext, watchPage } from './browser-kit';
import { signedInMember } from './people-fixtures';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const describeInBrowser = chromiumDescribe('console pages browser tests');

let server: TestServer;
let account: TestAccount;
let browser: Browser;
let writer: string;
let pageId = '';
let serviceId = '';
let windowId = '';

/** Console errors, page errors, failed and third-party requests of a page. */
function watch(page: Page): string[] {
  return watchPage(page, server.url);
}

async function personWith(cookie: string, javaScriptEnabled: boolean, options: Record<string, unknown> = {}): Promise<BrowserContext> {
  return signedInContext(browser, server.url, cookie, { javaScriptEnabled, ...options });
}

async function axe(page: Page): Promise<string[]> {
  return axeViolations(page);
}

const paths = () => [
  '/console/status-pages',
  '/console/status-pages/new',
  `/console/status-pages/${pageId}`,
  `/console/status-pages/${pageId}/subscribers`,
  '/console/services',
  `/console/services/${serviceId}`,
  '/console/maintenance',
  `/console/maintenance/${windowId}`,
];

jest.setTimeout(180_000);

describeInBrowser('the console’s status pages, services and maintenance in headless Chromium', () => {
  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account('Acme');
    const key = { key: account.key };
    for (const name of ['Checkout', 'Search']) serviceId = (await server.http.post('/v1/status-pages/services', { name }, key)).body.id;
    const page = await server.http.post('/v1/status-pages', { name: 'Acme status', url: 'acme-look', customDomain: 'status.acme.test', cards: [{ name: 'Core', services: [{ id: serviceId }] }] }, key);
    pageId = page.body.id;
    await server.http.post(`/v1/status-pages/${pageId}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'ann@example.com' }] }, key);
    windowId = (await server.http.post('/v1/maintenance-windows', { name: 'Disk swap', startsAt: '2030-01-01T01:00:00.000Z', endsAt: '2030-01-01T02:00:00.000Z' }, key)).body.id;
    writer = await signedInMember(server, 'ada@example.com', account.id, 'ADMIN');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('with JavaScript, the preview follows a theme colour as it changes, and saving keeps it', async () => {
    const context = await personWith(writer, true);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/console/status-pages/${pageId}`, { waitUntil: 'load' });
    const link = page.locator('[data-fill="l-linkFontColor"]');
    const before = await link.getAttribute('fill');
    await page.locator('#l-linkFontColor').fill('#aa0055');
    await expect(link.getAttribute('fill')).resolves.toBe('#aa0055');
    expect(before).not.toBe('#aa0055');
    await page.locator('#d-headerBackgroundColor').fill('#102030');
    await expect(page.locator('[data-fill="d-headerBackgroundColor"]').getAttribute('fill')).resolves.toBe('#102030');
    await Promise.all([page.waitForURL(/notice=saved/), page.getByRole('button', { name: 'Save status page' }).click()]);
    const saved = (await server.http.get(`/v1/status-pages/${pageId}`, { key: account.key })).body;
    expect([saved.themeColors.light.linkFontColor.toLowerCase(), saved.themeColors.dark.headerBackgroundColor.toLowerCase()]).toEqual(['#aa0055', '#102030']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript, the preview shows the colours once saved', async () => {
    const context = await personWith(writer, false);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/console/status-pages/${pageId}`, { waitUntil: 'load' });
    await page.locator('#l-bodyBackgroundColor').fill('#fafaf0');
    await expect(page.locator('[data-fill="l-bodyBackgroundColor"]').getAttribute('fill')).resolves.not.toBe('#fafaf0');
    await Promise.all([page.waitForURL(/notice=saved/), page.getByRole('button', { name: 'Save status page' }).click()]);
    await expect(page.locator('[data-fill="l-bodyBackgroundColor"]').getAttribute('fill')).resolves.toBe('#fafaf0');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe violation, light and dark, no console error, and nothing overflows at 320 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await personWith(writer, true, { colorScheme, bypassCSP: true });
      for (const path of paths()) {
        const page = await context.newPage();
        const problems = watch(page);
        await page.goto(server.url + path, { waitUntil: 'load' });
        expect([colorScheme, path, await axe(page), problems]).toEqual([colorScheme, path, [], []]);
        await page.close();
      }
      await context.close();
    }
    const narrow = await personWith(writer, true, { viewport: { width: 320, height: 640 } });
    for (const path of paths()) {
      const page = await narrow.newPage();
      const problems = watch(page);
      await page.goto(server.url + path, { waitUntil: 'load' });
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      expect([path, fits, problems]).toEqual([path, true, []]);
      await page.close();
    }
    await narrow.close();
  });
});

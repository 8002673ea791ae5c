import { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { Receiver, startReceiver } from './alerting-receivers';
import { axeViolations, chromiumDescribe, launchChromium, signedInContext, watchPage } from './browser-kit';
import { signedInMember } from './people-fixtures';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const describeInBrowser = chromiumDescribe('console operations browser tests');

let server: TestServer;
let account: TestAccount;
let receiver: Receiver;
let browser: Browser;
let admin: string;
let checkId = '';
let channelPath = '';

/** Console errors, page errors, failed and third-party requests of a page. */
function watch(page: Page): string[] {
  return watchPage(page, server.url);
}

async function personWith(cookie: string, options: Record<string, unknown> = {}): Promise<BrowserContext> {
  return signedInContext(browser, server.url, cookie, options);
}

async function axe(page: Page, url: string): Promise<string[]> {
  await page.goto(url, { waitUntil: 'load' });
  return axeViolations(page);
}

jest.setTimeout(180_000);

describeInBrowser('alert channels, checks and API keys in headless Chromium', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'on', VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account('Ops');
    const check = (await server.http.post('/v1/checks/heartbeat', { name: 'nightly-backup', tags: ['db'], heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } }, { key: account.key })).body;
    checkId = check.id;
    await fetch(`${server.url}/ping/${check.heartbeat.pingToken}`, { method: 'POST', body: 'dumped 12 tables' });
    await fetch(`${server.url}/ping/${check.heartbeat.pingToken}/fail`);
    admin = await signedInMember(server, 'ann@example.com', account.id, 'ADMIN');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it("creates a webhook channel by its form; a test send reaches the receiver and appears in the channel's delivery log", async () => {
    const context = await personWith(admin);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/console/alert-channels`, { waitUntil: 'load' });
    await Promise.all([page.waitForURL(/type=WEBHOOK$/), page.getByRole('link', { name: 'New Webhook channel' }).click()]);
    await page.getByLabel('Name', { exact: true }).fill('Ops hook');
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/hook`);
    await page.getByLabel('Headers').fill('Authorization: Bearer secret-token-0123456789');
    await page.getByLabel('nightly-backup').check();
    await Promise.all([page.waitForURL(/notice=created$/), page.getByRole('button', { name: 'Create channel' }).click()]);
    channelPath = new URL(page.url()).pathname;
    expect(await page.locator('main').textContent()).not.toContain('secret-token-0123456789');

    await Promise.all([page.waitForURL(/notice=test$/), page.getByRole('button', { name: 'Send a test alert' }).click()]);
    const row = page.locator('section[aria-labelledby=log-h] li', { hasText: 'ALERT_TEST' });
    for (let i = 0; i < 100 && (await row.locator('.s-SENT').count()) === 0; i++) {
      await page.waitForTimeout(100);
      await page.reload({ waitUntil: 'load' });
    }
    await expect(row.locator('.state').textContent()).resolves.toBe('SENT');
    expect(receiver.requests.filter((r) => r.path === '/hook' && r.headers.authorization === 'Bearer secret-token-0123456789')).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe violation light and dark, no console error, and nothing overflows at 320 px', async () => {
    const pingPath = await (async () => {
      const context = await personWith(admin);
      const page = await context.newPage();
      await page.goto(`${server.url}/console/checks/${checkId}`, { waitUntil: 'load' });
      const href = await page.locator('section[aria-labelledby=log-h] li a').last().getAttribute('href');
      await context.close();
      return href!;
    })();
    const paths = ['/console/alert-channels', '/console/alert-channels/new?type=WEBHOOK', '/console/alert-channels/new?type=OPSGENIE', channelPath, '/console/checks', `/console/checks/${checkId}`, pingPath, '/console/api-keys'];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await personWith(admin, { colorScheme, bypassCSP: true });
      const page = await context.newPage();
      const problems = watch(page);
      for (const path of paths) expect([colorScheme, path, await axe(page, server.url + path)]).toEqual([colorScheme, path, []]);
      expect(problems).toEqual([]);
      await context.close();
    }
    const narrow = await personWith(admin, { viewport: { width: 320, height: 640 } });
    const page = await narrow.newPage();
    for (const path of paths) {
      await page.goto(server.url + path, { waitUntil: 'load' });
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      expect([path, fits]).toEqual([path, true]);
    }
    await narrow.close();
  });
});

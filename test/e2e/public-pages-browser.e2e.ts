import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createIncident, createPage, PageFixture } from './public-pages-fixtures';
import { decodedMail, eventually, SmtpSink, startSmtpSink } from './alerting-receivers';
import { axeViolations, chromiumDescribe, launchChromium, watchPage } from './browser-kit';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare function getComputedStyle(element: unknown): { backgroundColor: string };

const DAY = 86_400_000;
const ROOT = join(__dirname, '..', '..');
const describeInBrowser = chromiumDescribe('public page browser tests');

let server: TestServer;
let account: TestAccount;
let browser: Browser;
let fixture: PageFixture;
let url: string;
let smtp: SmtpSink;

/** Everything that went wrong in the page: console errors and warnings, uncaught errors, failed or refused requests. */
function watch(page: Page): string[] {
  return watchPage(page, server.url, { strict: true });
}

async function open(options: BrowserContextOptions, path = ''): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems = watch(page);
  const response = await page.goto(url + path, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  // The favicon loads after "load": leaving before it arrives would abort it and count as a failed request.
  await page.waitForLoadState('networkidle');
  return { context, page, problems };
}

/** Serious and critical axe-core violations; axe is injected with the CSP bypassed, for this scan only. */
async function axe(colorScheme: 'light' | 'dark', path = ''): Promise<string[]> {
  const { context, page } = await open({ colorScheme, bypassCSP: true, javaScriptEnabled: true, viewport: { width: 1024, height: 900 } }, path);
  const violations = await axeViolations(page);
  await context.close();
  return violations;
}

jest.setTimeout(60_000);

describeInBrowser('public status page in headless Chromium', () => {
  beforeAll(async () => {
    // The services exist for longer than the 90 days the bars show; the clock then stands still at "now".
    const clock = new ManualClock(new Date(Date.now() - 120 * DAY));
    smtp = await startSmtpSink();
    server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Acme Status <status@vigil.test>' } });
    account = await server.account();
    fixture = await createPage(server, account, 'acme-status', {
      serviceNames: ['API', 'Dashboard', 'Database', 'CDN', 'Webhooks', 'Email delivery'],
      name: 'Acme Cloud',
      extra: { description: 'Live status of the Acme Cloud platform.' },
    });
    // A three-hour outage inside one UTC day 40 days ago (10:00–13:00), so its bar reads exactly 87.5 %.
    const outage = Math.floor((Date.now() - 40 * DAY) / DAY) * DAY + 10 * 3600_000;
    clock.set(new Date(outage + 4 * 3600_000));
    await createIncident(server, account, [fixture.serviceIds[2]], {
      name: 'Database failover',
      severity: 'CRITICAL',
      updates: [
        { description: 'The primary database is unreachable.', status: 'INVESTIGATING', publicIncidentUpdateDate: new Date(outage).toISOString() },
        { description: 'Failover completed.', status: 'RESOLVED', publicIncidentUpdateDate: new Date(outage + 3 * 3600_000).toISOString() },
      ],
    });
    clock.set(new Date());
    const [api, dashboard, , , webhooks] = fixture.serviceIds;
    await createIncident(server, account, [api, dashboard], {
      name: 'Elevated API error rates',
      severity: 'MAJOR',
      updates: [
        { description: 'We are seeing **elevated error rates** on the API. See [our runbook](https://example.com/runbook).', status: 'INVESTIGATING', publicIncidentUpdateDate: new Date(Date.now() - 50 * 60_000).toISOString() },
        { description: 'The cause is a failing database replica; traffic is being moved.', status: 'IDENTIFIED', publicIncidentUpdateDate: new Date(Date.now() - 20 * 60_000).toISOString() },
      ],
    });
    await createIncident(server, account, [webhooks], {
      name: 'Delayed webhook deliveries',
      severity: 'MINOR',
      updates: [
        { description: 'Webhooks are delivered with a delay of a few minutes.', status: 'INVESTIGATING', publicIncidentUpdateDate: new Date(Date.now() - 3 * DAY).toISOString() },
        { description: 'All queued webhooks were delivered.', status: 'RESOLVED', publicIncidentUpdateDate: new Date(Date.now() - 3 * DAY + 95 * 60_000).toISOString() },
      ],
    });
    url = `${server.url}/status/acme-status`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  it('renders without console errors, failed or third-party requests, and saves the README screenshot', async () => {
    const { context, page, problems } = await open({ colorScheme: 'light', viewport: { width: 1024, height: 900 } });
    await expect(page.locator('h1').textContent()).resolves.toBe('Acme Cloud');
    await expect(page.locator('.banner').textContent()).resolves.toContain('Partial System Outage');
    expect(await page.locator('ol.bars').count()).toBe(6);
    await expect(page.locator('ol.bars').nth(2).textContent()).resolves.toMatch(/: 87\.5 % uptime, 1 incident \(major outage\)/);
    // The stylesheet applied (no inline styles are allowed): the banner has its colour.
    expect(await page.locator('.banner').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(194, 65, 12)');
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    // README's picture is refreshed on demand only (UPDATE_SCREENSHOT=1), so a test run leaves the tree clean.
    await page.screenshot({ path: process.env.UPDATE_SCREENSHOT ? join(ROOT, 'docs', 'status-page.png') : join(tmpdir(), 'vigil-status-page.png'), fullPage: true });
    await page.goto(url + '/history?page=2', { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Newer incidents' }).click();
    await page.waitForURL(/\/history$/);
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'Elevated API error rates' }).click();
    await page.waitForURL(/\/incidents\//);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('h1').textContent()).resolves.toBe('Elevated API error rates');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe-core violation in light or dark mode', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      for (const path of ['', '/history']) {
        expect([scheme, path, await axe(scheme, path)]).toEqual([scheme, path, []]);
      }
    }
  });

  it('follows prefers-color-scheme with the default AUTO theme', async () => {
    const background = async (colorScheme: 'light' | 'dark') => {
      const { context, page } = await open({ colorScheme });
      const color = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await context.close();
      return color;
    };
    expect(await background('light')).toBe('rgb(248, 250, 252)');
    expect(await background('dark')).toBe('rgb(11, 17, 32)');
  });

  it('does not overflow at 320 px', async () => {
    for (const path of ['', '/history']) {
      const { context, page, problems } = await open({ viewport: { width: 320, height: 640 }, javaScriptEnabled: true }, path);
      const overflow = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const wide = ([...document.querySelectorAll('body *')] as any[])
          .filter((el: any) => !el.closest('.bars span') && el.getBoundingClientRect().right > width + 0.5)
          .map((el: any) => `${el.tagName.toLowerCase()}.${el.className}`);
        return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) };
      });
      expect([path, overflow.scroll <= overflow.width, overflow.wide]).toEqual([path, true, []]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('works with JavaScript disabled: the subscribe form leads to "check your inbox", a confirmation email, and the button behind its link verifies', async () => {
    const { context, page, problems } = await open({ javaScriptEnabled: false });
    await page.getByLabel('Email address').fill('reader@example.com');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/\/subscribe$/);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('h1').textContent()).resolves.toBe('Check your inbox');
    expect(problems).toEqual([]);
    await context.close();
    const subscriptions = await server.http.get(`/v1/status-pages/${fixture.pageId}/subscriptions`, { key: account.key });
    expect(subscriptions.body).toEqual([expect.objectContaining({ type: 'EMAIL', address: 'reader@example.com', status: 'PENDING' })]);

    // The confirmation email reaches a real SMTP server; its link, opened in the browser, verifies the subscription.
    const mails = await eventually(() => smtp.mails.filter((m) => m.to.includes('reader@example.com')), (found) => found.length > 0, 15_000);
    expect(mails).toHaveLength(1);
    const link = /https?:\/\/[^\s"<>]*\/subscriptions\/confirm\/[A-Za-z0-9._~-]+/.exec(decodedMail(mails[0].raw));
    expect(link).not.toBeNull();
    const confirm = await browser.newContext({ javaScriptEnabled: false });
    const tab = await confirm.newPage();
    const problems2 = watch(tab);
    const answer = await tab.goto(server.url + new URL(link![0]).pathname);
    expect(answer?.status()).toBe(200);
    await tab.waitForLoadState('networkidle');
    // Opening the link (what mail scanners do too) only shows a button; pressing it confirms.
    await expect(tab.locator('h1').textContent()).resolves.toBe('Confirm your subscription');
    const pending = await server.http.get(`/v1/status-pages/${fixture.pageId}/subscriptions`, { key: account.key });
    expect(pending.body).toEqual([expect.objectContaining({ address: 'reader@example.com', status: 'PENDING' })]);
    // Styled by the public pages' two stylesheets (the CSP refuses inline styles).
    await expect(tab.evaluate(() => document.styleSheets.length)).resolves.toBe(2);
    await tab.getByRole('button', { name: 'Confirm subscription' }).click();
    await tab.waitForLoadState('networkidle');
    await expect(tab.locator('h1').textContent()).resolves.toBe('Subscription confirmed');
    expect(problems2).toEqual([]);
    await confirm.close();
    const verified = await server.http.get(`/v1/status-pages/${fixture.pageId}/subscriptions`, { key: account.key });
    expect(verified.body).toEqual([expect.objectContaining({ address: 'reader@example.com', status: 'VERIFIED' })]);
  });
});

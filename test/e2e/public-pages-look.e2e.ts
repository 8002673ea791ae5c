import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { ManualClock } from '../../libs/core/src/clock';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { createIncident, createPage, PageFixture } from './public-pages-fixtures';
import { chromiumDescribe, launchChromium } from './browser-kit';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;

/**
 * Issue 33, item 13: the public page as a person sees it in Chromium at 360 and 1280 px: titles said once,
 * room under the header, uptime bars wide enough to see on a phone, and a compact list of past incidents.
 */
const DAY = 86_400_000;
const describeInBrowser = chromiumDescribe('public page look tests');

let server: TestServer;
let account: TestAccount;
let browser: Browser;
let fixture: PageFixture;
let base: string;
let incidentId: string;

async function open(width: number, path = ''): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: 'light' });
  const page = await context.newPage();
  const response = await page.goto(base + path, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return page;
}

/** Visible text of headings and the header's brand, each as shown (a title said twice shows here twice). */
function shownTitles(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.brand span, h1, h2, h3')]
      .filter((el: any) => {
        const box = el.getBoundingClientRect();
        return box.width > 1 && box.height > 1 && window.getComputedStyle(el).visibility !== 'hidden';
      })
      .map((el: any) => el.textContent.trim()),
  );
}

/** Widths in px of every visible uptime bar (a run of N days is N bars). */
function barWidths(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('ol.bars li')]
      .filter((li: any) => window.getComputedStyle(li).display !== 'none')
      .flatMap((li: any) => {
        const days = Number(window.getComputedStyle(li).getPropertyValue('--n'));
        return Array.from({ length: days }, () => li.getBoundingClientRect().width / days);
      }),
  );
}

const daysShown = (page: Page) =>
  page.evaluate(() => {
    const first = document.querySelector('ol.bars');
    return [...first.querySelectorAll('li')].filter((li: any) => window.getComputedStyle(li).display !== 'none').reduce((sum: number, li: any) => sum + Number(window.getComputedStyle(li).getPropertyValue('--n')), 0);
  });

jest.setTimeout(90_000);

describeInBrowser('the public page, looked at', () => {
  beforeAll(async () => {
    const clock = new ManualClock(new Date(Date.now() - 120 * DAY));
    server = await startTestServer({ clock, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account();
    fixture = await createPage(server, account, 'looked-at', {
      serviceNames: ['API', 'Dashboard', 'Database', 'Webhooks'],
      name: 'Acme Cloud',
      extra: { description: 'Live status of the Acme Cloud platform.' },
    });
    // Outages on days 5, 20 and 60 ago, so the bars are split into runs on both sides of the 30-day mark.
    for (const [ago, name] of [
      [60, 'Database failover'],
      [20, 'Slow dashboard'],
      [5, 'Delayed webhook deliveries'],
    ] as const) {
      const start = Math.floor((Date.now() - ago * DAY) / DAY) * DAY + 10 * 3600_000;
      clock.set(new Date(start + 4 * 3600_000));
      incidentId = await createIncident(server, account, [fixture.serviceIds[ago === 60 ? 2 : ago === 20 ? 1 : 3]], {
        name,
        severity: 'MAJOR',
        updates: [
          { description: 'We are looking into it.', status: 'INVESTIGATING', publicIncidentUpdateDate: new Date(start).toISOString() },
          { description: 'The cause is found and fixed; everything works again.', status: 'RESOLVED', publicIncidentUpdateDate: new Date(start + 2 * 3600_000).toISOString() },
        ],
      });
    }
    clock.set(new Date());
    base = `${server.url}/status/looked-at`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('takes screenshots at 360 and 1280 px (for a person to look at)', async () => {
    for (const width of [360, 1280]) {
      const page = await open(width);
      await page.screenshot({ path: join(tmpdir(), `vigil-look-${width}.png`), fullPage: true });
      await page.context().close();
    }
    const page = await open(360, `/incidents/${incidentId}`);
    await page.screenshot({ path: join(tmpdir(), 'vigil-look-incident-360.png'), fullPage: true });
    await page.context().close();
  });

  it('says the page title once and an incident title once', async () => {
    for (const width of [360, 1280]) {
      const home = await open(width);
      const titles = await shownTitles(home);
      expect(titles.filter((t) => t === 'Acme Cloud')).toEqual(['Acme Cloud']);
      await home.context().close();
      const incident = await open(width, `/incidents/${incidentId}`);
      const shown = await shownTitles(incident);
      expect(shown.filter((t) => t === 'Delayed webhook deliveries')).toEqual(['Delayed webhook deliveries']);
      expect(shown.filter((t) => t === 'Acme Cloud')).toEqual(['Acme Cloud']);
      await incident.context().close();
    }
  });

  it('leaves room between the header and the first thing under it', async () => {
    for (const width of [360, 1280]) {
      const page = await open(width);
      const gap = await page.evaluate(() => {
        const header = document.querySelector('header.top').getBoundingClientRect();
        const first = [...document.querySelector('main').children].find((el: any) => el.getBoundingClientRect().height > 1).getBoundingClientRect();
        return first.top - header.bottom;
      });
      expect(gap).toBeGreaterThanOrEqual(20);
      await page.context().close();
    }
  });

  it('shows 30 days of bars at least 6 px wide below 600 px, 90 days on a wide screen', async () => {
    const narrow = await open(360);
    expect(await daysShown(narrow)).toBe(30);
    const widths = await barWidths(narrow);
    expect(widths.length).toBe(30 * fixture.serviceIds.length);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(6);
    await expect(narrow.locator('.legend').first().innerText()).resolves.toMatch(/^30 days ago/);
    // The outage 20 days ago is among the 30 days; the one 60 days ago is not.
    const dashboard = await narrow.locator('ol.bars').nth(1).evaluate((ol: any) => [...ol.querySelectorAll('li')].filter((li: any) => window.getComputedStyle(li).display !== 'none').map((li: any) => li.textContent).join('\n'));
    expect(dashboard).toMatch(/1 incident/);
    // The figure under the bars is of the days shown: the database's outage 60 days ago is not in it.
    await expect(narrow.locator('.legend').nth(2).innerText()).resolves.toContain('100 % uptime');
    await narrow.context().close();

    const wide = await open(1280);
    expect(await daysShown(wide)).toBe(90);
    expect(Math.min(...(await barWidths(wide)))).toBeGreaterThanOrEqual(6);
    await expect(wide.locator('.legend').first().innerText()).resolves.toMatch(/^90 days ago/);
    await expect(wide.locator('.legend').nth(2).innerText()).resolves.not.toContain('100 % uptime');
    await wide.context().close();
  });

  it('lists past incidents compactly: one line of title and when, the timeline on the incident page', async () => {
    const page = await open(360);
    const past = page.locator('#past-h + ul.past > li');
    expect(await past.count()).toBe(1);
    await expect(past.first().locator('a').textContent()).resolves.toBe('Delayed webhook deliveries');
    expect(await page.locator('#past-h ~ * .timeline').count()).toBe(0);
    const height = await past.first().evaluate((li: any) => li.getBoundingClientRect().height);
    // Two or three short lines, not a card with the whole timeline.
    expect(height).toBeLessThan(120);
    await page.context().close();
  });
});

import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { decodedMail, eventually, SmtpSink, startSmtpSink } from './alerting-receivers';
import { axeViolations, chromiumDescribe, launchChromium, signedInContext, watchPage } from './browser-kit';
import { signedInMember } from './people-fixtures';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const describeInBrowser = chromiumDescribe('console incident browser tests');

let server: TestServer;
let smtp: SmtpSink;
let account: TestAccount;
let browser: Browser;
let writer: string;
const flows: { js: boolean; path: string }[] = [];

/** Console errors, page errors, failed and third-party requests of a page. */
function watch(page: Page): string[] {
  return watchPage(page, server.url);
}

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

/** The subscriber's mails about an incident, decoded. */
async function mailsAbout(name: string, count: number): Promise<string[]> {
  const about = () => smtp.mails.filter((m) => m.to.includes('reader@example.com') && decodedMail(m.raw).includes(name)).map((m) => decodedMail(m.raw));
  return eventually(about, (list) => list.length >= count, 60_000);
}

async function publicText(context: BrowserContext, path = '/status/acme-flow'): Promise<string> {
  const page = await context.newPage();
  await page.goto(server.url + path, { waitUntil: 'load' });
  const text = (await page.locator('main').textContent()) ?? '';
  await page.close();
  return text;
}

jest.setTimeout(180_000);

describeInBrowser('an incident from the console, in headless Chromium, with a subscriber on real SMTP', () => {
  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'on', SMTP_URL: smtp.url, VIGIL_MAIL_FROM: 'Status <status@vigil.test>' } });
    account = await server.account('Acme');
    for (const name of ['Checkout', 'Search', 'Mail']) await server.http.post('/v1/status-pages/services', { name }, { key: account.key });
    const services = (await server.http.get('/v1/status-pages/services', { key: account.key })).body.entries as { id: string }[];
    const page = (await server.http.post('/v1/status-pages', { name: 'Acme status', url: 'acme-flow', cards: [{ name: 'Core', services: services.map((s) => ({ id: s.id })) }] }, { key: account.key })).body;
    await server.http.post(`/v1/status-pages/${page.id}/subscriptions/bulk`, { subscriptions: [{ type: 'EMAIL', config: 'reader@example.com' }], autoVerify: true }, { key: account.key });
    writer = await signedInMember(server, 'ada@example.com', account.id, 'READ_WRITE');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  for (const js of [true, false]) {
    it(`JavaScript ${js ? 'on' : 'off'}: declare with two services and notify (previewed first) → public page and email → update → resolve`, async () => {
      const name = `Checkout is down (JS ${js ? 'on' : 'off'})`;
      const context = await personWith(writer, js);
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(`${server.url}/console/incidents`, { waitUntil: 'load' });
      let form: Locator = page.locator('form.declare');
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Severity').selectOption('CRITICAL');
      await form.getByLabel('Checkout').check();
      await form.getByLabel('Search').check();
      await form.getByLabel('First update').fill('Payments **fail** for everyone.');
      await expect(form.getByLabel('Notify subscribers').isChecked()).resolves.toBe(true);

      await Promise.all([page.waitForLoadState('load'), form.getByRole('button', { name: 'Preview' }).click()]);
      const preview = page.locator('section.preview');
      await preview.waitFor();
      await expect(preview.textContent()).resolves.toMatch(/Major outage · Investigating · Affects (Checkout, Search|Search, Checkout)/);
      await expect(preview.locator('.md strong').textContent()).resolves.toBe('fail');
      expect((await server.http.get('/v1/status-pages/incidents', { key: account.key })).body.entries.some((i: { name: string }) => i.name === name)).toBe(false);

      form = page.locator('form.declare');
      await expect(form.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(name);
      await Promise.all([page.waitForURL(/notice=declared$/), form.getByRole('button', { name: 'Declare incident' }).click()]);
      await expect(page.locator('h1').textContent()).resolves.toBe(name);
      const path = new URL(page.url()).pathname;
      flows.push({ js, path });

      await expect(publicText(context)).resolves.toContain(name);
      const [declared] = await mailsAbout(name, 1);
      expect(declared).toContain('Payments');

      await page.getByLabel('Status').selectOption('IDENTIFIED');
      await page.getByLabel('Update', { exact: true }).fill('A bad deploy; rolling back.');
      await Promise.all([page.waitForURL(/notice=posted$/), page.getByRole('button', { name: 'Post update' }).click()]);
      await expect(page.locator('.timeline li').first().textContent()).resolves.toContain('A bad deploy; rolling back.');
      await expect(publicText(context, `/status/acme-flow/incidents/${path.split('/').pop()}`)).resolves.toContain('A bad deploy; rolling back.');
      await mailsAbout(name, 2);

      await page.getByLabel('Status').selectOption('RESOLVED');
      await page.getByLabel('Update', { exact: true }).fill('Rolled back; payments work.');
      await Promise.all([page.waitForURL(/notice=resolved$/), page.getByRole('button', { name: 'Post update' }).click()]);
      await expect(page.locator('p.notice').textContent()).resolves.toBe('Incident resolved.');
      const resolvedMails = await mailsAbout(name, 3);
      expect(resolvedMails.some((m) => m.includes('Rolled back; payments work.'))).toBe(true);

      // Edit the first update from its link: the text changes, nobody is mailed again.
      await Promise.all([page.waitForLoadState('load'), page.locator('.timeline li').last().getByRole('link', { name: /^Edit/ }).click()]);
      await page.getByLabel('Update', { exact: true }).fill('Payments failed for everyone.');
      await Promise.all([page.waitForURL(/notice=edited$/), page.getByRole('button', { name: 'Save update' }).click()]);
      await expect(page.locator('.timeline li').last().textContent()).resolves.toContain('Payments failed for everyone.');

      const incident = (await server.http.get(`/v1/status-pages/incidents/${path.split('/').pop()}`, { key: account.key })).body;
      expect(incident).toMatchObject({ name, severity: 'CRITICAL', lastUpdateStatus: 'RESOLVED' });
      expect(incident.services).toHaveLength(2);
      expect(incident.incidentUpdates.map((u: { description: string }) => u.description)).toEqual(['Payments failed for everyone.', 'A bad deploy; rolling back.', 'Rolled back; payments work.']);
      expect((await mailsAbout(name, 3)).length).toBe(3);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('its pages (the list with a preview, an incident, editing an update, incident templates) have no serious or critical axe violation, light and dark, and fit 320 px', async () => {
    const path = flows[0]?.path;
    expect(path).toBeDefined();
    const incident = (await server.http.get(`/v1/status-pages/incidents/${path.split('/').pop()}`, { key: account.key })).body;
    const services = incident.services.map((s: { id: string }) => ({ id: s.id }));
    const template = (await server.http.post('/v1/incident-templates', { name: 'Checkout down', title: 'Checkout is down', severity: 'MAJOR', body: 'Payments fail.', services }, { key: account.key })).body;
    expect(template).toMatchObject({ name: 'Checkout down', services: [expect.anything(), expect.anything()] });
    const templates = ['/console/incidents/templates', `/console/incidents/templates/${template.id}`, `/console/incidents?template=${template.id}`];
    const paths = ['/console/incidents?search=checkout&status=resolved', path, `${path}/updates/${incident.incidentUpdates[0].id}`, ...templates];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await personWith(writer, true, { colorScheme, bypassCSP: true });
      for (const p of paths) expect([colorScheme, p, await axe(context, server.url + p)]).toEqual([colorScheme, p, []]);
      // The preview shows the public pages' card inside the console.
      const page = await context.newPage();
      await page.goto(`${server.url}/console/incidents`, { waitUntil: 'load' });
      const form = page.locator('form.declare');
      await form.getByLabel('Name', { exact: true }).fill('Search is slow');
      await form.getByLabel('Search').check();
      await form.getByLabel('First update').fill('Results take 10 s.');
      await Promise.all([page.waitForLoadState('load'), form.getByRole('button', { name: 'Preview' }).click()]);
      await page.locator('section.preview').waitFor();
      expect([colorScheme, 'preview', await axeViolations(page)]).toEqual([colorScheme, 'preview', []]);
      await context.close();
    }
    const narrow = await personWith(writer, false, { viewport: { width: 320, height: 640 } });
    for (const p of paths) {
      const page = await narrow.newPage();
      await page.goto(server.url + p, { waitUntil: 'load' });
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      expect([p, fits]).toEqual([p, true]);
      await page.close();
    }
    await narrow.close();
  });
});

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { PeopleActions } from '../../libs/people/src/people.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, SmtpSink, startSmtpSink } from './alerting-receivers';
import { linkInMail, pathOf } from './people-fixtures';
import { axeViolations, chromiumDescribe, launchChromium, watchPage } from './browser-kit';

// Functions passed to page.evaluate run in the page; the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

const describeInBrowser = chromiumDescribe('console sign-in browser tests');
const ACTOR = { accountId: null, keyName: 'test' };

let server: TestServer;
let smtp: SmtpSink;
let account: TestAccount;
let browser: Browser;

/** Console errors, page errors, failed requests and third-party requests of a page. */
function watch(page: Page): string[] {
  return watchPage(page, server.url);
}

/** Serious and critical axe-core violations of the page as it is (axe injected with the CSP bypassed). */
async function axe(context: BrowserContext, url: string): Promise<string[]> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  const violations = await axeViolations(page);
  await page.close();
  return violations;
}

/** A person's browser, JavaScript off: every sign-in and member flow works without it. */
async function person(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1024, height: 900 } });
  const page = await context.newPage();
  return { context, page, problems: watch(page) };
}

async function signInWithLink(page: Page, url: string): Promise<void> {
  await page.goto(server.url + pathOf(url), { waitUntil: 'networkidle' });
  await Promise.all([page.waitForURL(/\/console$/), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.waitForLoadState('networkidle');
  // Sign-in lands on the console's overview; the person's own page is /console/account.
  await page.goto(`${server.url}/console/account`, { waitUntil: 'networkidle' });
}

jest.setTimeout(90_000);

describeInBrowser('console sign-in in headless Chromium', () => {
  let admin: { context: BrowserContext; page: Page; problems: string[] };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ env: { SMTP_URL: smtp.url, VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account('Acme');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  it('first sign-in with a CLI login link lands on the console naming the person, account and role', async () => {
    const actions = server.app.get(PeopleActions);
    await actions.addMember('ada@example.com', account.id, 'ADMIN', ACTOR);
    const { url } = await actions.signInLink('ada@example.com', ACTOR);
    admin = await person();
    await signInWithLink(admin.page, url);
    await expect(admin.page.locator('h1').textContent()).resolves.toBe('Signed in as ada@example.com');
    await expect(admin.page.locator('#acc-h + ul').textContent()).resolves.toContain('Acme (ADMIN)');
    await expect(admin.page.getByText('This browser')).toBeTruthy();
    const cookies = await admin.context.cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'vigil_session', httpOnly: true, sameSite: 'Lax' })]);
    expect(admin.problems).toEqual([]);
  });

  it('signs in with an email link sent through a real SMTP server', async () => {
    const { context, page, problems } = await person();
    await page.goto(`${server.url}/console/sign-in`, { waitUntil: 'networkidle' });
    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.waitForLoadState('networkidle');
    await expect(page.locator('p.notice').textContent()).resolves.toContain('Check your inbox');
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes('ada@example.com')), (m) => m !== undefined, 15_000);
    await signInWithLink(page, linkInMail(mail!.raw, '/console/sign-in/link'));
    await expect(page.locator('h1').textContent()).resolves.toBe('Signed in as ada@example.com');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('invite → accept → the role is enforced; removing the member stops their open session on its next request', async () => {
    await admin.page.getByLabel('Email address to invite').fill('viewer@example.com');
    await admin.page.getByLabel('Role', { exact: true }).selectOption('READ_ONLY');
    await admin.page.getByRole('button', { name: 'Invite' }).click();
    await admin.page.waitForLoadState('networkidle');
    const link = (await admin.page.locator('code').textContent())!;

    const viewer = await person();
    await viewer.page.goto(server.url + pathOf(link), { waitUntil: 'networkidle' });
    await viewer.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await viewer.page.waitForURL(/\/console\?account=/);
    await viewer.page.waitForLoadState('networkidle');
    await viewer.page.goto(`${server.url}/console/account?account=${account.id}`, { waitUntil: 'networkidle' });
    await expect(viewer.page.locator('h1').textContent()).resolves.toBe('Signed in as viewer@example.com');
    expect(await viewer.page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    // A forged post with the viewer's own session and form token: the server refuses it.
    const csrf = await viewer.page.locator('input[name=csrf]').first().getAttribute('value');
    const forged = await viewer.context.request.post(`${server.url}/console/accounts/${account.id}/invitations`, {
      form: { csrf: csrf!, email: 'friend@example.com', role: 'ADMIN' },
      headers: { origin: server.url },
    });
    expect(forged.status()).toBe(403);

    await admin.page.goto(`${server.url}/console/account?account=${account.id}`, { waitUntil: 'networkidle' });
    await admin.page.getByRole('button', { name: 'Remove viewer@example.com' }).click();
    await admin.page.waitForLoadState('networkidle');
    await expect(admin.page.locator('p.notice').textContent()).resolves.toContain('Member removed');
    await viewer.page.reload({ waitUntil: 'networkidle' });
    expect(viewer.page.url()).toBe(`${server.url}/console/sign-in`);
    expect(viewer.problems).toEqual([]);
    await viewer.context.close();
  });

  it('refuses a form posted from another site, even with a leaked form token', async () => {
    const csrf = await admin.page.locator('input[name=csrf]').first().getAttribute('value');
    const evil: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Win a prize</title><form method="post" action="${server.url}/console/sessions/end-all"><input type="hidden" name="csrf" value="${csrf}"><button>Claim</button></form>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const page = await admin.context.newPage();
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      await page.getByRole('button', { name: 'Claim' }).click();
      await page.waitForLoadState('networkidle');
      await expect(page.locator('h1').textContent()).resolves.toBe('Request refused');
      await page.close();
      await admin.page.goto(`${server.url}/console/account`, { waitUntil: 'networkidle' });
      await expect(admin.page.locator('h1').textContent()).resolves.toBe('Signed in as ada@example.com');
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
  });

  it('expired, used and forged links show a clear page', async () => {
    const { context, page, problems } = await person();
    const response = await page.goto(`${server.url}/console/sign-in/link?token=${'x'.repeat(43)}`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(400);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link does not work');
    await page.getByRole('link', { name: 'Get a new sign-in link' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    expect(problems.filter((p) => !p.startsWith('console: Failed to load resource'))).toEqual([]);
    await context.close();
  });

  it('has no serious or critical axe violation, light and dark, and nothing overflows at 320 px', async () => {
    const { url } = await server.app.get(PeopleActions).signInLink('ada@example.com', ACTOR);
    const invitation = await server.app.get(PeopleActions).invite(account.id, 'later@example.com', 'READ_WRITE', 'ada', ACTOR);
    const paths = ['/console/account', '/console/sign-in', pathOf(url), pathOf(invitation.url), '/console/sign-in/link?token=bad'];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, bypassCSP: true, storageState: await admin.context.storageState() });
      for (const path of paths) expect([colorScheme, path, await axe(context, server.url + path)]).toEqual([colorScheme, path, []]);
      await context.close();
    }
    const narrow = await browser.newContext({ viewport: { width: 320, height: 640 }, storageState: await admin.context.storageState() });
    for (const path of paths) {
      const page = await narrow.newPage();
      await page.goto(server.url + path, { waitUntil: 'networkidle' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      expect([path, overflow]).toEqual([path, true]);
      await page.close();
    }
    await narrow.close();
  });
});

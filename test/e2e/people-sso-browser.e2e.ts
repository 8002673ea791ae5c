import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { PeopleActions } from '../../libs/people/src/people.api';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { axeViolations, chromiumDescribe, launchChromium } from './browser-kit';

const describeInBrowser = chromiumDescribe('SSO browser tests');
// The browser opens Vigil at its public address, which its resolver maps to the test server's port.
const PUBLIC_URL = 'http://vigil.test';
const CLIENT = { client_id: 'vigil', client_secret: 'a-client-secret-for-tests', redirect_uri: `${PUBLIC_URL}/console/oidc/callback` };
const ACCOUNTS = { member: { email: 'lin@example.com', email_verified: true }, stranger: { email: 'nobody@example.com', email_verified: true } };

let provider: ChildProcess;
let server: TestServer;
let browser: Browser;

function startProvider(): Promise<string> {
  provider = spawn(process.execPath, [join(__dirname, 'support', 'oidc-provider.mjs')], {
    env: { ...process.env, OIDC_TEST_CLIENT: JSON.stringify(CLIENT), OIDC_TEST_ACCOUNTS: JSON.stringify(ACCOUNTS) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    provider.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /READY (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    provider.once('exit', (code) => reject(new Error(`The OpenID provider exited (${code})`)));
  });
}

/** A browser at 320 px; axe runs with the page's CSP bypassed. */
async function person(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 320, height: 800 } });
  return { context, page: await context.newPage() };
}

/** From the sign-in page through the provider's login form back to Vigil, as `who`. */
async function signInWithSso(page: Page, who: string): Promise<void> {
  await page.goto(`${PUBLIC_URL}/console/sign-in`);
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.getByLabel('Account').fill(who);
  await Promise.all([page.waitForURL(`${PUBLIC_URL}/**`), page.getByRole('button', { name: 'Continue' }).click()]);
  await page.waitForLoadState('load');
}

jest.setTimeout(90_000);

describeInBrowser('single sign-on in headless Chromium', () => {
  beforeAll(async () => {
    const issuer = await startProvider();
    server = await startTestServer({
      env: { VIGIL_PUBLIC_URL: PUBLIC_URL, VIGIL_OIDC_ISSUER: issuer, VIGIL_OIDC_CLIENT_ID: CLIENT.client_id, VIGIL_OIDC_CLIENT_SECRET: CLIENT.client_secret, VIGIL_RATE_LIMIT_PER_MINUTE: '100000' },
    });
    const account = await server.account('Lab');
    await server.app.get(PeopleActions).addMember('lin@example.com', account.id, 'READ_ONLY', { accountId: null, keyName: 'test' });
    browser = await launchChromium([`--host-resolver-rules=MAP vigil.test:80 ${new URL(server.url).host}`]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    provider?.kill();
  });

  it('a member signs in with SSO and lands on the console; the sign-in page passes axe', async () => {
    const { context, page } = await person();
    await page.goto(`${PUBLIC_URL}/console/sign-in`);
    expect(await axeViolations(page)).toEqual([]);
    await signInWithSso(page, 'member');
    expect(page.url()).toBe(`${PUBLIC_URL}/console`);
    // Sign-in lands on the console's overview; the person's own page is /console/account.
    await page.goto(`${PUBLIC_URL}/console/account`, { waitUntil: 'networkidle' });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Signed in as lin@example.com');
    expect(await page.content()).toContain('by sso');
    await context.close();
  });

  it('a stranger is refused with a clear page that passes axe, and is not signed in', async () => {
    const { context, page } = await person();
    await signInWithSso(page, 'stranger');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('No access to Vigil');
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${PUBLIC_URL}/console`);
    expect(page.url()).toBe(`${PUBLIC_URL}/console/sign-in`);
    await context.close();
  });
});

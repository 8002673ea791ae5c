import { Browser, Page } from 'playwright-core';
import { PeopleActions } from '../../libs/people/src/people.api';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, pathOf } from './people-fixtures';
import { chromiumDescribe, launchChromium } from './browser-kit';

const describeInBrowser = chromiumDescribe('passkey browser tests');
const ACTOR = { accountId: null, keyName: 'test' };

let server: TestServer;
let browser: Browser;
/** The console as the browser sees it: `localhost` (a WebAuthn relying party must be a domain, not an IP address). */
let origin: string;

jest.setTimeout(90_000);

/** A Chromium virtual authenticator (DevTools WebAuthn domain) holding discoverable credentials, user verified. */
async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

describeInBrowser('passkeys in headless Chromium', () => {
  beforeAll(async () => {
    server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    origin = server.url.replace('127.0.0.1', 'localhost');
    // The port is chosen at start: the console's public address (its relying party) is set once it is known.
    (server.config as { publicUrl: string }).publicUrl = origin;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('registers a passkey, then signs in with the passkey alone; a replayed assertion is refused', async () => {
    const account = await server.account('Acme');
    const actions = server.app.get(PeopleActions);
    await actions.addMember('ada@example.com', account.id, 'ADMIN', ACTOR);
    const { url } = await actions.signInLink('ada@example.com', ACTOR);

    const context = await browser.newContext();
    const page = await context.newPage();
    const { cdp, authenticatorId } = await withAuthenticator(page);
    await page.goto(origin + pathOf(url), { waitUntil: 'networkidle' });
    await Promise.all([page.waitForURL(/\/console$/), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.waitForLoadState('networkidle');
    await page.goto(`${origin}/console/account`, { waitUntil: 'networkidle' });
    await page.getByLabel('Name of the new passkey').fill('Laptop');
    await Promise.all([page.waitForURL(/notice=passkey$/), page.getByRole('button', { name: 'Add a passkey' }).click()]);
    await expect(page.locator('#pk-h + ul').textContent()).resolves.toContain('Laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);

    // Signed out, the same browser (and its authenticator) signs in with the passkey alone.
    await context.clearCookies();
    await page.goto(`${origin}/console/sign-in`, { waitUntil: 'networkidle' });
    await Promise.all([page.waitForURL(/\/console$/), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
    await page.waitForLoadState('networkidle');
    await page.goto(`${origin}/console/account`, { waitUntil: 'networkidle' });
    await expect(page.locator('h1').textContent()).resolves.toBe('Signed in as ada@example.com');
    await expect(page.getByText('by passkey')).toBeTruthy();

    // An assertion replayed (its challenge used, its counter seen) signs no one in.
    const replayed: { body: string | null }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/console/sign-in/passkey')) replayed.push({ body: request.postData() });
    });
    await context.clearCookies();
    await page.goto(`${origin}/console/sign-in`, { waitUntil: 'networkidle' });
    await Promise.all([page.waitForURL(/\/console$/), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
    const again = await fetch(`${server.url}/console/sign-in/passkey`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: replayed[0].body! });
    expect(again.status).toBe(400);
    expect(again.headers.get('set-cookie')).toBeNull();
    const tampered = JSON.parse(replayed[0].body!);
    tampered.response.response.signature = tampered.response.response.signature.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'));
    const forged = await fetch(`${server.url}/console/sign-in/passkey`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(tampered) });
    expect(forged.status).toBe(400);

    // Removing the passkey: it signs in no more.
    const home = await consoleRequest(server, 'GET', '/console/account', { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') });
    expect(home.text).toContain('Remove passkey Laptop');
    await page.waitForLoadState('networkidle');
    await page.goto(`${origin}/console/account`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Remove passkey Laptop' }).click();
    await page.waitForURL(/notice=passkey-removed$/);
    await context.close();
  });
});

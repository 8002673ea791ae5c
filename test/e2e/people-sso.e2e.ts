import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { QueryBus } from '@nestjs/cqrs';
import { PeopleActions, PeopleQuery } from '../../libs/people/src/people.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest } from './people-fixtures';

const PUBLIC_URL = 'http://vigil.test';
const CLIENT = { client_id: 'vigil', client_secret: 'a-client-secret-for-tests', redirect_uri: `${PUBLIC_URL}/console/oidc/callback` };
const ACCOUNTS = {
  member: { email: 'Grace@Example.com', email_verified: true },
  stranger: { email: 'stranger@example.com', email_verified: true },
  invitee: { email: 'ines@example.com', email_verified: true },
  unverified: { email: 'grace@example.com', email_verified: false },
};
const ACTOR = { accountId: null, keyName: 'test' };

let provider: ChildProcess;
let issuer: string;
// Each CLI run (or the provider) is a process start: seconds apiece on a loaded two-core runner, past jest's 30 s default.
jest.setTimeout(120_000);
let server: TestServer;
let account: TestAccount;

/** Starts the OpenID provider in its own process and waits for its issuer URL. */
function startProvider(): Promise<string> {
  provider = spawn(process.execPath, [join(__dirname, 'support', 'oidc-provider.mjs')], {
    env: { ...process.env, OIDC_TEST_CLIENT: JSON.stringify(CLIENT), OIDC_TEST_ACCOUNTS: JSON.stringify(ACCOUNTS) },
    stdio: ['ignore', 'pipe', 'inherit'],
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

beforeAll(async () => {
  issuer = await startProvider();
  server = await startTestServer({
    env: { VIGIL_PUBLIC_URL: PUBLIC_URL, VIGIL_OIDC_ISSUER: issuer, VIGIL_OIDC_CLIENT_ID: CLIENT.client_id, VIGIL_OIDC_CLIENT_SECRET: CLIENT.client_secret, VIGIL_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  account = await server.account('Acme');
  await server.app.get(PeopleActions).addMember('grace@example.com', account.id, 'ADMIN', ACTOR);
});

afterAll(async () => {
  await server?.close();
  provider?.kill();
});

/**
 * A browser's round trip: Vigil's start sends it to the provider (as `who`, the authorization URL changed by
 * `tamper` if given), the provider sends it back to the callback, which is asked with the flow's cookie.
 */
async function signInAs(who: keyof typeof ACCOUNTS, tamper?: (url: URL) => void) {
  const start = await consoleRequest(server, 'GET', '/console/oidc/start');
  expect(start.status).toBe(303);
  expect(start.setCookie).toMatch(/^vigil_oidc=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/);
  const authorization = new URL(start.location!);
  expect(authorization.origin).toBe(issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('redirect_uri')).toBe(CLIENT.redirect_uri);
  authorization.searchParams.set('login_hint', who);
  tamper?.(authorization);

  const jar = new Map<string, string>();
  let next = authorization.href;
  for (let hop = 0; !next.startsWith(CLIENT.redirect_uri); hop++) {
    if (hop > 10) throw new Error('The provider never sent the browser back');
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`The provider answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    next = new URL(location, next).href;
  }
  const callback = new URL(next);
  const answer = await consoleRequest(server, 'GET', callback.pathname + callback.search, { cookie: start.cookie });
  return { ...answer, replay: () => consoleRequest(server, 'GET', callback.pathname + callback.search, { cookie: start.cookie }) };
}

const sessionsOf = async (email: string) => {
  const queries = server.app.get(QueryBus);
  const user = await queries.execute(new PeopleQuery({ type: 'UserByEmail', email }));
  return user ? queries.execute(new PeopleQuery({ type: 'SessionsOfUser', userId: user.id })) : null;
};

describe('single sign-on with OpenID Connect', () => {
  it('offers "Sign in with SSO" on the sign-in page', async () => {
    const page = await consoleRequest(server, 'GET', '/console/sign-in');
    expect(page.text).toContain('<a class="btn quiet" href="/console/oidc/start">Sign in with SSO</a>');
  });

  it('signs a member in by their verified address: a session by sso, then the console names them', async () => {
    const callback = await signInAs('member');
    expect(callback.status).toBe(303);
    expect(callback.location).toBe('/console');
    const cookie = /vigil_session=[\w-]{43}/.exec(callback.setCookie ?? '')?.[0];
    expect(cookie).toBeDefined();
    // Sign-in lands on the console's overview; the person's own page is /console/account.
    const home = await consoleRequest(server, 'GET', '/console/account', { cookie });
    expect(home.status).toBe(200);
    expect(home.text).toContain('Signed in as grace@example.com');
    expect(home.text).toContain('Acme <span class="muted">(ADMIN)</span>');
    expect((await sessionsOf('grace@example.com'))!.map((session) => session.method)).toEqual(['sso']);

    const replayed = await callback.replay();
    expect(replayed.status).toBe(400);
    expect(replayed.text).toContain('This sign-in could not be verified');
    expect((await sessionsOf('grace@example.com'))!.length).toBe(1);
  });

  it('refuses a stranger with a verified address: a clear page, no user, no session', async () => {
    const callback = await signInAs('stranger');
    expect(callback.status).toBe(403);
    expect(callback.text).toContain('No access to Vigil');
    expect(callback.setCookie).not.toMatch(/vigil_session=/);
    expect(await sessionsOf('stranger@example.com')).toBeNull();
  });

  it('refuses an address the provider does not call verified, even of a member', async () => {
    const before = (await sessionsOf('grace@example.com'))!.length;
    const callback = await signInAs('unverified');
    expect(callback.status).toBe(403);
    expect(callback.text).toContain('Your email address is not verified');
    expect((await sessionsOf('grace@example.com'))!.length).toBe(before);
  });

  describe('an invited person', () => {
    beforeAll(async () => {
      await server.app.get(PeopleActions).invite(account.id, 'ines@example.com', 'READ_WRITE', 'grace', ACTOR);
    });

    it('a callback with a wrong state or a wrong nonce is a clear 400 page, nothing written', async () => {
      const wrongState = await signInAs('invitee', (url) => url.searchParams.set('state', 'not-the-state-vigil-sent'));
      expect(wrongState.status).toBe(400);
      expect(wrongState.text).toContain('This sign-in does not match');
      const wrongNonce = await signInAs('invitee', (url) => url.searchParams.set('nonce', 'not-the-nonce-vigil-sent'));
      expect(wrongNonce.status).toBe(400);
      expect(wrongNonce.text).toContain('This sign-in could not be verified');
      for (const answer of [wrongState, wrongNonce]) expect(answer.setCookie).not.toMatch(/vigil_session=/);
      expect(await sessionsOf('ines@example.com')).toBeNull();
      const pending = await server.app.get(QueryBus).execute(new PeopleQuery({ type: 'InvitationsOfAccount', accountId: account.id }));
      expect(pending.map((invitation) => invitation.email)).toEqual(['ines@example.com']);
    });

    it('is accepted: the invitation is used up and the person is a member with its role', async () => {
      const callback = await signInAs('invitee');
      expect(callback.status).toBe(303);
      expect(callback.location).toBe(`/console?account=${account.id}`);
      const cookie = /vigil_session=[\w-]{43}/.exec(callback.setCookie ?? '')?.[0];
      const home = await consoleRequest(server, 'GET', callback.location!.replace('/console', '/console/account'), { cookie });
      expect(home.text).toContain('Signed in as ines@example.com');
      expect(home.text).toContain('Acme <span class="muted">(READ_WRITE)</span>');
      expect(await server.app.get(QueryBus).execute(new PeopleQuery({ type: 'InvitationsOfAccount', accountId: account.id }))).toEqual([]);
    });
  });

  it('a callback without the flow cookie, or with a forged one, signs no one in', async () => {
    const bare = await consoleRequest(server, 'GET', '/console/oidc/callback?code=abc&state=xyz');
    expect(bare.status).toBe(400);
    expect(bare.text).toContain('This sign-in did not start here');
    const forged = await consoleRequest(server, 'GET', '/console/oidc/callback?code=abc&state=xyz', { cookie: 'vigil_oidc=AAAAAAAAAAAAAAAA.eyJzdGF0ZSI6Inh5eiJ9.AAAAAAAAAAAAAAAAAAAAAA' });
    expect(forged.status).toBe(400);
  });
});

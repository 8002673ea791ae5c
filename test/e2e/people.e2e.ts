import { ManualClock } from '../../libs/core/src/clock';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { PeopleActions, PeopleQuery, RunUserCommand } from '../../libs/people/src/people.api';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually, SmtpSink, startSmtpSink } from './alerting-receivers';
import { consoleRequest, csrfOf, DAY, linkInMail, MINUTE, pathOf, signedInMember } from './people-fixtures';

let server: TestServer;
let smtp: SmtpSink;
let clock: ManualClock;
let account: TestAccount;
const ACTOR = { accountId: null, keyName: 'test' };

beforeAll(async () => {
  clock = new ManualClock(new Date());
  smtp = await startSmtpSink();
  server = await startTestServer({ clock, env: { SMTP_URL: smtp.url, VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
  account = await server.account('Acme');
});

afterAll(async () => {
  await server.close();
  await smtp.close();
});

describe('first sign-in with a link made by the CLI', () => {
  let url: string;

  beforeAll(async () => {
    const actions = server.app.get(PeopleActions);
    await actions.addMember('Ada@Example.com', account.id, 'ADMIN', ACTOR);
    ({ url } = await actions.signInLink('ada@example.com', ACTOR));
  });

  it('the link shows a button and signs no one in by itself', async () => {
    expect(url).toMatch(/\/console\/sign-in\/link\?token=[A-Za-z0-9_-]{43}$/);
    const page = await consoleRequest(server, 'GET', pathOf(url));
    expect(page.status).toBe(200);
    expect(page.setCookie).toBeNull();
    expect(page.text).toContain('<button class="btn" type="submit">Sign in</button>');
  });

  it('the button signs in once: an HttpOnly, SameSite=Lax session cookie, then the console names the person', async () => {
    const token = new URL(url).searchParams.get('token')!;
    const used = await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token } });
    expect(used.status).toBe(303);
    expect(used.location).toBe('/console');
    expect(used.setCookie).toMatch(/^vigil_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
    const home = await consoleRequest(server, 'GET', '/console/account', { cookie: used.cookie });
    expect(home.status).toBe(200);
    expect(home.text).toContain('Signed in as ada@example.com');
    expect(home.text).toContain('Acme <span class="muted">(ADMIN)</span>');

    const again = await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token } });
    expect(again.status).toBe(400);
    expect(again.text).toContain('This link does not work');
    expect(again.setCookie).toBeNull();
  });

  it('expired, forged and malformed links get a clear page, never a 500', async () => {
    const { url: late } = await server.app.get(PeopleActions).signInLink('ada@example.com', ACTOR);
    clock.advance(15 * MINUTE);
    for (const path of [pathOf(late), '/console/sign-in/link?token=' + 'A'.repeat(43), '/console/sign-in/link?token=short', '/console/sign-in/link']) {
      const page = await consoleRequest(server, 'GET', path);
      expect(page.status).toBe(400);
      expect(page.text).toContain('This link does not work');
    }
    for (const token of [new URL(late).searchParams.get('token')!, 'A'.repeat(43), '', '<script>']) {
      const used = await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token } });
      expect(used.status).toBe(400);
      expect(used.setCookie).toBeNull();
    }
  });

  it('no session: the console leads to the sign-in page, and /v1 does not take a session cookie', async () => {
    const home = await consoleRequest(server, 'GET', '/console');
    expect(home).toMatchObject({ status: 303, location: '/console/sign-in' });
    const cookie = await signedInMember(server, 'keyless@example.com', account.id, 'ADMIN');
    const api = await server.http.get('/v1/status-pages', { headers: { cookie } });
    expect(api.status).toBe(401);
  });
});

describe('sign-in by email', () => {
  it('answers the same for known and unknown addresses, and mails a working link to the known one', async () => {
    const known = await consoleRequest(server, 'POST', '/console/sign-in', { form: { email: 'ada@example.com' } });
    const unknown = await consoleRequest(server, 'POST', '/console/sign-in', { form: { email: 'nobody@example.com' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    const mails = await eventually(() => smtp.mails.filter((m) => m.to.includes('ada@example.com')), (m) => m.length > 0);
    expect(mails).toHaveLength(1);
    expect(smtp.mails.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    const link = linkInMail(mails[0].raw, '/console/sign-in/link');
    const page = await consoleRequest(server, 'GET', pathOf(link));
    expect(page.status).toBe(200);
    const used = await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token: new URL(link).searchParams.get('token')! } });
    expect(used.status).toBe(303);
  });

  it('refuses a bad address next to the field, keeping what was typed', async () => {
    const page = await consoleRequest(server, 'POST', '/console/sign-in', { form: { email: 'not an address' } });
    expect(page.status).toBe(400);
    expect(page.text).toContain('aria-invalid="true"');
    expect(page.text).toContain('value="not an address"');
  });

  it('limits attempts per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await consoleRequest(server, 'POST', '/console/sign-in', { form: { email: 'many@example.com' } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('refuses a sign-in form posted from another site', async () => {
    const page = await consoleRequest(server, 'POST', '/console/sign-in', { form: { email: 'ada@example.com' }, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(page.status).toBe(403);
  });
});

describe('members, invitations and sessions', () => {
  let admin: string;

  beforeAll(async () => {
    admin = await signedInMember(server, 'boss@example.com', account.id, 'ADMIN');
  });

  it('invite → accept → the role is enforced; removing the member ends their session at once', async () => {
    const home = await consoleRequest(server, 'GET', `/console/account?account=${account.id}`, { cookie: admin });
    const invited = await consoleRequest(server, 'POST', `/console/accounts/${account.id}/invitations`, { cookie: admin, form: { csrf: csrfOf(home.text), email: 'viewer@example.com', role: 'READ_ONLY' } });
    expect(invited.status).toBe(200);
    expect(invited.text).toContain('Invitation for viewer@example.com created and emailed');
    const mail = await eventually(() => smtp.mails.find((m) => m.to.includes('viewer@example.com')), (m) => m !== undefined);
    const link = linkInMail(mail!.raw, '/console/invitations/accept');
    expect(invited.text).toContain(new URL(link).searchParams.get('token'));

    const page = await consoleRequest(server, 'GET', pathOf(link));
    expect(page.status).toBe(200);
    expect(page.text).toContain('invited to join an account as READ_ONLY');
    const token = new URL(link).searchParams.get('token')!;
    const accepted = await consoleRequest(server, 'POST', '/console/invitations/accept', { form: { token } });
    expect(accepted.status).toBe(303);
    const viewer = accepted.cookie!;
    const again = await consoleRequest(server, 'POST', '/console/invitations/accept', { form: { token } });
    expect(again.status).toBe(400);
    expect(again.text).toContain('This invitation does not work');

    const seen = await consoleRequest(server, 'GET', `/console/account?account=${account.id}`, { cookie: viewer });
    expect(seen.text).toContain('Signed in as viewer@example.com');
    expect(seen.text).not.toContain('Invite</button>');
    const forged = await consoleRequest(server, 'POST', `/console/accounts/${account.id}/invitations`, { cookie: viewer, form: { csrf: csrfOf(seen.text), email: 'friend@example.com', role: 'ADMIN' } });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('Only ADMINs of this account may do that.');

    const adminPage = await consoleRequest(server, 'GET', `/console/account?account=${account.id}`, { cookie: admin });
    const userId = new RegExp(`members/([0-9a-f-]{36})/remove"><input type="hidden" name="csrf" value="[^"]+"><button class="btn danger" type="submit">Remove viewer@example.com`).exec(adminPage.text)![1];
    const removed = await consoleRequest(server, 'POST', `/console/accounts/${account.id}/members/${userId}/remove`, { cookie: admin, form: { csrf: csrfOf(adminPage.text) } });
    expect(removed).toMatchObject({ status: 303, location: `/console/account?account=${account.id}&notice=removed` });
    const after = await consoleRequest(server, 'GET', '/console', { cookie: viewer });
    expect(after).toMatchObject({ status: 303, location: '/console/sign-in' });
  });

  it('an account keeps one ADMIN; a form without the token or from another site changes nothing', async () => {
    const solo = await server.account('Solo');
    const cookie = await signedInMember(server, 'solo@example.com', solo.id, 'ADMIN');
    const page = await consoleRequest(server, 'GET', `/console/account?account=${solo.id}`, { cookie });
    const userId = /members\/([0-9a-f-]{36})\/remove/.exec(page.text)![1];
    const last = await consoleRequest(server, 'POST', `/console/accounts/${solo.id}/members/${userId}/remove`, { cookie, form: { csrf: csrfOf(page.text) } });
    expect(last.status).toBe(409);
    expect(last.text).toContain('keeps at least one ADMIN');
    const noToken = await consoleRequest(server, 'POST', `/console/accounts/${solo.id}/members/${userId}/role`, { cookie, form: { role: 'READ_ONLY' } });
    expect(noToken.status).toBe(403);
    const crossSite = await consoleRequest(server, 'POST', `/console/accounts/${solo.id}/invitations`, {
      cookie,
      form: { csrf: csrfOf(page.text), email: 'x@example.com', role: 'ADMIN' },
      headers: { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1' },
    });
    expect(crossSite.status).toBe(403);
    const still = await consoleRequest(server, 'GET', `/console/account?account=${solo.id}`, { cookie });
    expect(still.text).toContain('No pending invitations.');
  });

  it('lists sessions, signs out one or all, and ends an idle session', async () => {
    const first = await signedInMember(server, 'multi@example.com', account.id, 'READ_WRITE');
    const { url } = await server.app.get(PeopleActions).signInLink('multi@example.com', ACTOR);
    const second = (await consoleRequest(server, 'POST', '/console/sign-in/link', { form: { token: new URL(url).searchParams.get('token')! } })).cookie!;
    const page = await consoleRequest(server, 'GET', '/console/account', { cookie: first });
    const other = /sessions\/([0-9a-f-]{36})\/end/.exec(page.text)![1];
    const ended = await consoleRequest(server, 'POST', `/console/sessions/${other}/end`, { cookie: first, form: { csrf: csrfOf(page.text) } });
    expect(ended).toMatchObject({ status: 303, location: '/console/account?notice=session-ended' });
    expect((await consoleRequest(server, 'GET', '/console', { cookie: second })).status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/console', { cookie: first })).status).toBe(200);

    clock.advance(8 * DAY);
    expect((await consoleRequest(server, 'GET', '/console', { cookie: first })).status).toBe(303);
    expect((await consoleRequest(server, 'GET', '/console', { cookie: admin })).status).toBe(303);
  });
});

describe('passkeys on the console page', () => {
  it('a person renames a passkey; an empty name, an unknown passkey or a missing token change nothing', async () => {
    const cookie = await signedInMember(server, 'keys@example.com', account.id, 'READ_ONLY');
    const user = (await server.app.get(QueryBus).execute(new PeopleQuery({ type: 'UserByEmail', email: 'keys@example.com' })))!;
    const passkey = { credentialId: 'cred-1', publicKey: 'cHVibGlj', counter: 0, transports: ['internal'], name: 'My passkey' };
    await server.app.get(CommandBus).execute(new RunUserCommand({ type: 'RegisterPasskey', userId: user.id, passkey }, ACTOR));
    const names = async () => (await server.app.get(QueryBus).execute(new PeopleQuery({ type: 'PasskeysOfUser', userId: user.id }))).map((p) => p.name);
    const page = await consoleRequest(server, 'GET', '/console/account', { cookie });
    expect(page.text).toContain('action="/console/passkeys/cred-1/rename"');
    const csrf = csrfOf(page.text);

    const renamed = await consoleRequest(server, 'POST', '/console/passkeys/cred-1/rename', { cookie, form: { csrf, name: ' Work laptop <b> ' } });
    expect(renamed).toMatchObject({ status: 303, location: '/console/account?notice=passkey-renamed' });
    expect(await names()).toEqual(['Work laptop <b>']);
    const after = await consoleRequest(server, 'GET', '/console/account?notice=passkey-renamed', { cookie });
    expect(after.text).toContain('Passkey renamed.');
    expect(after.text).toContain('Work laptop &lt;b&gt;');

    const empty = await consoleRequest(server, 'POST', '/console/passkeys/cred-1/rename', { cookie, form: { csrf, name: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Name the passkey (1 to 60 characters)');
    expect((await consoleRequest(server, 'POST', '/console/passkeys/nope/rename', { cookie, form: { csrf, name: 'X' } })).status).toBe(404);
    expect((await consoleRequest(server, 'POST', '/console/passkeys/cred-1/rename', { cookie, form: { name: 'X' } })).status).toBe(403);
    expect(await names()).toEqual(['Work laptop <b>']);

    // The audit trail names the person who acted, not only their address.
    const events = await server.app.get<EventStore>(EVENT_STORE).readStream(`user-${user.id}`);
    expect(events.find((event) => event.type === 'PasskeyRenamed')?.metadata).toMatchObject({ userId: user.id, keyName: 'person:keys@example.com' });
  });
});

describe('behind https', () => {
  it('the session cookie is Secure with the __Host- prefix when VIGIL_PUBLIC_URL is https', async () => {
    const secure = await startTestServer({ env: { VIGIL_PUBLIC_URL: 'https://vigil.example.com' } });
    try {
      const acme = await secure.account('Acme');
      const actions = secure.app.get(PeopleActions);
      await actions.addMember('ada@example.com', acme.id, 'ADMIN', ACTOR);
      const { url } = await actions.signInLink('ada@example.com', ACTOR);
      expect(url.startsWith('https://vigil.example.com/console/sign-in/link?token=')).toBe(true);
      const used = await consoleRequest(secure, 'POST', '/console/sign-in/link', { form: { token: new URL(url).searchParams.get('token')! } });
      expect(used.setCookie).toMatch(/^__Host-vigil_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/);
      expect((await consoleRequest(secure, 'GET', '/console', { cookie: used.cookie })).status).toBe(200);
      // The same secret under the plain name is not a session there.
      const plain = used.cookie!.replace('__Host-vigil_session', 'vigil_session');
      expect((await consoleRequest(secure, 'GET', '/console', { cookie: plain })).status).toBe(303);
    } finally {
      await secure.close();
    }
  });
});

import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { eventually } from './alerting-receivers';
import { consoleRequest, csrfOf, signedInMember } from './people-fixtures';

/** The console's API keys over real HTTP: ADMIN members create (shown once) and revoke; nobody else sees or changes them. */
let server: TestServer;
let account: TestAccount;
let admin: string;
let writer: string;

const keyCount = async () => (await consoleRequest(server, 'GET', '/console/api-keys', { cookie: admin })).text.match(/<li><span class="who">/g)?.length ?? 0;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_RATE_LIMIT_PER_MINUTE: '100000', VIGIL_DAEMON: 'off' } });
  account = await server.account('Keys');
  admin = await signedInMember(server, 'ann@example.com', account.id, 'ADMIN');
  writer = await signedInMember(server, 'wes@example.com', account.id, 'READ_WRITE');
});

afterAll(() => server.close());

it('a form with mistakes creates nothing and keeps what was typed', async () => {
  const page = await consoleRequest(server, 'GET', '/console/api-keys', { cookie: admin });
  expect(page.status).toBe(200);
  const before = await keyCount();
  const answer = await consoleRequest(server, 'POST', '/console/api-keys', { cookie: admin, form: { csrf: csrfOf(page.text), name: 'x'.repeat(101), role: 'OWNER' } });
  expect(answer.status).toBe(400);
  expect(answer.text).toContain('id="name-error">At most 100 characters (this has 101).');
  expect(answer.text).toContain('id="role-error">Choose a role');
  expect(answer.text).toContain(`value="${'x'.repeat(101)}"`);
  expect(await keyCount()).toBe(before);
});

it('creates a key shown once, which works on the API, and revokes it', async () => {
  const page = await consoleRequest(server, 'GET', '/console/api-keys', { cookie: admin });
  const created = await consoleRequest(server, 'POST', '/console/api-keys', { cookie: admin, form: { csrf: csrfOf(page.text), name: 'deploy <bot>', role: 'READ_ONLY' } });
  expect(created.status).toBe(201);
  const key = /<pre><code>(vgl_[A-Za-z0-9_-]{43})<\/code><\/pre>/.exec(created.text)![1];
  expect(created.text).toContain('Your new key: deploy &lt;bot&gt;');
  expect((await server.http.get('/v1/checks', { key })).status).toBe(200);
  expect((await server.http.post('/v1/checks/heartbeat', { name: 'x', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }, { key })).status).toBe(403);
  const again = await consoleRequest(server, 'GET', '/console/api-keys', { cookie: admin });
  expect(again.text).not.toContain(key);
  expect(again.text).toContain(`<code>${key.slice(0, 8)}…</code>`);

  const revoke = /action="(\/console\/api-keys\/[0-9a-f-]{36}\/revoke)"/.exec(again.text)![1];
  expect(await consoleRequest(server, 'POST', revoke, { cookie: writer, form: { csrf: csrfOf(again.text) } })).toMatchObject({ status: 403 });
  expect((await server.http.get('/v1/checks', { key })).status).toBe(200);
  const revoked = await consoleRequest(server, 'POST', revoke, { cookie: admin, form: { csrf: csrfOf(again.text) } });
  expect(revoked).toMatchObject({ status: 303, location: '/console/api-keys' });
  // A revocation reaches the key cache within a second.
  expect(await eventually(async () => (await server.http.get('/v1/checks', { key })).status, (s) => s === 401)).toBe(401);
  expect((await consoleRequest(server, 'GET', '/console/api-keys', { cookie: admin })).text).toMatch(/deploy &lt;bot&gt;.*revoked/);
});

it('a non-ADMIN member sees neither the keys nor a form, and a forged create is refused', async () => {
  const page = await consoleRequest(server, 'GET', '/console/api-keys', { cookie: writer });
  expect(page.status).toBe(403);
  expect(page.text).not.toContain('Create key');
  const overview = await consoleRequest(server, 'GET', '/console', { cookie: writer });
  const before = await keyCount();
  const forged = await consoleRequest(server, 'POST', '/console/api-keys', { cookie: writer, form: { csrf: csrfOf(overview.text), name: 'forged', role: 'ADMIN' } });
  expect(forged.status).toBe(403);
  expect(forged.text).not.toMatch(/vgl_/);
  expect(await keyCount()).toBe(before);
  const other = await server.account('Other');
  const foreign = await consoleRequest(server, 'POST', `/console/api-keys/${other.id}/revoke`, { cookie: admin, form: { csrf: csrfOf((await consoleRequest(server, 'GET', '/console/api-keys', { cookie: admin })).text) } });
  expect(foreign.status).toBe(404);
});

it('the console header leads to members and invitations', async () => {
  const page = await consoleRequest(server, 'GET', '/console', { cookie: admin });
  expect(page.text).toContain('<a href="/console/account">Account and members</a>');
  expect(page.text).toContain('<a href="/console/api-keys">API keys</a>');
  const members = await consoleRequest(server, 'GET', '/console/account', { cookie: admin });
  expect(members.text).toContain('Members of Keys');
  expect(members.text).toContain('Invitations');
});

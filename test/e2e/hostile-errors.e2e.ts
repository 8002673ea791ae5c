import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

/** Issue 33 item 11: errors that help. */
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ env: { VIGIL_DAEMON: 'off' } });
  account = await server.account();
});
afterAll(() => server.close());

it('names a missing required field once: "grace is required"', async () => {
  const response = await server.http.post('/v1/checks/heartbeat', { name: 'Nightly', heartbeat: { period: 1, periodUnit: 'days', graceUnit: 'hours' } }, { key: account.key });
  expect(response.status).toBe(400);
  expect(response.body.details).toEqual([{ path: 'heartbeat.grace', message: 'grace is required' }]);
  const nothing = await server.http.post('/v1/checks/heartbeat', {}, { key: account.key });
  expect(nothing.body.details).toEqual([
    { path: 'name', message: 'name is required' },
    { path: 'heartbeat', message: 'heartbeat is required' },
  ]);
});

it('says what a slug may contain', async () => {
  const response = await server.http.post('/v1/checks/heartbeat', { name: 'Nightly', slug: 'Not A Slug!', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }, { key: account.key });
  expect(response.status).toBe(400);
  expect(response.body.details).toEqual([{ path: 'slug', message: expect.stringMatching(/lowercase letters, digits, hyphens or underscores/) }]);
});

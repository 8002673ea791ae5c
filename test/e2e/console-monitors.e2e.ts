import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { consoleRequest, signedInMember } from './people-fixtures';

jest.setTimeout(120_000);

/** The console's monitor pages over real HTTP: the list with states, a monitor's page, its own account only. */
describe('console monitors', () => {
  let server: TestServer;
  let account: TestAccount;
  let viewer: string;
  let target: http.Server;
  let id = '';

  beforeAll(async () => {
    target = http.createServer((_q, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    server = await startTestServer({ env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true', VIGIL_RATE_LIMIT_PER_MINUTE: '100000' } });
    account = await server.account('Acme');
    viewer = await signedInMember(server, 'val@example.com', account.id, 'READ_ONLY');
    const body = { name: 'Shop <front>', frequency: 0, frequencyOffset: 10, request: { url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` } };
    id = (await server.http.post('/v1/checks/url', body, { key: account.key })).body.id;
    while ((await server.http.get(`/v1/checks/url/${id}`, { key: account.key })).body.status.state !== 'PASSING') await new Promise((r) => setTimeout(r, 200));
  });

  afterAll(async () => {
    await server?.close();
    target?.closeAllConnections();
    await new Promise((r) => target?.close(r));
  });

  it('lists monitors with their type and state, escaped, under their own nav entry', async () => {
    const page = await consoleRequest(server, 'GET', '/console/monitors', { cookie: viewer });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="/console/monitors/${id}">Shop &lt;front&gt;</a> <span class="muted">URL</span>`);
    expect(page.text).toContain('<span class="state s-PASSING">PASSING</span>');
    expect(page.text).toContain('<a href="/console/monitors" aria-current="page">Monitors</a>');
    expect(page.text).toMatch(/<link rel="stylesheet" href="\/console\/assets\/console\.[0-9a-f]{12}\.css">/);
    expect(page.text).not.toMatch(/<script|style=/);
  });

  it("shows a monitor's last run and last 24 hours; another account's or a missing one is a 404; no session leads to sign-in", async () => {
    const page = await consoleRequest(server, 'GET', `/console/monitors/${id}`, { cookie: viewer });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Shop &lt;front&gt;</h1>');
    expect(page.text).toContain('URL monitor · every 10 s · from local');
    expect(page.text).toMatch(/PASS from local at .* UTC, \d+ ms/);
    expect(page.text).toMatch(/100 % available over \d+ runs/);
    const other = await server.account('Other');
    const theirs = (await server.http.post('/v1/checks/tcp', { name: 'theirs', request: { hostname: '127.0.0.1', port: 9 } }, { key: other.key })).body.id;
    expect((await consoleRequest(server, 'GET', `/console/monitors/${theirs}`, { cookie: viewer })).status).toBe(404);
    expect((await consoleRequest(server, 'GET', '/console/monitors/not-an-id', { cookie: viewer })).status).toBe(404);
    expect(await consoleRequest(server, 'GET', '/console/monitors')).toMatchObject({ status: 303, location: '/console/sign-in' });
  });
});

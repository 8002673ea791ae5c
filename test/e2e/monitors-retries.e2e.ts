import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

jest.setTimeout(60_000);

/** Retries as the monitor's strategy says, each run recorded and listed at Checkly's check-results route. */
describe('monitor retries and check results', () => {
  let server: TestServer;
  let account: TestAccount;
  let target: http.Server;
  let base = '';

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.writeHead(500).end('down'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    server = await startTestServer({ env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });
  afterAll(async () => {
    await server.close();
    await new Promise((r) => target.close(r));
  });

  async function finalRuns(id: string, count: number): Promise<Array<Record<string, unknown>>> {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      const res = await server.http.get(`/v2/check-results/${id}?resultType=ALL&limit=100`, { key: account.key });
      expect(res.status).toBe(200);
      if (res.body.entries.filter((e: { resultType: string }) => e.resultType === 'FINAL').length >= count) return res.body.entries;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('no final run');
  }

  it('FIXED with two retries: two ATTEMPT runs then a FINAL one, and the monitor FAILING', async () => {
    const created = await server.http.post(
      '/v1/checks/url',
      { name: 'flaky', frequency: 10, retryStrategy: { type: 'FIXED', baseBackoffSeconds: 1, maxRetries: 2, maxDurationSeconds: 60 }, request: { url: base } },
      { key: account.key },
    );
    const runs = await finalRuns(created.body.id, 1);
    expect(runs.map((r) => [r.attempts, r.resultType, r.hasFailures])).toEqual([
      [3, 'FINAL', true],
      [2, 'ATTEMPT', true],
      [1, 'ATTEMPT', true],
    ]);
    expect(runs[0]).toMatchObject({ checkId: created.body.id, name: 'flaky', runLocation: 'local', error: expect.stringContaining('STATUS_CODE') });
    const monitor = await server.http.get(`/v1/checks/url/${created.body.id}`, { key: account.key });
    expect(monitor.body.status.state).toBe('FAILING');
    const page = await server.http.get(`/v2/check-results/${created.body.id}?limit=1&resultType=ATTEMPT`, { key: account.key });
    expect(page.body).toMatchObject({ length: 1, entries: [{ attempts: 2 }], nextId: expect.any(String) });
    const next = await server.http.get(`/v2/check-results/${created.body.id}?limit=1&resultType=ATTEMPT&nextId=${page.body.nextId}`, { key: account.key });
    expect(next.body.entries).toMatchObject([{ attempts: 1 }]);
  });

  it('onlyOn NETWORK_ERROR does not retry an answer that fails its assertions', async () => {
    const created = await server.http.post(
      '/v1/checks/url',
      { name: 'strict', frequency: 10, retryStrategy: { type: 'LINEAR', baseBackoffSeconds: 1, maxRetries: 3, onlyOn: 'NETWORK_ERROR' }, request: { url: base } },
      { key: account.key },
    );
    const runs = await finalRuns(created.body.id, 1);
    expect(runs.map((r) => [r.attempts, r.resultType])).toEqual([[1, 'FINAL']]);
  });

  it('check results: unknown or foreign ids are 404, bad parameters 400 with details', async () => {
    const other = await server.account('Other');
    const created = await server.http.post('/v1/checks/url', { name: 'mine', frequency: 10, request: { url: base } }, { key: account.key });
    expect((await server.http.get(`/v2/check-results/${created.body.id}`, { key: other.key })).status).toBe(404);
    expect((await server.http.get('/v2/check-results/nope', { key: account.key })).status).toBe(404);
    const bad = await server.http.get(`/v2/check-results/${created.body.id}?resultType=SOME&from=yesterday&nextId=x`, { key: account.key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['nextId', 'resultType', 'from']);
  });
});

import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { Receiver, startReceiver } from './alerting-receivers';
import { RunnerProcess, startRunner as spawnRunner, until } from './runner-processes';

/**
 * Runner processes (the built apps/runner, needs `npm run build`) on one location of an account: they
 * lease the location's runs from the API and report them; one killed with `kill -9` is reported LOST and
 * its monitors' runs go to the other; a runner whose key is revoked is refused and stops.
 */
jest.setTimeout(180_000);

describe('runners on a location', () => {
  let server: TestServer;
  let account: TestAccount;
  let target: http.Server;
  let targetUrl: string;
  let receiver: Receiver;
  const runners: RunnerProcess[] = [];

  function startRunner(key: string, location: string): RunnerProcess {
    const runner = spawnRunner(server.url, key, location);
    runners.push(runner);
    return runner;
  }

  const location = async (name: string) => ((await server.http.get('/v1/locations', { key: account.key })).body as { region: string; status: string; downSince?: string | null; runners?: { id: string; state: string }[] }[]).find((l) => l.region === name);

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    receiver = await startReceiver();
    // The server's own outbound calls (the webhook) may reach loopback; the runners' probes are theirs to allow.
    server = await startTestServer({ env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
    const channel = await server.http.post('/v1/alert-channels', { type: 'WEBHOOK', config: { name: 'ops', url: `${receiver.url}/ops` } }, { key: account.key });
    expect(channel.status).toBe(201);
  });

  afterAll(async () => {
    for (const r of runners) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    await server?.close();
    await new Promise((r) => target.close(r));
    await receiver?.close();
  });

  it('keeps runner keys to ADMINs, checks every field and shows a key once', async () => {
    const writer = await account.newKey('READ_WRITE');
    expect((await server.http.post('/v1/runner-keys', { location: 'lab' }, { key: writer.apiKey })).status).toBe(403);
    const bad = await server.http.post('/v1/runner-keys', { location: 'Lab 1', allowPrivateTargets: 'yes', extra: 1 }, { key: account.key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['allowPrivateTargets', 'extra', 'location']);
    expect((await server.http.post('/v1/runner-keys', { location: 'local' }, { key: account.key })).status).toBe(400);
    const created = await server.http.post('/v1/runner-keys', { location: 'lab', name: 'rack 1' }, { key: account.key });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ location: 'lab', name: 'rack 1', allowPrivateTargets: false, runnerKey: expect.stringMatching(/^vgr_/) });
    const listed = await server.http.get('/v1/runner-keys', { key: account.key });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.runnerKey);
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, prefix: created.body.runnerKey.slice(0, 8), revoked: false })]);
    expect(await location('lab')).toMatchObject({ kind: 'runner', status: 'NEW', runners: [] });
  });

  it('refuses runner calls without a valid key, for another location, or with a malformed batch', async () => {
    const { runnerKey } = (await server.http.post('/v1/runner-keys', { location: 'edge' }, { key: account.key })).body;
    const call = (path: string, body: unknown, key?: string) => server.http.post(path, body, key ? { headers: { authorization: `Bearer ${key}` } } : {});
    expect((await call('/v1/runners/lease', { runner: 'r1', location: 'edge' })).status).toBe(401);
    expect((await call('/v1/runners/lease', { runner: 'r1', location: 'edge' }, 'vgr_unknown')).status).toBe(401);
    expect((await call('/v1/runners/lease', { runner: 'r1', location: 'lab' }, runnerKey)).status).toBe(403);
    const bad = await call('/v1/runners/results', { runner: 'r 1', location: 'edge', results: [{ monitorId: 'x', outcome: 'MAYBE', timings: { total: -1 } }] }, runnerKey);
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['runner', 'results[0].monitorId', 'results[0].outcome', 'results[0].timings.total', 'results[0].final']));
  });

  it('moves the runs of a runner killed with kill -9 to the location’s other runner, and reports it', async () => {
    // A private location: its targets may be loopback, the runners' own permission.
    const { runnerKey } = (await server.http.post('/v1/runner-keys', { location: 'lan', allowPrivateTargets: true }, { key: account.key })).body;
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await server.http.post('/v1/checks/url', { name: `site ${i}`, frequency: 0, frequencyOffset: 10, locations: ['lan'], request: { url: targetUrl } }, { key: account.key });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const [a, b] = [startRunner(runnerKey, 'lan'), startRunner(runnerKey, 'lan')];
    await until('both runners active', async () => (await location('lan'))?.runners?.filter((r) => r.state === 'ACTIVE').length === 2);
    // Rounds leased before the second runner joined may be the first's; after one lease time, each monitor is one runner's.
    const settled = Date.now() + 10_000;
    await until('every monitor run and PASSING', async () => {
      const states = await Promise.all(ids.map(async (id) => (await server.http.get(`/v1/checks/url/${id}`, { key: account.key })).body.status));
      return states.every((s) => s.state === 'PASSING' && s.lastRun?.location === 'lan');
    });
    await until('rounds split between the runners', async () => a.rounds(settled).size + b.rounds(settled).size >= ids.length);
    // Each monitor is one runner's: the one with more monitors dies.
    const [victim, survivor] = a.rounds(settled).size >= b.rounds(settled).size ? [a, b] : [b, a];
    const victims = [...victim.rounds(settled)];
    expect(victims.every((id) => !survivor.rounds(settled).has(id))).toBe(true);
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;

    const lan = await until('the killed runner reported LOST', async () => {
      const found = await location('lan');
      return found?.runners?.some((r) => r.state === 'LOST') ? found : null;
    });
    expect(lan.status).toBe('UP');
    expect(lan.runners!.map((r) => r.state).sort()).toEqual(['ACTIVE', 'LOST']);
    await until('the survivor running every monitor of the killed runner', async () => victims.every((id) => survivor.rounds(killedAt).has(id)));
    // Their runs are recorded again, from the same location.
    await until('fresh runs of the moved monitors', async () => {
      const views = await Promise.all(victims.map(async (id) => (await server.http.get(`/v1/checks/url/${id}`, { key: account.key })).body.status.lastRun));
      return views.every((run) => run && Date.parse(run.roundAt) > killedAt);
    });

    // With its last runner gone, the location is DOWN.
    survivor.child.kill('SIGKILL');
    await survivor.exited;
    const down = await until('the location DOWN', async () => {
      const found = await location('lan');
      return found?.status === 'DOWN' && found.downSince ? found : null;
    });
    expect(down.runners!.every((r) => r.state === 'LOST')).toBe(true);
    // The account's channels hear of it.
    await until('the location alert at the webhook', async () => receiver.requests.some((r) => r.path === '/ops' && r.body.includes('Location lan: no runner reports')));
  });

  it('stops on SIGTERM with a probe in flight: it sends what it measured and exits, not waiting for the probe', async () => {
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    try {
      const created = (await server.http.post('/v1/runner-keys', { location: 'halt', allowPrivateTargets: true }, { key: account.key })).body;
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
      const stuck = (await server.http.post('/v1/checks/url', { name: 'stuck', frequency: 1, locations: ['halt'], maxResponseTime: 30_000, request: { url } }, { key: account.key })).body;
      const fine = (await server.http.post('/v1/checks/url', { name: 'fine', frequency: 1, locations: ['halt'], request: { url: targetUrl } }, { key: account.key })).body;
      const runner = startRunner(created.runnerKey, 'halt');
      await until('a run of the fine monitor', async () => (await server.http.get(`/v1/checks/url/${fine.id}`, { key: account.key })).body.status.lastRun);
      await until('the stuck probe in flight', async () => runner.rounds().has(stuck.id));
      runner.child.kill('SIGTERM');
      // The probe in flight would take 30 s to give up; the runner leaves within its 5 s flush.
      const code = await Promise.race([runner.exited, new Promise((r) => setTimeout(r, 20_000).unref()).then(() => 'still running')]);
      expect(code).toBe(0);
      expect(runner.output()).toContain('Vigil runner stopped');
    } finally {
      hanging.closeAllConnections();
      await new Promise((r) => hanging.close(r));
    }
  });

  it('refuses private targets on a public location, then a runner whose key is revoked, which stops', async () => {
    const created = (await server.http.post('/v1/runner-keys', { location: 'gone' }, { key: account.key })).body;
    const monitor = (await server.http.post('/v1/checks/url', { name: 'inside', frequency: 0, frequencyOffset: 10, locations: ['gone'], request: { url: targetUrl } }, { key: account.key })).body;
    const runner = startRunner(created.runnerKey, 'gone');
    await until('the runner active', async () => (await location('gone'))?.status === 'UP');
    const refused = await until('a run refused the loopback target', async () => (await server.http.get(`/v1/checks/url/${monitor.id}`, { key: account.key })).body.status.lastRun);
    expect(refused).toMatchObject({ location: 'gone', outcome: 'FAIL', error: expect.stringContaining('private') });
    expect((await server.http.delete(`/v1/runner-keys/${created.id}`, { key: account.key })).status).toBe(204);
    expect(await runner.exited).toBe(3);
    expect(runner.output()).toContain('Unknown or revoked runner key');
    const lease = await server.http.post('/v1/runners/lease', { runner: 'again', location: 'gone' }, { headers: { authorization: `Bearer ${created.runnerKey}` } });
    expect(lease.status).toBe(401);
  });
});

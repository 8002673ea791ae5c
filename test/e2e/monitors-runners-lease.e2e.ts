import http from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { LEASE_BYTES } from '../../libs/monitors/src/write/lease-page';
import { RunnerProcess, startRunner, until } from './runner-processes';

/**
 * A runner's lease when its location holds more than one answer carries (monitors whose configurations are
 * large: 20 API monitors with a 60 KB body are over 1 MB): the API answers it in bounded pages, the runner asks
 * for each at once and runs every due round once; a page whose body stalls on its way (a proxy that stops
 * forwarding) is reported as cut off, and its monitors' rounds run once the runner has it again.
 * Runner processes are the built apps/runner (needs `npm run build`).
 */
jest.setTimeout(240_000);

const FAT_BODY = 'x'.repeat(60_000);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Lease {
  at: string;
  full: boolean;
  membership: string;
  monitors: Record<string, unknown>;
  nextRounds: Record<string, string>;
  continueAfter: string | null;
}

/** A proxy in front of the API that forwards every call, except the answer `stall` picks: half its body, then nothing. */
async function startProxy(apiUrl: string, stall: (path: string, body: string) => boolean) {
  const sockets = new Set<Socket>();
  let stalled = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = http.request(`${apiUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        if (!stall(req.url ?? '', body.toString())) {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
          return;
        }
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          const whole = Buffer.concat(parts);
          const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
          res.writeHead(answer.statusCode!, { ...headers, 'content-length': String(whole.length) });
          res.write(whole.subarray(0, whole.length >> 1));
          stalled++;
        });
      });
      upstream.end(body);
    });
  });
  server.on('connection', (s) => (sockets.add(s), s.once('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stalled: () => stalled,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Each monitor's started rounds (ms, API clock), in order; a round started twice shows twice. */
function roundsByMonitor(runner: RunnerProcess): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const { monitorId, roundAt } of runner.started()) by.set(monitorId, [...(by.get(monitorId) ?? []), Date.parse(roundAt)]);
  for (const list of by.values()) list.sort((a, b) => a - b);
  return by;
}

describe('a runner lease larger than one answer', () => {
  let server: TestServer;
  let account: TestAccount;
  let target: http.Server;
  let targetUrl: string;
  const runners: RunnerProcess[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    target = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    server = await startTestServer({ env: { VIGIL_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    account = await server.account();
  });

  afterAll(async () => {
    for (const r of runners) if (r.child.exitCode === null) r.child.kill('SIGKILL');
    for (const close of closers) await close();
    await server?.close();
    await new Promise((r) => target.close(r));
  });

  /** A runner key for `location` and 20 API monitors on it, each with a 60 KB body, every 10 s. */
  async function fatLocation(location: string): Promise<{ runnerKey: string; ids: string[] }> {
    const { runnerKey } = (await server.http.post('/v1/runner-keys', { location, allowPrivateTargets: true }, { key: account.key })).body;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { name: `${location} ${i}`, frequency: 0, frequencyOffset: 10, locations: [location], request: { url: targetUrl, method: 'POST', body: FAT_BODY, bodyType: 'RAW' } };
      const created = await server.http.post('/v1/checks/api', body, { key: account.key });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    return { runnerKey, ids };
  }

  it('answers a full lease in pages of bounded size that together hold every monitor once', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const { runnerKey, ids } = await fatLocation('pages');
    const lease = async (body: object) => {
      const response = await fetch(`${server.url}/v1/runners/lease`, { method: 'POST', headers: { authorization: `Bearer ${runnerKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ runner: 'p1', location: 'pages', ...body }) });
      const text = await response.text();
      return { status: response.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) };
    };
    // Every monitor has its next round once its state document is written.
    const pages: Lease[] = [];
    await until('every monitor in the full lease', async () => {
      pages.length = 0;
      let answer = await lease({});
      for (;;) {
        expect(answer.status).toBe(200);
        // One configuration of ~60 KB may pass the budget's edge; the rest of an answer is small.
        expect(answer.bytes).toBeLessThanOrEqual(LEASE_BYTES + 80_000);
        pages.push(answer.body);
        if (answer.body.continueAfter === null) break;
        answer = await lease({ membership: answer.body.membership, after: answer.body.continueAfter });
      }
      return pages.flatMap((p) => Object.keys(p.monitors)).length === ids.length;
    });
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.every((p) => p.full && Object.keys(p.monitors).length > 0)).toBe(true);
    expect(pages.slice(0, -1).every((p) => UUID.test(p.continueAfter!))).toBe(true);
    const leased = pages.flatMap((p) => Object.keys(p.monitors));
    expect(leased.sort()).toEqual([...ids].sort());
    expect(pages.flatMap((p) => Object.keys(p.nextRounds)).sort()).toEqual([...ids].sort());

    // Changes too large for one answer (every monitor changed since `before`) make the lease a full one, in pages.
    const delta = await lease({ since: before, membership: pages[0].membership });
    expect(delta.body).toMatchObject({ full: true, continueAfter: expect.stringMatching(UUID) });
    expect(Object.keys(delta.body.monitors)).toEqual(Object.keys(pages[0].monitors));
    // A page asked for under a membership no longer current starts the full lease over.
    const stale = await lease({ membership: 'stale', after: pages[0].continueAfter });
    expect(stale.body.membership).toBe(pages[0].membership);
    expect(Object.keys(stale.body.monitors)).toEqual(Object.keys(pages[0].monitors));

    for (const bad of [{ membership: pages[0].membership, after: 'not-an-id' }, { after: ids[0] }, { since: before, membership: pages[0].membership, after: ids[0] }]) {
      const refused = await lease(bad);
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([expect.objectContaining({ path: 'after' })]);
    }
  });

  it('runs every due round of every monitor once when the runner receives its lease in pages', async () => {
    const { runnerKey, ids } = await fatLocation('paged');
    const runner = startRunner(server.url, runnerKey, 'paged');
    runners.push(runner);
    const passing = async () => {
      const states = await Promise.all(ids.map(async (id) => (await server.http.get(`/v1/checks/api/${id}`, { key: account.key })).body.status));
      return states.every((s) => s.state === 'PASSING' && s.lastRun?.location === 'paged');
    };
    await until('every monitor run and PASSING', passing, 120_000);
    const from = Date.now();
    await until('three more rounds of every monitor', async () => {
      const by = roundsByMonitor(runner);
      return ids.every((id) => (by.get(id) ?? []).filter((at) => at >= from).length >= 3);
    }, 120_000);
    const by = roundsByMonitor(runner);
    for (const id of ids) {
      const rounds = by.get(id)!;
      // From its first round on, one every 10 s: none twice, none missed.
      expect(rounds.slice(1).map((at, i) => at - rounds[i])).toEqual(rounds.slice(1).map(() => 10_000));
    }
    expect(runner.output()).not.toContain('runner call failed');
  });

  it('says a lease answer whose body stalled was cut off, and runs its monitors once it has them', async () => {
    const { runnerKey, ids } = await fatLocation('stall');
    // The second page of the runner's first full lease stops half-way.
    let armed = true;
    const proxy = await startProxy(server.url, (path, body) => {
      if (!armed || path !== '/v1/runners/lease' || !body.includes('"after"')) return false;
      armed = false;
      return true;
    });
    closers.push(proxy.close);
    const runner = startRunner(proxy.url, runnerKey, 'stall');
    runners.push(runner);
    const cutOff = '/v1/runners/lease answered 200, but its body was cut off after';
    await until('the stalled page reported', async () => runner.output().includes(cutOff), 120_000);
    expect(proxy.stalled()).toBe(1);
    const line = runner.output().split('\n').find((l) => l.includes(cutOff))!;
    expect(line).toMatch(/cut off after (\d+) of (\d+) bytes \(the 15 s deadline passed\): nothing of it was used/);
    const [, got, of] = /after (\d+) of (\d+) bytes/.exec(line)!;
    expect(Number(got)).toBeLessThan(Number(of));
    expect(runner.output()).not.toMatch(/lease answered 200:/);

    // Every monitor runs: the first page's as planned, the others' once the runner asked for their page again.
    await until('every monitor run and PASSING', async () => {
      const states = await Promise.all(ids.map(async (id) => (await server.http.get(`/v1/checks/api/${id}`, { key: account.key })).body.status));
      return states.every((s) => s.state === 'PASSING' && s.lastRun?.location === 'stall');
    }, 120_000);
    const by = roundsByMonitor(runner);
    expect(ids.every((id) => by.has(id))).toBe(true);
    for (const id of ids) expect(new Set(by.get(id)).size).toBe(by.get(id)!.length);
  });
});

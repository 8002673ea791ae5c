import { sleep } from '../../libs/core/src/sleep';
import { ProjectionEngine } from '../../libs/read-store/src/projection-engine';
import { openSharedStores, SharedStores } from '../../libs/testing/src/production-shaped-stores';
import { CallCounts, StoreProbe } from '../../libs/testing/src/store-probe';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { createIncident, createPage } from './public-pages-fixtures';

/**
 * Store calls of idle processes (every background loop), counted at the store ports of production-shaped
 * engines: a worker (daemon on) and an API instance (daemon off) beside it, holding a pinged check, a
 * page with an incident and a sent notification, left alone. Budgets: docs/operations.md.
 */
const WINDOW_MS = 21_000;
const quiet = { info: () => undefined, error: () => undefined };

/** The shared stores as one process sees them, its calls counted apart. */
const counted = (shared: SharedStores, probe: StoreProbe) => async () => {
  const stores = await shared.openStores();
  const [eventStore, readStore] = [probe.wrapEventStore(stores.eventStore), probe.wrapReadStore(stores.readStore)];
  return { ...stores, eventStore, readStore, engine: new ProjectionEngine(readStore, eventStore, [], quiet) };
};

/** Calls a second over the window; a loop's pass may fall on both of its edges, so one call is not counted. */
function perSecond(calls: CallCounts): { rate: number; byCall: Record<string, number> } {
  return { rate: Math.max(0, calls.event + calls.read - 1) / (WINDOW_MS / 1000), byCall: calls.byCall };
}

const count = (probe: StoreProbe): number => probe.snapshot().event + probe.snapshot().read;

describe('store calls of idle processes (production-shaped in-memory stores)', () => {
  let shared: SharedStores;
  const workerCalls = new StoreProbe();
  const apiCalls = new StoreProbe();
  let worker: TestServer;
  let api: TestServer;

  beforeAll(async () => {
    shared = await openSharedStores();
    // The embedded monitor location is on, as by default: its scheduler sleeps until a round is due or a monitor changes.
    worker = await startTestServer({ openStores: counted(shared, workerCalls), env: { VIGIL_DAEMON: 'on' } });
    api = await startTestServer({ openStores: counted(shared, apiCalls), env: { VIGIL_DAEMON: 'off' } });
    const account = await api.account();
    const check = await api.http.post('/v1/checks/heartbeat', { name: 'hourly', heartbeat: { period: 1, periodUnit: 'hours', grace: 5, graceUnit: 'minutes' } }, { key: account.key });
    expect((await api.http.get(`/ping/${check.body.heartbeat.pingToken}`)).status).toBe(200);
    const { serviceIds } = await createPage(api, account, `idle-${Date.now()}`, { services: 1 });
    await createIncident(api, account, serviceIds);
    // What the worker does about the writes above (read models, processors, the watchdog's next deadline) settles
    // first: until a 3 s stretch stays within the budgets (a loaded runner can take longer than 3 s), at most 60 s.
    const settledBy = Date.now() + 60_000;
    do {
      workerCalls.reset();
      apiCalls.reset();
      await sleep(3000);
    } while ((count(workerCalls) > 2 * 3 || count(apiCalls) > 3) && Date.now() < settledBy);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await shared?.close();
  });

  it('an idle worker makes at most 2 store calls a second, an idle API instance at most 1', async () => {
    workerCalls.reset();
    apiCalls.reset();
    await sleep(WINDOW_MS);
    const [idleWorker, idleApi] = [perSecond(workerCalls.snapshot()), perSecond(apiCalls.snapshot())];
    const report = `worker ${idleWorker.rate.toFixed(2)} ${JSON.stringify(idleWorker.byCall)}, API instance ${idleApi.rate.toFixed(2)} ${JSON.stringify(idleApi.byCall)}`;
    process.stdout.write(`idle store calls a second: ${report}\n`);
    if (idleWorker.rate > 2 || idleApi.rate > 1) throw new Error(`over budget (worker ≤ 2, API instance ≤ 1): ${report}`);
  }, WINDOW_MS + 30_000);
});

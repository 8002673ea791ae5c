import { EventStoreDbEventStore } from '../../libs/event-store/src/eventstoredb.event-store';
import { InMemoryReadStore } from '../../libs/read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../libs/read-store/src/projection-engine';
import { EsdbFaultServer } from '../../libs/testing/src/esdb-fault.server';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';

const DEADLINE_MS = 1000;
/** Timers, event-loop turns and the HTTP round trip between the deadline and the answer, on a loaded runner too: still far below a hang. */
const SLACK_MS = 2000;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The whole API over real HTTP with the EventStoreDB adapter (the real client) talking to the fault
 * server, read models in the in-memory adapter: an event store that stops answering gives 503 with
 * Retry-After within the deadline, never a hanging request, and service resumes when it answers again.
 */
describe('an EventStoreDB that stops answering, over HTTP', () => {
  let esdb: EsdbFaultServer;
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    esdb = await EsdbFaultServer.start();
    esdb.faults.read = 'empty';
    server = await startTestServer({
      env: { VIGIL_DAEMON: 'off' },
      openStores: async () => {
        const eventStore = new EventStoreDbEventStore(esdb.url, { deadlineMs: DEADLINE_MS });
        const readStore = new InMemoryReadStore();
        return {
          eventStore,
          readStore,
          engine: new ProjectionEngine(readStore, eventStore, [], quiet),
          db: null,
          async close() {
            await eventStore.close();
            await readStore.close();
          },
        };
      },
    });
    account = await server.account();
  });

  afterAll(async () => {
    await server.close();
    await esdb.close();
  });

  afterEach(() => {
    esdb.faults.read = 'empty';
    esdb.faults.append = 'serve';
    esdb.faults.features = 'answer';
  });

  const createCheck = () =>
    server.http.post('/v1/checks/heartbeat', { name: 'nightly', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'hours' } }, { key: account.key });

  async function timed<T>(request: Promise<T>): Promise<{ response: T; ms: number }> {
    const started = Date.now();
    const response = await request;
    return { response, ms: Date.now() - started };
  }

  it.each([
    ['appends', 'append'],
    ['reads', 'read'],
  ] as const)('answers a write with 503 and Retry-After within the deadline when %s never answer', async (_, call) => {
    expect((await createCheck()).status).toBe(201);
    esdb.faults[call] = 'silent';

    const { response, ms } = await timed(createCheck());

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', requestId: expect.any(String) });
    expect(JSON.stringify(response.body)).not.toMatch(/EventStoreDB|grpc|127\.0\.0\.1/);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
  });

  it('says not ready while the log does not answer, and serves again once it does', async () => {
    esdb.faults.read = 'silent';
    const { response, ms } = await timed(server.http.get('/readyz'));
    expect(response.status).toBe(503);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);

    esdb.faults.read = 'empty';
    expect((await server.http.get('/readyz')).status).toBe(200);
    expect((await createCheck()).status).toBe(201);
  });
});

import { StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend } from '../../core/src/event';
import { EsdbFaultServer } from '../../testing/src/esdb-fault.server';
import { EventStoreDbEventStore } from './eventstoredb.event-store';

const DEADLINE_MS = 400;
/** Timers and event-loop turns between the deadline and the rejection reaching the test. */
const SLACK_MS = 400;

const ping: EventToAppend = { type: 'HeartbeatPingReceived', data: { n: 1 }, metadata: { accountId: null, occurredAt: '2026-11-25T10:00:00.000Z' } };

/** Waits until `condition` holds, for at most `ms`. */
async function eventually(condition: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** How many gRPC streams the adapter's client still tracks (not in the client's typings). */
function clientStreams(store: EventStoreDbEventStore): number {
  return (store as unknown as { connection: { client: { disposableStreams: Set<unknown> } } }).connection.client.disposableStreams.size;
}

async function timed<T>(promise: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await promise;
    return { error: null, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
}

/**
 * The EventStoreDB adapter against a gRPC server that implements the client's own service
 * definitions and misbehaves on demand: deadlines, cancellation and shutdown, with the real client.
 */
describe('EventStoreDB adapter against a faulty server', () => {
  let server: EsdbFaultServer;
  let store: EventStoreDbEventStore;

  beforeEach(async () => {
    server = await EsdbFaultServer.start();
    store = new EventStoreDbEventStore(server.url, { deadlineMs: DEADLINE_MS });
  });

  afterEach(async () => {
    await store.close();
    await server.close();
  });

  it('ends every read it stops early: no call left open after 1,000 of them, and close() is quick', async () => {
    // Every read gets more than it asked for, so each one the client stops is still sending on the server.
    await store.close();
    await server.close();
    server = await EsdbFaultServer.start({ overSend: true });
    store = new EventStoreDbEventStore(server.url, { deadlineMs: DEADLINE_MS });
    // The first call opens the channel; handles are counted from there on.
    expect(await store.headPosition()).toBe(1_000_000n);
    await eventually(() => server.open.size === 0);
    const handlesBefore = process.getActiveResourcesInfo().length;

    for (let round = 0; round < 1000; round++) {
      switch (round % 3) {
        case 0:
          expect(await store.headPosition()).toBe(1_000_000n);
          break;
        case 1:
          expect(await store.readAll({ maxCount: 5 })).toHaveLength(5);
          break;
        default:
          expect(await store.streamRevision('heartbeat-fault')).toBe(0n);
      }
    }

    await eventually(() => server.open.size === 0);
    expect(server.open.size).toBe(0);
    expect(server.readsStarted).toBe(1001);
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(handlesBefore + 2);
    // The client tracks each call until its stream finishes; a read left paused would stay here (and in memory).
    expect(clientStreams(store)).toBe(0);
    const closing = await timed(store.close());
    expect(closing.error).toBeNull();
    expect(closing.ms).toBeLessThan(2000);
  });

  it('reads a stream the server says does not exist as empty, and leaves no call open', async () => {
    server.faults.read = 'not-found';

    expect(await store.readStream('heartbeat-fault')).toEqual([]);
    expect(await store.streamRevision('heartbeat-fault')).toBeNull();
    await eventually(() => server.open.size === 0 && clientStreams(store) === 0);
    expect(clientStreams(store)).toBe(0);
  });

  it('prunes by truncation: writes $tb to the stream metadata, keeping the newest event', async () => {
    // The fault server's 200 events all occurred just now; a cutoff in the future makes every one old.
    await store.close();
    await server.close();
    server = await EsdbFaultServer.start({ eventBytes: 64 });
    store = new EventStoreDbEventStore(server.url, { deadlineMs: 2000 });
    const pruned = await store.pruneStream('heartbeat-fault', new Date(Date.now() + 60_000));

    expect(pruned).toBe(199);
    const metadata = server.appended.filter((event) => event.stream === '$$heartbeat-fault');
    expect(metadata).toHaveLength(1);
    expect(metadata[0]).toMatchObject({ type: '$metadata', data: expect.objectContaining({ $tb: 199 }) });
  });

  it('answers a read the server never answers with StoreUnavailableError within the deadline, and cancels it', async () => {
    await store.headPosition();
    server.faults.read = 'silent';

    const { error, ms } = await timed(store.readStream('heartbeat-fault'));

    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    await eventually(() => server.open.size === 0);
    expect(server.open.size).toBe(0);
  });

  it('answers a read dropped mid-stream with StoreUnavailableError at once', async () => {
    server.faults.read = 'drop';

    const { error, ms } = await timed(store.readAll({ maxCount: 50 }));

    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(ms).toBeLessThan(DEADLINE_MS);
  });

  it('answers a read cut off by the server going away with StoreUnavailableError', async () => {
    server.faults.read = 'silent';
    const reading = timed(store.readAll());
    await eventually(() => server.open.size === 1);
    await server.close();

    const { error, ms } = await reading;

    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
  });

  it('follows a server restart (GOAWAY) to the new server, leaving no connection behind', async () => {
    const sockets = () => process.getActiveResourcesInfo().filter((type) => type === 'TCPSocketWrap').length;
    await store.headPosition();
    const before = sockets();
    for (let restart = 0; restart < 3; restart++) {
      const port = server.port;
      await server.shutdown();
      server = await EsdbFaultServer.start({ port });
      for (let read = 0; read < 20; read++) expect(await store.headPosition()).toBe(1_000_000n);
    }
    await eventually(() => sockets() <= before);
    expect(sockets()).toBeLessThanOrEqual(before);
  });

  it('puts a deadline on method discovery, and recovers once the server answers again', async () => {
    server.faults.features = 'silent';

    const { error, ms } = await timed(store.appendToStream('heartbeat-fault', [ping]));

    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    server.faults.features = 'answer';
    const result = await store.appendToStream('heartbeat-fault', [ping]);
    expect(result.nextRevision).toBe(0n);
  });

  it('puts a deadline on batch appends, and recovers once the server answers again', async () => {
    await store.appendToStream('heartbeat-fault', [ping]);
    server.faults.append = 'silent';

    const { error, ms } = await timed(store.appendToStream('heartbeat-fault', [ping]));

    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    server.faults.append = 'serve';
    expect((await store.appendToStream('heartbeat-fault', [ping])).position).toBeGreaterThan(0n);
    await eventually(() => server.open.size <= 1);
  });

  it('appends several events with one call and reads nothing back: they carry the one position the append reports', async () => {
    const reads = server.readsStarted;

    const result = await store.appendToStream('incident-fault', [ping, { ...ping, type: 'Second' }, { ...ping, type: 'Third' }], { expectedRevision: 'no_stream' });

    expect(server.readsStarted).toBe(reads);
    expect(server.appended.map((event) => event.type)).toEqual(['HeartbeatPingReceived', 'Second', 'Third']);
    expect(result.nextRevision).toBe(2n);
    expect(result.events.map((event) => [event.revision, event.position])).toEqual([0n, 1n, 2n].map((revision) => [revision, result.position]));
  });

  it('closes within 2 s while calls hang, and fails later calls as unavailable', async () => {
    await store.headPosition();
    server.faults.read = 'silent';
    server.faults.append = 'silent';
    const hanging = [timed(store.readAll()), timed(store.appendToStream('heartbeat-fault', [ping]))];
    await eventually(() => server.open.size >= 2);

    const closing = await timed(store.close());

    expect(closing.ms).toBeLessThan(2000);
    for (const { error } of await Promise.all(hanging)) expect(error).toBeInstanceOf(StoreUnavailableError);
    await expect(store.headPosition()).rejects.toBeInstanceOf(StoreUnavailableError);
    await eventually(() => server.open.size === 0);
    expect(server.open.size).toBe(0);
  });
});

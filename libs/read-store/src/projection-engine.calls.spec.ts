import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { Processor } from '../../core/src/processor';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { sleep } from '../../core/src/sleep';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { LogWatch } from '../../event-store/src/log-watch';
import { StoreProbe } from '../../testing/src/store-probe';
import { InMemoryReadStore } from './in-memory.read-store';
import { ProcessorRunner } from './processor-runner';
import { ProjectionEngine } from './projection-engine';

/**
 * Store calls of the background loops on production-shaped engines (no inline access), counted per pass
 * of a loop, not per second: each call is a round trip to EventStoreDB or MongoDB.
 */
interface CountDoc extends ReadModelDoc {
  count: number;
}

const counter = (name: string): Projection<CountDoc> => ({
  name,
  version: 1,
  handles: ['Added'],
  indexes: [],
  ids: (event) => [event.stream],
  evolve: (doc, _event, id) => ({ id, count: (doc?.count ?? 0) + 1 }),
});

const added = (): EventToAppend => ({ type: 'Added', data: {}, metadata: { accountId: null, occurredAt: '2026-01-01T00:00:00.000Z' } });
const silent = { info: () => undefined, error: () => undefined };
const PROJECTIONS = 15;

async function until(check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 5000) throw new Error('condition not met within 5 s');
    await sleep(5);
  }
}

describe('store calls of the background loops (production-shaped engines)', () => {
  let eventStore: InMemoryEventStore;
  let readStore: InMemoryReadStore;
  let probe: StoreProbe;
  const projections = () => Array.from({ length: PROJECTIONS }, (_, i) => counter(`counts${i}`));
  const engine = (counted = probe) => new ProjectionEngine(counted.wrapReadStore(readStore), counted.wrapEventStore(eventStore), projections(), silent);

  beforeEach(() => {
    eventStore = new InMemoryEventStore();
    readStore = new InMemoryReadStore();
    probe = new StoreProbe();
  });

  it('an API instance follows generations with one read-store call a pass, whatever the number of projections', async () => {
    const api = engine();
    await api.start();
    // The stamp its own start renewed: read once more, as a change another process made meanwhile may hide behind it.
    await api.refreshGenerations();
    probe.reset();
    for (let pass = 0; pass < 10; pass++) await api.refreshGenerations();
    expect(probe.snapshot()).toMatchObject({ event: 0, read: 10 });

    // A rebuild elsewhere renews the stamp: the next pass re-reads every projection's generations, then one call again.
    const cli = engine(new StoreProbe());
    await cli.start();
    const rebuilding = cli.rebuild(['counts3']);
    await until(async () => {
      probe.reset();
      await api.refreshGenerations();
      return probe.snapshot().read > 1;
    });
    expect(probe.snapshot().byCall['read.getMeta']).toBe(1 + PROJECTIONS);
    await rebuilding;
    await api.refreshGenerations();
    expect(api.collection('counts3')).toBe('counts3_v1_g2');
    probe.reset();
    await api.refreshGenerations();
    expect(probe.snapshot()).toMatchObject({ event: 0, read: 1 });
  }, 20_000);

  it('an idle daemon pass reads the log once and no checkpoint', async () => {
    const worker = engine();
    await worker.start();
    await eventStore.appendToStream('s-1', [added()]);
    await worker.daemonPass();
    probe.reset();
    for (let pass = 0; pass < 10; pass++) expect(await worker.daemonPass()).toBe(0);
    const calls = probe.snapshot();
    expect(calls.event).toBe(10);
    // At most the generations stamp, should a META_REFRESH_MS have passed meanwhile.
    expect(calls.read).toBeLessThanOrEqual(1);
  });

  it('an idle worker with a log watch makes no store call until another process appends, then applies at once', async () => {
    const worker = engine();
    await worker.start();
    const handled: string[] = [];
    const processor: Processor = { name: 'recorder', handles: ['Added'], startAt: 'beginning', handle: async (event: RecordedEvent) => void handled.push(event.stream) };
    const runner = new ProcessorRunner(probe.wrapEventStore(eventStore), probe.wrapReadStore(readStore), silent);
    runner.register(processor);
    await runner.start();
    const abort = new AbortController();
    const watch = new LogWatch(probe.wrapEventStore(eventStore));
    watch.start(abort.signal, await eventStore.headPosition());
    // An idle interval of 1 ms: a loop that polled would make hundreds of calls below.
    const loops = [worker.run(abort.signal, 1, watch), runner.run(abort.signal, 1, watch)];
    try {
      await eventStore.appendToStream('s-1', [added()]);
      await until(async () => handled.length === 1 && (await readStore.get<CountDoc>(worker.collection('counts0'), 's-1')) !== null);

      await sleep(50);
      probe.reset();
      await sleep(200);
      const idle = probe.snapshot();
      expect(idle.event).toBe(0);
      // At most the generations stamp, should a META_REFRESH_MS fall due meanwhile.
      expect(idle.read).toBeLessThanOrEqual(1);

      await eventStore.appendToStream('s-2', [added()]);
      await until(async () => handled.length === 2 && (await readStore.get<CountDoc>(worker.collection('counts14'), 's-2')) !== null);
    } finally {
      abort.abort();
      await Promise.all(loops);
      await watch.stopped();
    }
    expect(handled).toEqual(['s-1', 's-2']);
  });
});

describe('the worker under steady pings (production-shaped engines)', () => {
  it('makes at most 0.2 read-store calls per ping at 20 pings/s, an API instance having applied each ping', async () => {
    const eventStore = new InMemoryEventStore();
    const readStore = new InMemoryReadStore();
    const probe = new StoreProbe();
    const projections = () => Array.from({ length: PROJECTIONS }, (_, i) => counter(`counts${i}`));
    const api = new ProjectionEngine(readStore, eventStore, projections(), silent);
    const worker = new ProjectionEngine(probe.wrapReadStore(readStore), probe.wrapEventStore(eventStore), projections(), silent);
    await api.start();
    await worker.start();
    await worker.catchUp();
    const abort = new AbortController();
    const watch = new LogWatch(eventStore);
    watch.start(abort.signal, await eventStore.headPosition());
    const daemon = worker.run(abort.signal, 200, watch);
    const PINGS = 60;
    try {
      await sleep(50);
      probe.reset();
      const started = Date.now();
      for (let n = 0; n < PINGS; n++) {
        const { events } = await eventStore.appendToStream(`check-${n % 10}`, [added()]);
        await api.applyAfterAppend(null, events);
        // Paced by the clock, not by sleeps that a loaded machine stretches: 20 a second.
        await sleep(Math.max(0, started + (n + 1) * 50 - Date.now()));
      }
      await until(async () => (await readStore.getCheckpoint(worker.collection('counts0'))) === (await eventStore.headPosition()));
    } finally {
      abort.abort();
      await daemon;
      await watch.stopped();
    }
    const calls = probe.snapshot();
    if (calls.read / PINGS > 0.2) throw new Error(`${calls.read / PINGS} read-store calls per ping: ${JSON.stringify(calls.byCall)}`);
    expect((await readStore.get<CountDoc>(worker.collection('counts9'), 'check-3'))?.doc.count).toBe(PINGS / 10);
  }, 20_000);
});

describe('an idle daemon waiting on a log watch still follows generations switched elsewhere', () => {
  it('moves its reads to a generation a CLI rebuilt before the CLI drops the one it served, with no append meanwhile', async () => {
    const eventStore = new InMemoryEventStore();
    const readStore = new InMemoryReadStore();
    const projections = Array.from({ length: 3 }, (_, i) => counter(`counts${i}`));
    const worker = new ProjectionEngine(readStore, eventStore, projections, silent);
    await worker.start();
    await eventStore.appendToStream('s-1', [added()]);
    await worker.catchUp();
    const abort = new AbortController();
    const watch = new LogWatch(eventStore);
    watch.start(abort.signal, await eventStore.headPosition());
    const daemon = worker.run(abort.signal, 200, watch);
    try {
      const cli = new ProjectionEngine(readStore, eventStore, [counter('counts0'), counter('counts1'), counter('counts2')], silent);
      await cli.start();
      let servedAtDrop: string | null = null;
      const drop = readStore.dropCollection.bind(readStore);
      readStore.dropCollection = async (name: string) => {
        servedAtDrop = worker.collection('counts1');
        return drop(name);
      };
      await cli.rebuild(['counts1']);
      expect(servedAtDrop).toBe('counts1_v1_g2');
      expect((await readStore.get<CountDoc>(worker.collection('counts1'), 's-1'))?.doc.count).toBe(1);
    } finally {
      abort.abort();
      await daemon;
      await watch.stopped();
    }
  }, 20_000);
});

describe('news of applied events (what background loops wake on instead of polling)', () => {
  it('tells the events of an append and of a daemon page once their documents are stored, until unsubscribed', async () => {
    const eventStore = new InMemoryEventStore();
    const readStore = new InMemoryReadStore();
    const engine = new ProjectionEngine(readStore, eventStore, [counter('counts0')], silent);
    await engine.start();
    const told: { streams: string[]; stored: Promise<unknown>[] }[] = [];
    const unsubscribe = engine.onApplied((events) =>
      told.push({ streams: events.map((e) => e.stream), stored: events.map((e) => readStore.get(engine.collection('counts0'), e.stream)) }),
    );
    const { events } = await eventStore.appendToStream('s-1', [added()]);
    await engine.applyAfterAppend(null, events);
    // Appended elsewhere: the daemon's pass applies it.
    await eventStore.appendToStream('s-2', [added()]);
    await engine.daemonPass();
    unsubscribe();
    await eventStore.appendToStream('s-3', [added()]);
    await engine.daemonPass();
    expect(told.map((t) => t.streams)).toEqual([['s-1'], ['s-1', 's-2']]);
    for (const { stored } of told) for (const doc of await Promise.all(stored)) expect(doc).not.toBeNull();
  });
});

/** Counts the events stream reads return: the work an append does inside a request. */
class CountingEventStore extends InMemoryEventStore {
  eventsRead = 0;
  override async readStream(...args: Parameters<InMemoryEventStore['readStream']>): Promise<RecordedEvent[]> {
    const events = await super.readStream(...args);
    this.eventsRead += events.length;
    return events;
  }
}

describe('work inside a request is bounded (a write loaded from a snapshot, no daemon)', () => {
  /** One document per hour of a stream, like the heartbeat rollups. */
  const hourly: Projection<CountDoc> = {
    name: 'hourly',
    version: 1,
    handles: ['Added'],
    indexes: [],
    ids: (event) => [`${event.stream}:${(event.data as { hour: number }).hour}`],
    evolve: (doc, _event, id) => ({ id, count: (doc?.count ?? 0) + 1 }),
  };
  const ping = (hour: number): EventToAppend => ({ type: 'Added', data: { hour }, metadata: { accountId: null, occurredAt: '2026-01-01T00:00:00.000Z' } });

  async function setUp(caughtUp: number, lag: number) {
    const eventStore = new CountingEventStore();
    const readStore = new InMemoryReadStore();
    const api = new ProjectionEngine(readStore, eventStore, [hourly], silent);
    await api.start();
    await eventStore.appendToStream('check-1', Array.from({ length: caughtUp }, () => ping(1)));
    await api.catchUp();
    // Pings of the next hour the worker has not applied yet.
    if (lag > 0) await eventStore.appendToStream('check-1', Array.from({ length: lag }, () => ping(2)));
    eventStore.eventsRead = 0;
    return { eventStore, readStore, api };
  }

  it('the first ping of an hour reads one event of the stream, not a page', async () => {
    const { eventStore, readStore, api } = await setUp(1000, 0);
    const { events } = await eventStore.appendToStream('check-1', [ping(2)]);
    await api.applyAfterAppend(null, events);
    expect(eventStore.eventsRead).toBe(1);
    expect((await readStore.get<CountDoc>(api.collection('hourly'), 'check-1:2'))?.doc.count).toBe(1);
  });

  it('a ping into a document the worker has not caught up on reads the gap once, not twice', async () => {
    const lag = 50;
    const { eventStore, readStore, api } = await setUp(1000, lag);
    const { events } = await eventStore.appendToStream('check-1', [ping(2)]);
    await api.applyAfterAppend(null, events);
    expect(eventStore.eventsRead).toBeGreaterThanOrEqual(lag);
    expect(eventStore.eventsRead).toBeLessThan(2 * lag);
    // Absent (the worker never wrote it): folded from what the checkpoint covers, the gap included.
    expect((await readStore.get<CountDoc>(api.collection('hourly'), 'check-1:2'))?.doc.count).toBe(lag + 1);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundLoop } from '../../core/src/background-loop';
import { ManualClock } from '../../core/src/clock';
import { EventToAppend } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { loadConfig } from '../../platform/src/config';
import { createLogger } from '../../platform/src/logger';
import { openStores, Stores } from '../../platform/src/stores';
import { EventStore } from '../../event-store/src/event-store.port';
import { ProjectionEngine } from './projection-engine';
import { collectionName } from './projection-generations';
import { SqliteReadStore } from '../../sqlite/src/sqlite.read-store';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from './in-memory.read-store';

/** A counter per stream: each Added event adds its amount; Removed deletes the document. */
interface TallyDoc extends ReadModelDoc {
  total: number;
  events: number;
  seen: number[];
}

const tally = (version = 1, extra: Partial<TallyDoc> = {}): Projection<TallyDoc> => ({
  name: 'tallies',
  version,
  handles: ['Added', 'Removed', 'Exploded'],
  indexes: [{ field: 'total' }],
  sortField: 'total',
  ids: (event) => [event.stream],
  evolve(doc, event, id) {
    if (event.type === 'Exploded') throw new Error('projection bug');
    if (event.type === 'Removed') return null;
    const amount = (event.data as { amount: number }).amount;
    const base = doc ?? { id, total: 0, events: 0, seen: [] };
    return { ...base, ...extra, total: base.total + amount, events: base.events + 1, seen: [...base.seen, amount] };
  },
});

const added = (amount: number): EventToAppend => ({ type: 'Added', data: { amount }, metadata: { accountId: null, occurredAt: '2026-01-01T00:00:00.000Z' } });
const typed = (type: string): EventToAppend => ({ type, data: {}, metadata: { accountId: null, occurredAt: '2026-01-01T00:00:00.000Z' } });

async function until(check: () => Promise<boolean>, timeoutMs = 2000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

describe('ProjectionEngine on the embedded SQLite stores', () => {
  let dir: string;
  const opened: Stores[] = [];
  const aborts: AbortController[] = [];

  /** Stores on the shared temp file, wired as the server wires them; each is its own connection, like another process. */
  async function open(projections: Projection[] = []): Promise<Stores> {
    const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dir }), createLogger('silent'), new ManualClock());
    for (const projection of projections) stores.engine.register(projection);
    await stores.engine.start();
    opened.push(stores);
    return stores;
  }

  function runDaemon(stores: Stores): void {
    const abort = new AbortController();
    aborts.push(abort);
    void stores.engine.run(abort.signal, 20);
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-engine-'));
  });

  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    await new Promise((r) => setTimeout(r, 30));
    for (const stores of opened.splice(0).reverse()) await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const doc = (stores: Stores, id: string) => stores.readStore.get<TallyDoc>(stores.engine.collection('tallies'), id);

  describe('inline', () => {
    it('applies the events before the append answers, and moves the checkpoint to the head', async () => {
      const stores = await open([tally()]);
      const result = await stores.eventStore.appendToStream('s-1', [added(2), added(3)]);
      // No catch-up, no daemon: only the inline path can have written this.
      expect(await doc(stores, 's-1')).toEqual({ doc: { id: 's-1', total: 5, events: 2, seen: [2, 3] }, revision: 1n });
      expect(await stores.readStore.getCheckpoint(stores.engine.collection('tallies'))).toBe(result.position);
    });

    it('applies inside the append transaction: a projection that throws rolls the append back', async () => {
      const stores = await open([tally()]);
      await stores.eventStore.appendToStream('s-1', [added(1)]);
      await expect(stores.eventStore.appendToStream('s-1', [added(5), typed('Exploded')])).rejects.toThrow('projection bug');
      expect(await stores.eventStore.readStream('s-1')).toHaveLength(1);
      expect(await doc(stores, 's-1')).toEqual({ doc: { id: 's-1', total: 1, events: 1, seen: [1] }, revision: 0n });
      // The store still works and the next append lands at the revision the failed one did not use.
      await stores.eventStore.appendToStream('s-1', [added(10)], { expectedRevision: 0n });
      expect((await doc(stores, 's-1'))?.doc.total).toBe(11);
    });

    it('folds an append onto the documents the last one wrote or a caller just read, and reads them after a failed append or another connection\'s commit', async () => {
      const bombs: Projection = { name: 'bombs', version: 1, handles: ['Bomb'], indexes: [], ids: (event) => [event.stream], evolve: () => { throw new Error('bomb'); } };
      const stores = await open([tally(), bombs]);
      const inline = (stores.readStore as SqliteReadStore).inline;
      const getMany = inline.getMany;
      let reads = 0;
      inline.getMany = (collection, ids) => ((reads += 1), getMany(collection, ids));
      await stores.eventStore.appendToStream('s-1', [added(1)]);
      await stores.eventStore.appendToStream('s-1', [added(2)]);
      expect(reads).toBe(1);
      // The tally of revision 2 is written, then the append is taken back: the next append to land at 3 must not fold onto it.
      await expect(stores.eventStore.appendToStream('s-1', [added(5), typed('Bomb')])).rejects.toThrow('bomb');
      await stores.eventStore.appendToStream('s-1', [typed('Noise')]);
      await stores.eventStore.appendToStream('s-1', [added(10)]);
      expect(await doc(stores, 's-1')).toEqual({ doc: { id: 's-1', total: 13, events: 3, seen: [1, 2, 10] }, revision: 3n });
      expect(reads).toBe(3);
      const other = await open([tally()]);
      await other.eventStore.appendToStream('s-1', [added(100)]);
      await stores.eventStore.appendToStream('s-1', [added(1000)]);
      expect((await doc(stores, 's-1'))?.doc.seen).toEqual([1, 2, 10, 100, 1000]);
      expect(reads).toBe(4);
      // A copy a caller just read is folded onto when the append lands right after its revision, and read again otherwise.
      await stores.eventStore.appendToStream('s-2', [added(7)]);
      stores.engine.knownDocs.forget();
      stores.engine.knownDocs.note(stores.engine.collection('tallies'), 's-2', (await doc(stores, 's-2'))!);
      await stores.eventStore.appendToStream('s-2', [added(3)]);
      expect(reads).toBe(5);
      stores.engine.knownDocs.note(stores.engine.collection('tallies'), 's-2', { doc: { id: 's-2', total: -1, events: 0, seen: [] }, revision: 0n });
      await stores.eventStore.appendToStream('s-2', [added(4)]);
      expect((await doc(stores, 's-2'))?.doc.seen).toEqual([7, 3, 4]);
      expect(reads).toBe(6);
    });

    it('deletes a document when evolve returns null, and a replay does not bring it back', async () => {
      const stores = await open([tally()]);
      await stores.eventStore.appendToStream('s-1', [added(1), typed('Removed')]);
      expect(await doc(stores, 's-1')).toBeNull();
      await stores.readStore.resetCheckpoint(stores.engine.collection('tallies'));
      await stores.engine.catchUp();
      expect(await doc(stores, 's-1')).toBeNull();
    });


    it('does not apply inline to a collection that lags the log; catch-up then applies everything in order', async () => {
      const server = await open([tally()]);
      // Another process without this projection appends: the server's collection now lags.
      const other = await open();
      await other.eventStore.appendToStream('s-1', [added(1)]);
      await server.eventStore.appendToStream('s-1', [added(10)]);
      // Applying revision 1 first would make the revision guard skip revision 0 for ever.
      expect(await doc(server, 's-1')).toBeNull();
      // Lag is counted in events not applied (for /readyz and /metrics), not in log positions.
      expect((await server.engine.status())[0].lag).toBe(2);

      await server.engine.catchUp();
      expect(await doc(server, 's-1')).toEqual({ doc: { id: 's-1', total: 11, events: 2, seen: [1, 10] }, revision: 1n });
      expect((await server.engine.status())[0].lag).toBe(0);
      // Caught up, the next append is applied inline again.
      await server.eventStore.appendToStream('s-1', [added(100)]);
      expect((await doc(server, 's-1'))?.doc.total).toBe(111);
    });
  });


  describe('daemon', () => {
    it('applies events another store instance appended to the same file, within 2 s', async () => {
      const server = await open([tally()]);
      runDaemon(server);
      const other = await open();
      await other.eventStore.appendToStream('s-1', [added(4)]);
      await other.eventStore.appendToStream('s-2', [added(6), added(1)]);
      // Documents are visible once written; the checkpoint follows them after their fsync.
      const waited = await until(async () => (await doc(server, 's-2'))?.doc.total === 7 && (await server.engine.caughtUp()));
      expect(waited).toBeLessThan(2000);
      expect((await doc(server, 's-1'))?.doc.total).toBe(4);
    });


    it('a full replay from position 0 is a no-op', async () => {
      const stores = await open([tally()]);
      for (let i = 1; i <= 5; i++) await stores.eventStore.appendToStream(`s-${i % 2}`, [added(i)]);
      const collection = stores.engine.collection('tallies');
      const before = await stores.readStore.find(collection, { limit: 100 });
      await stores.readStore.resetCheckpoint(collection);
      expect(await stores.engine.catchUp()).toBe(5);
      expect(await stores.readStore.find(collection, { limit: 100 })).toEqual(before);
    });
  });

  describe('rebuild', () => {
    it('fills a new generation while the old one serves, then switches to identical documents', async () => {
      const stores = await open([tally()]);
      for (let i = 1; i <= 30; i++) await stores.eventStore.appendToStream(`s-${i % 7}`, [added(i)]);
      const old = stores.engine.collection('tallies');
      expect(old).toBe(collectionName('tallies', { version: 1, generation: 1 }));
      const before = await stores.readStore.find<TallyDoc>(old, { sort: { field: 'total', direction: 'desc' }, limit: 100 });
      const revisions = await Promise.all(before.map(async (d) => (await stores.readStore.get(old, d.id))!.revision));

      let servingDuringBuild: string | null = null;
      await stores.engine.rebuild(['tallies'], () => {
        servingDuringBuild = stores.engine.collection('tallies');
      });
      const rebuiltCollection = stores.engine.collection('tallies');
      const after = await stores.readStore.find<TallyDoc>(rebuiltCollection, { sort: { field: 'total', direction: 'desc' }, limit: 100 });

      expect(servingDuringBuild).toBe(old);
      expect(rebuiltCollection).toBe(collectionName('tallies', { version: 1, generation: 2 }));
      expect(after).toEqual(before);
      for (const [i, d] of before.entries()) expect((await stores.readStore.get(rebuiltCollection, d.id))!.revision).toBe(revisions[i]);
      expect(await stores.readStore.getCheckpoint(rebuiltCollection)).toBe(await stores.eventStore.headPosition());
      // The retired generation is dropped after its grace period.
      await expect(stores.readStore.find(old, { limit: 1 })).rejects.toThrow();
      // Writes after the switch go to the new generation inline.
      await stores.eventStore.appendToStream('s-1', [added(1000)]);
      expect((await doc(stores, 's-1'))?.doc.total).toBe(before.find((d) => d.id === 's-1')!.total + 1000);
    }, 15_000);

    it('a rebuild by another process is picked up by the running daemon, which then serves the new generation', async () => {
      const server = await open([tally()]);
      runDaemon(server);
      for (let i = 1; i <= 10; i++) await server.eventStore.appendToStream(`s-${i % 3}`, [added(i)]);
      const before = await server.readStore.find(server.engine.collection('tallies'), { limit: 100 });

      const cli = await open([tally()]);
      const rebuilding = cli.engine.rebuild(['tallies']);
      // The switch waits out its grace (writers elsewhere learn of the building generation first).
      await until(async () => server.engine.collection('tallies') === collectionName('tallies', { version: 1, generation: 2 }), 6000);
      expect(await server.readStore.find(server.engine.collection('tallies'), { limit: 100 })).toEqual(before);
      await rebuilding;
      expect(await server.readStore.find(server.engine.collection('tallies'), { limit: 100 })).toEqual(before);
    }, 15_000);

    it('a long rebuild by another process, which the running daemon joins, ends with one switch and a serving generation', async () => {
      const server = await open([tally()]);
      runDaemon(server);
      for (let i = 0; i < 50; i++) await server.eventStore.appendToStream(`s-${i % 5}`, [...Array(100)].map((_, j) => added(j)));
      const before = await server.readStore.find<TallyDoc>(server.engine.collection('tallies'), { limit: 100 });

      // The CLI's process, given the time a long log takes: each page of the log arrives after a pause,
      // during which the server's daemon sees the build, helps fill it, and may switch it itself.
      const cli = await open();
      const paced = Object.create(cli.eventStore) as EventStore;
      paced.readAll = async (options) => {
        await new Promise((r) => setTimeout(r, 250));
        return cli.eventStore.readAll({ ...options, maxCount: 1000 });
      };
      const cliEngine = new ProjectionEngine(cli.readStore, paced, [tally()], { info: () => undefined, error: () => undefined }, (cli.readStore as SqliteReadStore).inline);
      await cliEngine.start();
      await cliEngine.rebuild(['tallies']);
      // Past every grace period after which a switch drops what it retired.
      await new Promise((r) => setTimeout(r, 3500));

      const g2 = collectionName('tallies', { version: 1, generation: 2 });
      expect(server.engine.collection('tallies')).toBe(g2);
      expect(await server.readStore.find(server.engine.collection('tallies'), { limit: 100 })).toEqual(before);
      expect(await cli.readStore.getMeta('projection:tallies')).toEqual({
        active: { version: 1, generation: 2 },
        building: null,
      });
    }, 20_000);

    it('an instance without the daemon follows a switch made elsewhere before the old generation is dropped', async () => {
      const api = await open([tally()]);
      // As ProjectionLifecycle follows generations where no daemon runs.
      const follow = new BackgroundLoop({ name: 'follow', idleMs: 50, pass: () => api.engine.refreshGenerations(), logger: { error: () => undefined } });
      follow.start();
      try {
        await api.eventStore.appendToStream('s-1', [added(3)]);
        const cli = await open([tally()]);
        await cli.engine.rebuild(['tallies']);
        expect(api.engine.collection('tallies')).toBe(collectionName('tallies', { version: 1, generation: 2 }));
        expect((await doc(api, 's-1'))?.doc.total).toBe(3);
      } finally {
        await follow.stop();
      }
    }, 15_000);

    it('a version bump builds beside the old version, which serves until the new one has caught up', async () => {
      const first = await open([tally(1)]);
      for (let i = 1; i <= 5; i++) await first.eventStore.appendToStream('s-1', [added(i)]);
      const v1 = first.engine.collection('tallies');
      await first.close();
      opened.splice(opened.indexOf(first), 1);

      const upgraded = await open([tally(2, { shape: 'v2' } as Partial<TallyDoc>)]);
      // Started, not yet caught up: reads still go to version 1, untouched.
      expect(upgraded.engine.collection('tallies')).toBe(v1);
      expect((await doc(upgraded, 's-1'))?.doc).toEqual({ id: 's-1', total: 15, events: 5, seen: [1, 2, 3, 4, 5] });
      const status = await upgraded.engine.status();
      expect(status[0].building?.collection).toBe(collectionName('tallies', { version: 2, generation: 2 }));

      runDaemon(upgraded);
      await until(async () => upgraded.engine.collection('tallies') === collectionName('tallies', { version: 2, generation: 2 }), 5000);
      expect((await doc(upgraded, 's-1'))?.doc).toEqual({ id: 's-1', total: 15, events: 5, seen: [1, 2, 3, 4, 5], shape: 'v2' });
      expect((await upgraded.engine.status())[0]).toMatchObject({ version: 2, lag: 0, building: null });
    }, 15_000);

    it('two instances upgraded together switch once, and neither drops the generation that serves', async () => {
      const first = await open([tally(1)]);
      for (let i = 1; i <= 20; i++) await first.eventStore.appendToStream(`s-${i % 4}`, [added(i)]);
      const before = await first.readStore.find<TallyDoc>(first.engine.collection('tallies'), { limit: 100 });
      await first.close();
      opened.splice(opened.indexOf(first), 1);

      const v2 = collectionName('tallies', { version: 2, generation: 2 });
      const a = await open([tally(2)]);
      const b = await open([tally(2)]);
      runDaemon(a);
      runDaemon(b);
      await until(async () => a.engine.collection('tallies') === v2 && b.engine.collection('tallies') === v2, 5000);
      // Past the grace period after which a switch drops the generation it retired.
      await new Promise((r) => setTimeout(r, 3500));
      for (const instance of [a, b]) {
        expect(await instance.readStore.find(instance.engine.collection('tallies'), { limit: 100 })).toEqual(before);
      }
      expect(await a.readStore.getMeta('projection:tallies')).toEqual({
        active: { version: 2, generation: 2 },
        building: null,
      });
    }, 15_000);
  });
});

describe('ProjectionEngine without inline access (production: API instances beside a worker)', () => {
  const silentLogger = { info: () => undefined, error: () => undefined };

  it('a write by an instance that has not noticed a switch made elsewhere reaches the generation that serves', async () => {
    const eventStore = new InMemoryEventStore();
    const readStore = new InMemoryReadStore();
    const engine = () => new ProjectionEngine(readStore, eventStore, [tally()], silentLogger);
    const write = async (writer: ProjectionEngine, stream: string, amount: number) => {
      const history = await eventStore.readStream(stream);
      const { events } = await eventStore.appendToStream(stream, [added(amount)]);
      // What the command runner does after each append of a command that read the whole stream.
      await writer.applyAfterAppend(history, events);
    };
    const api = engine();
    await api.start();
    await write(api, 's-1', 1);

    // Another process rebuilds and switches; this instance has not refreshed its generations since it started.
    const cli = engine();
    await cli.start();
    const rebuilding = cli.rebuild(['tallies']);
    const g2 = collectionName('tallies', { version: 1, generation: 2 });
    await until(async () => (await readStore.getMeta<{ active: { generation: number } }>('projection:tallies'))?.active.generation === 2, 8000);
    await write(api, 's-1', 2);

    // Any instance serving the new generation shows the write at once (no daemon runs here).
    const reader = engine();
    await reader.start();
    expect(reader.collection('tallies')).toBe(g2);
    expect((await readStore.get<TallyDoc>(g2, 's-1'))?.doc).toMatchObject({ total: 3, events: 2 });
    await rebuilding;
  }, 20_000);

  it('a write applies to the building generation too, so the generation about to serve never misses it', async () => {
    const eventStore = new InMemoryEventStore();
    const readStore = new InMemoryReadStore();
    const v1 = new ProjectionEngine(readStore, eventStore, [tally(1)], silentLogger);
    await v1.start();
    for (let i = 1; i <= 3; i++) {
      const { events } = await eventStore.appendToStream('s-1', [added(i)]);
      await v1.applyAfterAppend(null, events);
    }
    // An upgraded worker starts version 2 beside version 1 and catches it up; an upgraded API instance knows it.
    const worker = new ProjectionEngine(readStore, eventStore, [tally(2)], silentLogger);
    await worker.start();
    await worker.catchUp();
    const api = new ProjectionEngine(readStore, eventStore, [tally(2)], silentLogger);
    await api.start();
    const building = collectionName('tallies', { version: 2, generation: 2 });
    expect(api.collection('tallies')).toBe(collectionName('tallies', { version: 1, generation: 1 }));

    const history = await eventStore.readStream('s-1');
    const { events } = await eventStore.appendToStream('s-1', [added(10)]);
    await api.applyAfterAppend(history, events);
    expect((await readStore.get<TallyDoc>(building, 's-1'))?.doc).toMatchObject({ total: 16, events: 4 });
    expect((await readStore.get<TallyDoc>(api.collection('tallies'), 's-1'))?.doc).toMatchObject({ total: 16, events: 4 });
  });
});

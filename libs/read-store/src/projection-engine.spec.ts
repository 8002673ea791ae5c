import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../core/src/clock';
import { EventToAppend } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { loadConfig } from '../../platform/src/config';
import { createLogger } from '../../platform/src/logger';
import { openStores, Stores } from '../../platform/src/stores';
import { EventStore } from '../../event-store/src/event-store.port';
import { collectionName, ProjectionEngine } from './projection-engine';
import { SqliteEventStore } from '../../event-store/src/sqlite.event-store';
import { ReadStoreUsageError } from './collection-schema';
import { SqliteReadStore } from './sqlite.read-store';

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

/** An immutable projection: one document per `Added` event, keyed by the event. */
const notesProjection = (extra: Partial<Projection> = {}): Projection => ({
  name: 'notes',
  version: 1,
  handles: ['Added'],
  indexes: [],
  immutable: true,
  ids: (event) => [`${event.stream}|${event.revision}`],
  evolve: (existing, event, id) => existing ?? { id, amount: (event.data as { amount: number }).amount },
  ...extra,
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

    it('deletes a document when evolve returns null, and a replay does not bring it back', async () => {
      const stores = await open([tally()]);
      await stores.eventStore.appendToStream('s-1', [added(1), typed('Removed')]);
      expect(await doc(stores, 's-1')).toBeNull();
      await stores.readStore.setCheckpoint(stores.engine.collection('tallies'), 0n);
      await stores.engine.catchUp();
      expect(await doc(stores, 's-1')).toBeNull();
    });

    describe('a batch (write-behind)', () => {
      const inOneBatch = <T>(appends: (() => Promise<T>)[]) => Promise.allSettled(appends.map((append) => append()));
      const batches = (stores: Stores) => (stores.eventStore as SqliteEventStore).stats.batches;

      it('reads and writes each document once, however many of its appends touch it', async () => {
        const stores = await open([tally()]);
        const store = stores.readStore as SqliteReadStore;
        const collection = stores.engine.collection('tallies');
        const gets = jest.spyOn(store, 'getSync');
        const writes = jest.spyOn(store, 'writeManySync');
        const before = batches(stores);

        await inOneBatch([1, 2, 3, 4, 5].map((n) => () => stores.eventStore.appendToStream('s-1', [added(n)])));

        expect(batches(stores) - before).toBe(1);
        expect(gets.mock.calls.filter(([name]) => name === collection)).toEqual([[collection, 's-1']]);
        expect(writes).toHaveBeenCalledTimes(1);
        expect(writes.mock.calls[0][1]).toHaveLength(1);
        expect(await doc(stores, 's-1')).toEqual({ doc: { id: 's-1', total: 15, events: 5, seen: [1, 2, 3, 4, 5] }, revision: 4n });
      });

      it('writes the documents of an immutable projection without reading them; a replay changes nothing', async () => {
        const notes = notesProjection();
        const stores = await open([notes]);
        const collection = stores.engine.collection('notes');
        const gets = jest.spyOn(stores.readStore as SqliteReadStore, 'getSync');

        await inOneBatch([1, 2].map((n) => () => stores.eventStore.appendToStream(`s-${n}`, [added(n), added(n * 10)])));

        expect(gets.mock.calls.filter(([name]) => name === collection)).toEqual([]);
        const stored = await stores.readStore.find(collection, { limit: 10 });
        expect(stored).toEqual([
          { id: 's-1|0', amount: 1 },
          { id: 's-1|1', amount: 10 },
          { id: 's-2|0', amount: 2 },
          { id: 's-2|1', amount: 20 },
        ]);
        await stores.readStore.setCheckpoint(collection, 0n);
        await stores.engine.catchUp();
        expect(await stores.readStore.find(collection, { limit: 10 })).toEqual(stored);
      });

      it('a projection that throws rolls back its own append only; its batch-mates keep their documents', async () => {
        const stores = await open([tally()]);
        const before = batches(stores);

        const outcomes = await inOneBatch([
          () => stores.eventStore.appendToStream('s-1', [added(1)]),
          () => stores.eventStore.appendToStream('s-1', [added(5), typed('Exploded')]),
          () => stores.eventStore.appendToStream('s-1', [added(10)]),
        ]);

        expect(batches(stores) - before).toBe(1);
        expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(await doc(stores, 's-1')).toEqual({ doc: { id: 's-1', total: 11, events: 2, seen: [1, 10] }, revision: 1n });
      });

      it('a document the store refuses fails its append, not the batch', async () => {
        const picky: Projection = {
          name: 'picky',
          version: 1,
          handles: ['Added', 'Bad'],
          indexes: [],
          ids: (event) => [event.stream],
          evolve: (existing, event, id) => (event.type === 'Bad' ? { id: '' } : { id, n: ((existing?.n as number) ?? 0) + 1 }),
        };
        const stores = await open([picky]);

        const outcomes = await inOneBatch([
          () => stores.eventStore.appendToStream('s-1', [added(1)]),
          () => stores.eventStore.appendToStream('s-1', [typed('Bad')]),
          () => stores.eventStore.appendToStream('s-2', [added(1)]),
        ]);

        expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(ReadStoreUsageError);
        const collection = stores.engine.collection('picky');
        expect(await stores.readStore.find(collection, { limit: 10 })).toEqual([{ id: 's-1', n: 1 }, { id: 's-2', n: 1 }]);
      });

      it('a document created and deleted in one batch leaves a tombstone, so a replay does not bring it back', async () => {
        const stores = await open([tally()]);
        const collection = stores.engine.collection('tallies');

        await inOneBatch([() => stores.eventStore.appendToStream('s-1', [added(1)]), () => stores.eventStore.appendToStream('s-1', [typed('Removed')])]);

        expect(await doc(stores, 's-1')).toBeNull();
        expect(await stores.readStore.put(collection, { id: 's-1', total: 1, events: 1, seen: [1] }, 0n)).toBe(false);
      });
    });

    it('does not apply inline to a collection that lags the log; catch-up then applies everything in order', async () => {
      const server = await open([tally()]);
      // Another process without this projection appends: the server's collection now lags.
      const other = await open();
      await other.eventStore.appendToStream('s-1', [added(1)]);
      await server.eventStore.appendToStream('s-1', [added(10)]);
      // Applying revision 1 first would make the revision guard skip revision 0 for ever.
      expect(await doc(server, 's-1')).toBeNull();

      await server.engine.catchUp();
      expect(await doc(server, 's-1')).toEqual({ doc: { id: 's-1', total: 11, events: 2, seen: [1, 10] }, revision: 1n });
      // Caught up, the next append is applied inline again.
      await server.eventStore.appendToStream('s-1', [added(100)]);
      expect((await doc(server, 's-1'))?.doc.total).toBe(111);
    });
  });

  describe('write-back projections (embedded)', () => {
    const heldTally = () => ({ ...tally(), writeBack: true }) as Projection<TallyDoc>;
    const written = (stores: Stores) => stores.readStore as SqliteReadStore;
    /** What another process reads from the file: the table, not this process's memory. */
    async function fromFile(collection: string, id: string) {
      const other = await open();
      return { doc: await other.readStore.get<TallyDoc>(collection, id), checkpoint: await other.readStore.getCheckpoint(collection) };
    }

    it('applies inline to memory before the append answers; the file gets the documents and checkpoint when written back', async () => {
      const stores = await open([heldTally()]);
      const collection = stores.engine.collection('tallies');
      const result = await stores.eventStore.appendToStream('s-1', [added(2), added(3)]);

      expect(await doc(stores, 's-1')).toEqual({ doc: { id: 's-1', total: 5, events: 2, seen: [2, 3] }, revision: 1n });
      expect(await stores.readStore.find(collection, { filters: [{ field: 'total', op: 'gt', value: 4 }], limit: 10 })).toHaveLength(1);
      expect(await stores.readStore.getCheckpoint(collection)).toBe(result.position);
      expect(await fromFile(collection, 's-1')).toEqual({ doc: null, checkpoint: null });

      written(stores).flushWriteBackSync();
      expect(await fromFile(collection, 's-1')).toEqual({ doc: { doc: { id: 's-1', total: 5, events: 2, seen: [2, 3] }, revision: 1n }, checkpoint: result.position });
    });

    it('a batch that fails leaves nothing in memory', async () => {
      const stores = await open([heldTally()]);
      await stores.eventStore.appendToStream('s-1', [added(1)]);
      await expect(stores.eventStore.appendToStream('s-1', [added(5), typed('Exploded')])).rejects.toThrow('projection bug');
      expect((await doc(stores, 's-1'))?.doc).toEqual({ id: 's-1', total: 1, events: 1, seen: [1] });
    });

    it('a crash loses only what memory held: the next start replays from the written checkpoint, each event once', async () => {
      const crashed = await open([heldTally()]);
      await crashed.eventStore.appendToStream('s-1', [added(1), added(2)]);
      written(crashed).flushWriteBackSync();
      await crashed.eventStore.appendToStream('s-1', [added(10)]);
      await crashed.eventStore.appendToStream('s-2', [added(100)]);
      // Killed: what its memory held is never written.
      (crashed.readStore as unknown as { overlay: { written(): void } }).overlay.written();
      await crashed.close();
      opened.splice(opened.indexOf(crashed), 1);

      const restarted = await open([heldTally()]);
      expect((await doc(restarted, 's-1'))?.doc.total).toBe(3);
      await restarted.engine.catchUp();
      expect((await doc(restarted, 's-1'))?.doc).toEqual({ id: 's-1', total: 13, events: 3, seen: [1, 2, 10] });
      expect((await doc(restarted, 's-2'))?.doc.total).toBe(100);
      expect(await restarted.engine.caughtUp()).toBe(true);
    });

    it('the next inline batch first applies what other processes appended, so a process without the daemon stays current', async () => {
      const server = await open([heldTally()]);
      const other = await open();
      await server.eventStore.appendToStream('s-1', [added(1)]);
      await other.eventStore.appendToStream('s-1', [added(10)]);
      await server.eventStore.appendToStream('s-1', [added(100)]);

      expect((await doc(server, 's-1'))?.doc).toEqual({ id: 's-1', total: 111, events: 3, seen: [1, 10, 100] });
      expect(await server.engine.caughtUp()).toBe(true);
    });

    it('the daemon applies other processes\' appends to memory', async () => {
      const server = await open([heldTally()]);
      runDaemon(server);
      const other = await open();
      await other.eventStore.appendToStream('s-1', [added(4)]);
      await until(async () => (await doc(server, 's-1'))?.doc.total === 4);
      expect(await fromFile(server.engine.collection('tallies'), 's-1')).toEqual({ doc: null, checkpoint: null });
    });

    it('two processes applying the same events leave each document once in the file, whoever writes back first', async () => {
      const a = await open([heldTally()]);
      const b = await open([heldTally()]);
      for (let i = 1; i <= 4; i++) await (i % 2 ? a : b).eventStore.appendToStream('s-1', [added(i)]);
      await a.engine.catchUp();
      await b.engine.catchUp();
      written(b).flushWriteBackSync();
      written(a).flushWriteBackSync();
      const head = await a.eventStore.headPosition();
      expect(await fromFile(a.engine.collection('tallies'), 's-1')).toEqual({ doc: { doc: { id: 's-1', total: 10, events: 4, seen: [1, 2, 3, 4] }, revision: 3n }, checkpoint: head });
    });

    it('holds an immutable projection\'s documents append-only, applied inline or caught up; a replay writes nothing new', async () => {
      const notes = notesProjection({ writeBack: true });
      const server = await open([notes]);
      const other = await open();
      const collection = server.engine.collection('notes');
      const writeBacks = jest.spyOn(written(server), 'writeBackSync');
      await server.eventStore.appendToStream('s-2', [added(2), added(20)]);
      await other.eventStore.appendToStream('s-3', [added(3)]);
      await server.engine.catchUp();
      await server.eventStore.appendToStream('s-1', [added(1)]);

      expect(new Set(writeBacks.mock.calls.map(([name, , , appendOnly]) => name === collection && appendOnly))).toEqual(new Set([true]));
      const all = [
        { id: 's-1|0', amount: 1 },
        { id: 's-2|0', amount: 2 },
        { id: 's-2|1', amount: 20 },
        { id: 's-3|0', amount: 3 },
      ];
      expect(await server.readStore.find(collection, { limit: 10 })).toEqual(all);
      expect(await server.readStore.get(collection, 's-2|1')).toEqual({ doc: { id: 's-2|1', amount: 20 }, revision: 1n });
      expect(await other.readStore.count(collection)).toBe(0);

      written(server).flushWriteBackSync();
      expect(await other.readStore.find(collection, { limit: 10 })).toEqual(all);
      expect(await other.readStore.getCheckpoint(collection)).toBe(await server.eventStore.headPosition());

      // Another process replays the whole log: the same documents again, written over nothing.
      const replayed = await open([notes]);
      await replayed.readStore.setCheckpoint(collection, 0n);
      await replayed.engine.catchUp();
      expect(await replayed.readStore.find(collection, { limit: 10 })).toEqual(all);
      written(replayed).flushWriteBackSync();
      expect(await other.readStore.find(collection, { limit: 10 })).toEqual(all);
    });

    it('is written back on close, so a stopped server leaves a complete file', async () => {
      const first = await open([heldTally()]);
      for (let i = 1; i <= 5; i++) await first.eventStore.appendToStream(`s-${i % 2}`, [added(i)]);
      const collection = first.engine.collection('tallies');
      const head = await first.eventStore.headPosition();
      await first.close();
      opened.splice(opened.indexOf(first), 1);

      expect(await fromFile(collection, 's-1')).toEqual({ doc: { doc: { id: 's-1', total: 9, events: 3, seen: [1, 3, 5] }, revision: 2n }, checkpoint: head });
    });

    it('written back in the group commits that follow, without a transaction of its own', async () => {
      const stores = await open([heldTally()]);
      const collection = stores.engine.collection('tallies');
      await stores.eventStore.appendToStream('s-1', [added(1)]);
      (stores.readStore as unknown as { overlay: { startDrain(): void } }).overlay.startDrain();
      const before = (stores.eventStore as SqliteEventStore).stats.batches;
      const last = await stores.eventStore.appendToStream('s-2', [added(2)]);

      expect((stores.eventStore as SqliteEventStore).stats.batches - before).toBe(1);
      expect((await fromFile(collection, 's-1')).doc?.doc.total).toBe(1);
      // Applied after the drain started: held until the next one.
      expect((await fromFile(collection, 's-2')).doc).toBeNull();
      expect((await fromFile(collection, 's-1')).checkpoint).toBe(last.position - 1n);
    });

    it('a rebuild writes back first and switches to identical documents', async () => {
      const stores = await open([heldTally()]);
      for (let i = 1; i <= 12; i++) await stores.eventStore.appendToStream(`s-${i % 3}`, [added(i)]);
      const before = await stores.readStore.find(stores.engine.collection('tallies'), { limit: 100 });
      await stores.engine.rebuild(['tallies']);
      expect(stores.engine.collection('tallies')).toBe(collectionName('tallies', { version: 1, generation: 2 }));
      expect(await stores.readStore.find(stores.engine.collection('tallies'), { limit: 100 })).toEqual(before);
      await stores.eventStore.appendToStream('s-1', [added(1000)]);
      expect((await doc(stores, 's-1'))?.doc.total).toBe(before.find((d) => d.id === 's-1')!.total as number + 1000);
    }, 15_000);
  });

  describe('listeners', () => {
    const positions = (seen: { position: bigint }[]) => seen.map((event) => Number(event.position));

    it('get this process\'s appends once their batch has committed, without the daemon, failed appends left out', async () => {
      const stores = await open([tally()]);
      const seen: { position: bigint; type: string }[] = [];
      let committedWhenSeen: number | null = null;
      stores.engine.onEvent((event) => {
        seen.push(event);
        committedWhenSeen ??= (stores.db!.prepare('SELECT count(*) FROM events').pluck().get() as number);
      });

      await Promise.all([
        stores.eventStore.appendToStream('s-1', [added(1), added(2)]),
        stores.eventStore.appendToStream('s-2', [added(3), typed('Exploded')]).catch(() => undefined),
        stores.eventStore.appendToStream('s-3', [typed('Unhandled')]),
      ]);

      expect(positions(seen)).toEqual([1, 2, 3]);
      expect(seen.map((event) => event.type)).toEqual(['Added', 'Added', 'Unhandled']);
      expect(committedWhenSeen).toBe(3);
    });

    it('get another process\'s events from the log first, in order, each once, when it appended in between', async () => {
      const server = await open([tally()]);
      const seen: { position: bigint }[] = [];
      server.engine.onEvent((event) => seen.push(event));
      await server.eventStore.appendToStream('s-1', [added(1)]);
      const other = await open();
      await other.eventStore.appendToStream('s-2', [added(2)]);

      // The server's next batch follows an event its listeners have not seen: it leaves them to the daemon.
      await server.eventStore.appendToStream('s-1', [added(3)]);
      expect(positions(seen)).toEqual([1]);

      await server.engine.catchUp();
      expect(positions(seen)).toEqual([1, 2, 3]);
      await server.eventStore.appendToStream('s-1', [added(4)]);
      await server.engine.catchUp();
      expect(positions(seen)).toEqual([1, 2, 3, 4]);
    });
  });

  describe('daemon', () => {
    it('applies events another store instance appended to the same file, within 2 s', async () => {
      const server = await open([tally()]);
      runDaemon(server);
      const other = await open();
      await other.eventStore.appendToStream('s-1', [added(4)]);
      await other.eventStore.appendToStream('s-2', [added(6), added(1)]);
      const waited = await until(async () => (await doc(server, 's-2'))?.doc.total === 7);
      expect(waited).toBeLessThan(2000);
      expect((await doc(server, 's-1'))?.doc.total).toBe(4);
      expect(await server.engine.caughtUp()).toBe(true);
    });

    it('is woken by a batch that left it something (a lagging collection, events listeners missed), not by one inline covered', async () => {
      const stores = await open([tally()]);
      const seen: bigint[] = [];
      stores.engine.onEvent((event) => seen.push(event.position));
      const abort = new AbortController();
      aborts.push(abort);
      // An idle poll of a minute: anything it does within this test, a wake made it do.
      void stores.engine.run(abort.signal, 60_000);
      await new Promise((r) => setTimeout(r, 50));
      const catchUp = jest.spyOn(stores.engine, 'catchUp');

      for (let i = 1; i <= 3; i++) await stores.eventStore.appendToStream('s-1', [added(i)]);
      await new Promise((r) => setTimeout(r, 50));
      expect(catchUp).not.toHaveBeenCalled();
      expect(seen).toEqual([1n, 2n, 3n]);

      // The collection lags (as after a crash before its documents were written): the next batch leaves it out.
      const collection = stores.engine.collection('tallies');
      await stores.readStore.setCheckpoint(collection, 1n);
      await stores.eventStore.appendToStream('s-1', [added(4)]);
      await until(async () => (await doc(stores, 's-1'))?.doc.total === 10, 1000);
      expect(catchUp).toHaveBeenCalled();
      expect(await stores.readStore.getCheckpoint(collection)).toBe(4n);
      catchUp.mockClear();

      // Another process appends and applies it inline too: this process's next batch covers every collection
      // but follows an event its listeners have not seen.
      const other = await open([tally()]);
      await other.eventStore.appendToStream('s-2', [added(5)]);
      await stores.eventStore.appendToStream('s-1', [added(6)]);
      await until(async () => seen.length === 6, 1000);
      expect(catchUp).toHaveBeenCalled();
      expect(seen).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
    });

    it('a full replay from position 0 is a no-op', async () => {
      const stores = await open([tally()]);
      for (let i = 1; i <= 5; i++) await stores.eventStore.appendToStream(`s-${i % 2}`, [added(i)]);
      const collection = stores.engine.collection('tallies');
      const before = await stores.readStore.find(collection, { limit: 100 });
      await stores.readStore.setCheckpoint(collection, 0n);
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
      await until(async () => server.engine.collection('tallies') === collectionName('tallies', { version: 1, generation: 2 }), 3000);
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
      const cliEngine = new ProjectionEngine(cli.readStore, paced, [tally()], { info: () => undefined, warn: () => undefined, error: () => undefined }, cli.readStore as SqliteReadStore);
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
        retired: [{ version: 1, generation: 1 }],
      });
    }, 20_000);

    it('an instance without the daemon follows a switch made elsewhere before the old generation is dropped', async () => {
      const api = await open([tally()]);
      const abort = new AbortController();
      aborts.push(abort);
      void api.engine.followGenerations(abort.signal, 50);
      await api.eventStore.appendToStream('s-1', [added(3)]);
      const cli = await open([tally()]);
      await cli.engine.rebuild(['tallies']);
      expect(api.engine.collection('tallies')).toBe(collectionName('tallies', { version: 1, generation: 2 }));
      expect((await doc(api, 's-1'))?.doc.total).toBe(3);
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
      await until(async () => upgraded.engine.collection('tallies') === collectionName('tallies', { version: 2, generation: 2 }));
      expect((await doc(upgraded, 's-1'))?.doc).toEqual({ id: 's-1', total: 15, events: 5, seen: [1, 2, 3, 4, 5], shape: 'v2' });
      expect((await upgraded.engine.status())[0]).toMatchObject({ version: 2, lag: 0, building: null });
    });

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
      await until(async () => a.engine.collection('tallies') === v2 && b.engine.collection('tallies') === v2);
      // Past the grace period after which a switch drops the generation it retired.
      await new Promise((r) => setTimeout(r, 3500));
      for (const instance of [a, b]) {
        expect(await instance.readStore.find(instance.engine.collection('tallies'), { limit: 100 })).toEqual(before);
      }
      expect(await a.readStore.getMeta('projection:tallies')).toEqual({
        active: { version: 2, generation: 2 },
        building: null,
        retired: [{ version: 1, generation: 1 }],
      });
    }, 15_000);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcurrencyError, StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { openSqliteDatabase, SqliteDatabase } from '../../core/src/sqlite-database';
import { embeddedEventStoreContract, EventStoreFactory, eventStoreContract } from './event-store.contract';
import { SqliteEventStore, SqliteEventStoreOptions } from './sqlite.event-store';

function ping(n: number): EventToAppend {
  return {
    type: 'HeartbeatPingReceived',
    data: { n },
    metadata: { accountId: 'account-1', occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

/** A temp directory for one test; removed with everything in it. */
function tempDir(): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-event-store-'));
  return { file: join(dir, 'vigil.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A store on a fresh temp file, with the given options. */
const storeFactory =
  (options: SqliteEventStoreOptions = {}): EventStoreFactory =>
  async () => {
    const { file, remove } = tempDir();
    const db = openSqliteDatabase(file);
    const store = new SqliteEventStore(db, options);
    return {
      store,
      cleanup: async () => {
        await store.close();
        db.close();
        remove();
      },
    };
  };

const freshStore = storeFactory();
/** The same contract with the stream index taking in the tail at every commit (and idle, every 50 ms). */
const indexingStore = storeFactory({ indexIntervalMs: 0, indexSliceEvents: 3 });

eventStoreContract('SQLite', freshStore);
embeddedEventStoreContract('SQLite', freshStore);
eventStoreContract('SQLite, stream index at every commit', indexingStore);
embeddedEventStoreContract('SQLite, stream index at every commit', indexingStore);

/** Every append of the batch was turned away because the batch could not commit. */
function expectBatchFailed(outcomes: PromiseSettledResult<unknown>[]): void {
  for (const outcome of outcomes) {
    expect(outcome.status).toBe('rejected');
    expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
  }
}

describe('SQLite event store', () => {
  let dir: ReturnType<typeof tempDir>;
  const opened: { db: SqliteDatabase; store: SqliteEventStore }[] = [];

  /** Another SqliteEventStore on the same file, with its own connection: a second process, as far as SQLite knows. */
  const open = (
    options?: (db: SqliteDatabase) => SqliteEventStoreOptions,
  ): { db: SqliteDatabase; store: SqliteEventStore } => {
    const db = openSqliteDatabase(dir.file);
    const store = new SqliteEventStore(db, options?.(db));
    opened.push({ db, store });
    return { db, store };
  };

  beforeEach(() => {
    dir = tempDir();
  });

  afterEach(async () => {
    for (const { db, store } of opened.splice(0)) {
      await store.close();
      if (db.open) db.close();
    }
    dir.remove();
  });

  describe('group commit', () => {
    it('commits appends issued in the same tick in one transaction', async () => {
      const { store } = open();

      const results = await Promise.all(
        Array.from({ length: 200 }, (_, n) => store.appendToStream(`heartbeat-${n}`, [ping(n)])),
      );

      expect(results).toHaveLength(200);
      expect(store.stats).toEqual({ batches: 1, appends: 200 });
    });

    it('caps a batch at 2000 appends and keeps flushing', async () => {
      const { store } = open();

      await Promise.all(Array.from({ length: 5000 }, (_, n) => store.appendToStream(`heartbeat-${n % 10}`, [ping(n)])));

      expect(store.stats).toEqual({ batches: 3, appends: 5000 });
      expect(await store.headPosition()).toBe(5000n);
    });

    it('answers each caller only once its batch is visible to other connections', async () => {
      const { store } = open();
      const { store: observer } = open();

      const seenOnAnswer = await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          store.appendToStream(`heartbeat-${n}`, [ping(n)]).then(() => observer.headPosition()),
        ),
      );

      expect(seenOnAnswer).toEqual(Array.from({ length: 50 }, () => 50n));
    });

    it('rejects only the conflicting append of a batch', async () => {
      const { store } = open();
      await store.appendToStream('check-1', [ping(0)]);

      const outcomes = await Promise.allSettled([
        store.appendToStream('check-1', [ping(1)], { expectedRevision: 0n }),
        store.appendToStream('check-1', [ping(2)], { expectedRevision: 0n }),
        store.appendToStream('check-2', [ping(3)], { expectedRevision: 'no_stream' }),
      ]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
      expect(store.stats).toEqual({ batches: 2, appends: 3 });
      expect((await store.readAll()).map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 3 }]);
    });

    it('holds batches back while paused and commits what queued as one batch on release', async () => {
      const { store } = open();
      const { store: observer } = open();
      const release = store.pauseWrites();
      let answered = 0;

      const appends = Array.from({ length: 30 }, (_, n) => store.appendToStream(`heartbeat-${n}`, [ping(n)]).then(() => (answered += 1)));
      await new Promise((resolve) => setTimeout(resolve, 20));

      expect(answered).toBe(0);
      expect(await observer.headPosition()).toBeNull();
      release();
      release(); // a second call changes nothing
      await Promise.all(appends);
      expect(store.stats).toEqual({ batches: 1, appends: 30 });
      expect(await observer.headPosition()).toBe(30n);
    });

    it('waits for every pause to be released', async () => {
      const { store } = open();
      const first = store.pauseWrites();
      const second = store.pauseWrites();
      const append = store.appendToStream('a', [ping(1)]);

      first();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(store.stats.batches).toBe(0);
      second();
      expect((await append).nextRevision).toBe(0n);
    });

    it('runs a transaction through every batch hook on request, with no append queued, after any pause', async () => {
      const calls: string[] = [];
      const { store } = open(() => ({
        onBatchStart: (head) => calls.push(`start ${head}`),
        onBatchEnd: (head) => calls.push(`end ${head}`),
        onBatchCommitted: () => calls.push('committed'),
      }));
      await store.appendToStream('a', [ping(1)]);
      calls.length = 0;
      const release = store.pauseWrites();

      store.requestBatch();
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toEqual([]);
      release();
      await new Promise((resolve) => setImmediate(resolve));

      expect(calls).toEqual(['start 1', 'end 1', 'committed']);
      // Only transactions that carry appends count as batches.
      expect(store.stats).toEqual({ batches: 1, appends: 1 });
    });

    it('commits what is queued when closed while paused', async () => {
      const before = open();
      before.store.pauseWrites();
      const pending = before.store.appendToStream('incident-1', [ping(1)]);

      await before.store.close();

      expect((await pending).nextRevision).toBe(0n);
    });

    it('rejects the whole batch with StoreUnavailableError when it cannot commit', async () => {
      const { db, store } = open();
      db.pragma('busy_timeout = 20');
      const { db: other } = open();
      other.exec('BEGIN IMMEDIATE');

      const outcomes = await Promise.allSettled([
        store.appendToStream('a', [ping(1)]),
        store.appendToStream('b', [ping(2)]),
      ]);

      expectBatchFailed(outcomes);
      other.exec('ROLLBACK');
      expect(await store.readAll()).toEqual([]);
      expect((await store.appendToStream('a', [ping(1)])).nextRevision).toBe(0n);
    });
  });

  describe('onAppendInTransaction', () => {
    it('runs inside the transaction with the recorded events', async () => {
      const calls: { inTransaction: boolean; events: RecordedEvent[] }[] = [];
      const { store } = open((db) => ({
        onAppendInTransaction: (events) => calls.push({ inTransaction: db.inTransaction, events }),
      }));

      const result = await store.appendToStream('check-1', [ping(1), ping(2)]);

      expect(calls).toEqual([{ inTransaction: true, events: result.events }]);
      expect(result.events.map((event) => [event.revision, event.position])).toEqual([
        [0n, 1n],
        [1n, 2n],
      ]);
    });

    it('takes back the append whose hook throws, all its events, and commits the rest of the batch', async () => {
      const poison = new Error('projection failed');
      const seen: string[] = [];
      const { store } = open(() => ({
        onAppendInTransaction: (events) => {
          seen.push(events[0].stream);
          if (events[0].stream === 'poison' && seen.filter((stream) => stream === 'poison').length === 1) throw poison;
        },
      }));

      const outcomes = await Promise.allSettled([
        store.appendToStream('check-1', [ping(1)]),
        store.appendToStream('poison', [ping(2), ping(3)]),
        store.appendToStream('check-2', [ping(4)]),
      ]);

      expect(seen).toEqual(['check-1', 'poison', 'check-2']);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBe(poison);
      expect(store.stats.batches).toBe(1);
      const stored = await store.readAll();
      expect(stored.map((event) => event.stream)).toEqual(['check-1', 'check-2']);
      // Its positions are given out again, as a rolled-back savepoint would.
      expect(stored.map((event) => event.position)).toEqual([1n, 2n]);
      expect(await store.streamRevision('poison')).toBeNull();
      // The stream starts afresh: nothing of the failed append counts.
      expect((await store.appendToStream('poison', [ping(5)], { expectedRevision: 'no_stream' })).nextRevision).toBe(0n);
    });

    it('takes back the rows of an append whose later event cannot be inserted', async () => {
      const { store } = open();
      const bad = { ...ping(2), type: null as unknown as string };

      const outcomes = await Promise.allSettled([
        store.appendToStream('check-1', [ping(1)]),
        store.appendToStream('broken', [ping(2), ping(3), bad]),
        store.appendToStream('check-2', [ping(4)]),
      ]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((await store.readAll()).map((event) => event.stream)).toEqual(['check-1', 'check-2']);
      expect(await store.readStream('broken')).toEqual([]);
      expect(await store.streamRevision('broken')).toBeNull();
    });

    it('fails the whole batch when a failed append cannot be taken back', async () => {
      const { db: setup } = open();
      setup.exec("CREATE TRIGGER keep_events BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'kept'); END");
      const { store } = open(() => ({
        onAppendInTransaction: (events) => {
          if (events[0].stream === 'poison') throw new Error('projection failed');
        },
      }));

      const outcomes = await Promise.allSettled([
        store.appendToStream('check-1', [ping(1)]),
        store.appendToStream('poison', [ping(2)]),
      ]);

      expectBatchFailed(outcomes);
      expect(await store.readAll()).toEqual([]);
    });

    it('refuses an append whose position would be beyond 2^53 − 1, takes its row back, and commits the rest', async () => {
      const { db, store } = open();
      await store.appendToStream('check-1', [ping(1)]);
      const max = BigInt(Number.MAX_SAFE_INTEGER);
      db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'").run(max - 1n);

      const outcomes = await Promise.allSettled([store.appendToStream('fits', [ping(2)]), store.appendToStream('too-far', [ping(3)])]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
      expect((await store.readStream('fits')).map((event) => event.position)).toEqual([max]);
      expect(await store.readStream('too-far')).toEqual([]);
      expect(await store.streamRevision('too-far')).toBeNull();
      expect((await store.readAll()).map((event) => event.stream)).toEqual(['check-1', 'fits']);
    });

    it('writes nothing of an append with an event that cannot be encoded', async () => {
      const { store } = open();
      const circular: Record<string, unknown> = {};
      circular.self = circular;

      const outcomes = await Promise.allSettled([
        store.appendToStream('broken', [ping(1), { ...ping(2), data: circular }]),
        store.appendToStream('check-1', [ping(3)]),
      ]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
      expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
      expect((await store.readAll()).map((event) => event.stream)).toEqual(['check-1']);
    });
  });

  describe('subscriptions', () => {
    it('are woken at once by appends through the same instance, without waiting for the poll', async () => {
      const { store } = open();
      const controller = new AbortController();
      const iterator = store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      const received = iterator.next().then(() => performance.now());
      await new Promise((resolve) => setTimeout(resolve, 20));

      const appendedAt = performance.now();
      await store.appendToStream('check-1', [ping(1)]);

      try {
        // The poll runs every 200 ms; a wake-up takes a tick or two.
        expect((await received) - appendedAt).toBeLessThan(100);
      } finally {
        controller.abort();
      }
    });
  });

  describe('several processes on one file', () => {
    it('each sees the appends of the other through its subscription', async () => {
      const first = open().store;
      const second = open().store;
      const controller = new AbortController();
      const fromFirst = first.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      const fromSecond = second.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
      const seenByFirst = fromFirst.next();
      const seenBySecond = fromSecond.next();

      await second.appendToStream('check-from-second', [ping(1)]);
      await first.appendToStream('check-from-first', [ping(2)]);

      try {
        expect((await seenByFirst).value).toMatchObject({ stream: 'check-from-second', position: 1n });
        expect((await seenBySecond).value).toMatchObject({ stream: 'check-from-second', position: 1n });
        expect((await fromSecond.next()).value).toMatchObject({ stream: 'check-from-first', position: 2n });
      } finally {
        controller.abort();
      }
    }, 5000);

    it('keeps revisions consistent when both append to the same stream', async () => {
      const first = open().store;
      const second = open().store;
      await first.appendToStream('check-1', [ping(1)]);

      const conflicting = second.appendToStream('check-1', [ping(2)], { expectedRevision: 'no_stream' });

      await expect(conflicting).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await second.appendToStream('check-1', [ping(3)], { expectedRevision: 0n })).nextRevision).toBe(1n);
    });
  });

  describe('stream revisions', () => {
    it('come from the events themselves: an append writes no streams row', async () => {
      const { db, store } = open();

      await store.appendToStream('heartbeat-1', [ping(1), ping(2)]);
      await store.appendToStream('heartbeat-1', [ping(3)], { expectedRevision: 1n });

      expect(db.prepare('SELECT count(*) FROM streams').pluck().get()).toBe(0);
      expect(await store.streamRevision('heartbeat-1')).toBe(2n);
    });

    it('stay right in a database whose streams table has a row for every stream (written before)', async () => {
      const { db, store } = open();
      await store.appendToStream('heartbeat-1', [ping(1), ping(2)]);
      // What earlier versions wrote on every append.
      db.prepare('INSERT INTO streams (stream, revision) VALUES (?, ?)').run('heartbeat-1', 1);

      await store.appendToStream('heartbeat-1', [ping(3)], { expectedRevision: 1n });
      expect(await store.streamRevision('heartbeat-1')).toBe(2n);

      await store.pruneStream('heartbeat-1', new Date('2026-02-01T00:00:00.000Z'));
      expect(await store.readStream('heartbeat-1')).toEqual([]);
      expect(await store.streamRevision('heartbeat-1')).toBe(2n);
      expect((await store.appendToStream('heartbeat-1', [ping(4)], { expectedRevision: 2n })).nextRevision).toBe(3n);
    });
  });

  describe('stream index', () => {
    /** Waits until the store's tail has gone into the index (its idle cycles run every 50 ms). */
    async function indexed(store: SqliteEventStore): Promise<void> {
      for (let i = 0; i < 200 && store.unindexedEvents > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(store.unindexedEvents).toBe(0);
    }
    const indexedThrough = (db: SqliteDatabase) => db.prepare('SELECT indexed_through FROM stream_index_state').pluck().get();
    const indexRows = (db: SqliteDatabase) => db.prepare('SELECT stream, revision, position FROM stream_index ORDER BY stream, revision').raw().all();

    it('an append writes the log only; the index takes the events in later, in slices, and reads see the same either way', async () => {
      const { db, store } = open(() => ({ indexIntervalMs: 0, indexSliceEvents: 2 }));
      for (let i = 0; i < 3; i++) await Promise.all(['a', 'b', 'c', 'd'].map((s) => store.appendToStream(`check-${s}`, [ping(i)])));
      const before = await store.readStream('check-b');
      expect(before.map((e) => e.revision)).toEqual([0n, 1n, 2n]);

      await indexed(store);

      expect(indexRows(db)).toHaveLength(12);
      expect(indexedThrough(db)).toBe(12);
      expect(await store.readStream('check-b')).toEqual(before);
      expect(await store.readStream('check-b', { fromRevision: 1n })).toEqual(before.slice(1));
      expect(await store.streamRevision('check-b')).toBe(2n);
      await expect(store.appendToStream('check-b', [ping(9)], { expectedRevision: 1n })).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await store.appendToStream('check-b', [ping(9)], { expectedRevision: 2n })).nextRevision).toBe(3n);
    });

    it('a slice of more events than one INSERT takes indexes every one of them, in statements of many rows and the rest one by one', async () => {
      const { db, store } = open(() => ({ indexIntervalMs: 0, indexSliceEvents: 75 }));
      // 5 streams × 15 events: one slice of 75 events, two INSERTs of 32 rows and 11 single rows.
      const streams = ['a', 'b', 'c', 'd', 'e'].map((s) => `check-${s}`);
      // One batch, so the first cycle finds all 75 in the tail.
      await Promise.all(streams.map((stream) => store.appendToStream(stream, Array.from({ length: 15 }, (_, i) => ping(i)))));
      const before = await Promise.all(streams.map((stream) => store.readStream(stream)));

      await indexed(store);

      const expected = db.prepare('SELECT stream, revision, position FROM events ORDER BY stream, revision').raw().all();
      expect(expected).toHaveLength(75);
      expect(indexRows(db)).toEqual(expected);
      expect(indexedThrough(db)).toBe(75);
      expect(await Promise.all(streams.map((stream) => store.readStream(stream)))).toEqual(before);
    });

    it('a read halfway through a cycle (part of a stream indexed, the rest in the tail) returns each event once', async () => {
      const { db, store } = open(() => ({ indexIntervalMs: 60_000 }));
      for (let i = 0; i < 4; i++) await store.appendToStream('check-1', [ping(i)]);
      // What a cycle of another process leaves halfway: two of the four events indexed, indexed_through unmoved.
      db.prepare("INSERT INTO stream_index (stream, revision, position) SELECT stream, revision, position FROM events WHERE revision < 2").run();

      const events = await store.readStream('check-1');

      expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n]);
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual([0, 1, 2, 3]);
    });

    it('another process sees this one\'s unindexed appends, indexes them itself, and both read and append right after', async () => {
      const first = open(() => ({ indexIntervalMs: 60_000 }));
      const second = open(() => ({ indexIntervalMs: 0 }));
      await first.store.appendToStream('check-1', [ping(1), ping(2)]);
      await first.store.appendToStream('check-2', [ping(3)]);

      expect(await second.store.readStream('check-1')).toHaveLength(2);
      await expect(second.store.appendToStream('check-1', [ping(4)], { expectedRevision: 0n })).rejects.toBeInstanceOf(ConcurrencyError);
      await second.store.appendToStream('check-1', [ping(4)], { expectedRevision: 1n });
      await indexed(second.store);
      expect(indexRows(first.db)).toHaveLength(4);

      // The first process still holds the events in its tail; the index now has them too.
      const read = await first.store.readStream('check-1');
      expect(read.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 4]);
      expect(first.store.unindexedEvents).toBe(0);
      expect((await first.store.appendToStream('check-1', [ping(5)], { expectedRevision: 2n })).position).toBe(5n);
      expect((await second.store.readStream('check-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n]);
    });

    it('pruning finds events in the index and in the tail, and drops their index rows', async () => {
      const { db, store } = open(() => ({ indexIntervalMs: 0 }));
      await store.appendToStream('heartbeat-1', [ping(1), ping(2)]);
      await indexed(store);
      await store.appendToStream('heartbeat-1', [ping(3)]);
      await store.appendToStream('heartbeat-2', [ping(4)]);

      expect(await store.pruneStream('heartbeat-1', new Date('2026-02-01T00:00:00.000Z'))).toBe(3);

      expect(await store.readStream('heartbeat-1')).toEqual([]);
      expect(await store.streamRevision('heartbeat-1')).toBe(2n);
      await indexed(store);
      expect(indexRows(db)).toEqual([['heartbeat-2', 0, 4]]);
      expect((await store.appendToStream('heartbeat-1', [ping(5)], { expectedRevision: 2n })).nextRevision).toBe(3n);
      expect(await store.readStream('heartbeat-2')).toHaveLength(1);
    });

    it('after a restart, the events the index had not taken in yet are read back into the tail', async () => {
      const before = open(() => ({ indexIntervalMs: 60_000 }));
      await before.store.appendToStream('check-1', [ping(1), ping(2)]);
      await before.store.close();
      before.db.close();

      const after = open(() => ({ indexIntervalMs: 60_000 }));

      expect(await after.store.readStream('check-1')).toHaveLength(2);
      expect(after.store.unindexedEvents).toBe(2);
      await expect(after.store.appendToStream('check-1', [ping(3)], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(ConcurrencyError);
    });

    it('moves a log written with a UNIQUE (stream, revision) index to the stream index, keeping positions and the position mark', async () => {
      const db = openSqliteDatabase(dir.file);
      db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, revision INTEGER NOT NULL,
                 type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision));
               CREATE TABLE streams (stream TEXT PRIMARY KEY, revision INTEGER NOT NULL);`);
      const insert = db.prepare("INSERT INTO events (stream, revision, type, data, metadata) VALUES (?, ?, 'HeartbeatPingReceived', '{\"n\":1}', '{}')");
      insert.run('check-1', 0);
      insert.run('check-2', 0);
      insert.run('check-1', 1);
      // The newest event was pruned: its position (3) is never given out again.
      db.exec('DELETE FROM events WHERE position = 3');
      db.close();

      const { db: migrated, store } = open();

      const table = migrated.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").pluck().get() as string;
      expect(table).not.toMatch(/UNIQUE/);
      expect(indexRows(migrated)).toEqual([['check-1', 0, 1], ['check-2', 0, 2]]);
      expect(indexedThrough(migrated)).toBe(2);
      expect(await store.readStream('check-1')).toHaveLength(1);
      expect(await store.streamRevision('check-1')).toBe(0n);
      const next = await store.appendToStream('check-1', [ping(2)], { expectedRevision: 0n });
      expect(next).toMatchObject({ nextRevision: 1n, position: 4n });
      // Opening it again changes nothing.
      await store.close();
      expect(open().store).toBeDefined();
      expect(indexRows(migrated)).toHaveLength(2);
    });
  });

  describe('durability', () => {
    it('keeps events and revisions after the file is closed and reopened', async () => {
      const before = open();
      const written = await before.store.appendToStream('incident-1', [ping(1), ping(2)]);
      await before.store.close();
      before.db.close();

      const after = open().store;

      expect(await after.readStream('incident-1')).toEqual(written.events);
      const next = await after.appendToStream('incident-1', [ping(3)], { expectedRevision: 1n });
      expect(next).toMatchObject({ nextRevision: 2n, position: 3n });
    });

    it('commits appends still queued when the store closes', async () => {
      const before = open();
      const pending = before.store.appendToStream('incident-1', [ping(1)]);
      await before.store.close();
      before.db.close();

      expect((await pending).nextRevision).toBe(0n);
      expect(await open().store.readStream('incident-1')).toHaveLength(1);
    });
  });
});

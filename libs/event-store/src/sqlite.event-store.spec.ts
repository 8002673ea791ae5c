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

const freshStore: EventStoreFactory = async () => {
  const { file, remove } = tempDir();
  const db = openSqliteDatabase(file);
  const store = new SqliteEventStore(db);
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      remove();
    },
  };
};

eventStoreContract('SQLite', freshStore);
embeddedEventStoreContract('SQLite', freshStore);

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

      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
      }
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

    it('rolls back the append whose hook throws, with its writes, and commits the rest of the batch', async () => {
      const poison = new Error('projection failed');
      const { db: setup } = open();
      setup.exec('CREATE TABLE projected (stream TEXT NOT NULL)');
      const { store } = open((db) => ({
        onAppendInTransaction: (events) => {
          db.prepare('INSERT INTO projected (stream) VALUES (?)').run(events[0].stream);
          if (events[0].stream === 'poison') throw poison;
        },
      }));

      const outcomes = await Promise.allSettled([
        store.appendToStream('check-1', [ping(1)]),
        store.appendToStream('poison', [ping(2)]),
        store.appendToStream('check-2', [ping(3)]),
      ]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBe(poison);
      expect(store.stats.batches).toBe(1);
      expect((await store.readAll()).map((event) => event.stream)).toEqual(['check-1', 'check-2']);
      expect(await store.streamRevision('poison')).toBeNull();
      const projected = setup.prepare('SELECT stream FROM projected ORDER BY rowid').pluck().all();
      expect(projected).toEqual(['check-1', 'check-2']);
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

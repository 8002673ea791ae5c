import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcurrencyError, StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { openSqliteDatabase, SqliteDatabase } from './sqlite-database';
import { embeddedEventStoreContract, EventStoreFactory, eventStoreContract } from '../../event-store/src/event-store.contract';
import { InlineProjections, SqliteEventStore, SqliteEventStoreOptions } from './sqlite.event-store';

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

eventStoreContract('SQLite', freshStore);
embeddedEventStoreContract('SQLite', freshStore);

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
  /** Events of each batch, as its inline hooks saw them. */
  let batches: RecordedEvent[][];
  const recordBatches: InlineProjections = {
    begin: () => void batches.push([]),
    apply: (events) => void batches[batches.length - 1].push(...events),
    end: () => undefined,
  };

  /** Another SqliteEventStore on the same file, with its own connection: a second process, as far as SQLite knows. */
  const open = (
    options?: (db: SqliteDatabase) => SqliteEventStoreOptions,
  ): { db: SqliteDatabase; store: SqliteEventStore } => {
    const db = openSqliteDatabase(dir.file);
    const store = new SqliteEventStore(db, { inline: recordBatches, deflate: (stream) => stream.startsWith('heartbeat-'), ...options?.(db) });
    opened.push({ db, store });
    return { db, store };
  };

  beforeEach(() => {
    dir = tempDir();
    batches = [];
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

      const results = await Promise.all(Array.from({ length: 200 }, (_, n) => store.appendToStream(`heartbeat-${n}`, [ping(n)])));

      expect(results).toHaveLength(200);
      expect(batches.map((events) => events.length)).toEqual([200]);
    });

    it('caps a batch at 2000 appends and keeps flushing', async () => {
      const { store } = open();

      await Promise.all(Array.from({ length: 5000 }, (_, n) => store.appendToStream(`heartbeat-${n % 10}`, [ping(n)])));

      expect(batches.map((events) => events.length)).toEqual([2000, 2000, 1000]);
      expect(await store.headPosition()).toBe(5000n);
    });

    it('answers each caller only once its batch is visible to other connections', async () => {
      const { store } = open();
      const { store: observer } = open();

      const seenOnAnswer = await Promise.all(
        Array.from({ length: 50 }, (_, n) => store.appendToStream(`heartbeat-${n}`, [ping(n)]).then(() => observer.headPosition())),
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
      expect((await store.readAll()).map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 3 }]);
    });

    it('answers a batch only after its fsync, and gathers the appends that arrive meanwhile into the next', async () => {
      let releaseSync: () => void = () => undefined;
      let hold = true;
      const { store } = open((db) => {
        // The real fsync, held until the test lets it finish.
        const durable = db.durable;
        db.durable = () => (hold ? new Promise<void>((resolve) => (releaseSync = () => void durable().then(resolve))) : durable());
        return {};
      });
      let answered = 0;
      const first = store.appendToStream('heartbeat-1', [ping(1)]).then(() => answered++);
      await new Promise((resolve) => setImmediate(resolve));
      const later = Array.from({ length: 5 }, (_, n) => store.appendToStream(`heartbeat-${n + 2}`, [ping(n + 2)]).then(() => answered++));
      await new Promise((resolve) => setTimeout(resolve, 20));

      expect(batches.map((events) => events.length)).toEqual([1]);
      expect(answered).toBe(0);
      releaseSync();
      await first;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(batches.map((events) => events.length)).toEqual([1, 5]);
      hold = false;
      releaseSync();
      await Promise.all(later);
      expect(answered).toBe(6);
    });

    it('rejects the whole batch with StoreUnavailableError when its fsync fails', async () => {
      const { store } = open((db) => {
        db.durable = () => Promise.reject(new Error('EIO'));
        return {};
      });

      expectBatchFailed(await Promise.allSettled([store.appendToStream('check-1', [ping(1)]), store.appendToStream('check-2', [ping(2)])]));
    });

    it('rejects the whole batch with StoreUnavailableError when it cannot commit', async () => {
      const { db, store } = open();
      await store.appendToStream('check-1', [ping(0)]);
      db.close();

      expectBatchFailed(await Promise.allSettled([store.appendToStream('check-1', [ping(1)]), store.appendToStream('check-2', [ping(2)])]));
    });
  });

  describe('inline projections', () => {
    it('run inside the transaction: begin with the head before, apply per append, end with the head after', async () => {
      const calls: string[] = [];
      const { store } = open((db) => ({
        inline: {
          begin: (head) => calls.push(`begin ${head} ${db.inTransaction}`),
          apply: (events) => calls.push(`apply ${events.map((e) => e.position).join(',')} ${db.inTransaction}`),
          end: (head) => calls.push(`end ${head}`),
        },
      }));

      await Promise.all([store.appendToStream('a', [ping(1), ping(2)]), store.appendToStream('b', [ping(3)])]);

      expect(calls).toEqual(['begin null true', 'apply 1,2 true', 'apply 3 true', 'end 3']);
    });

    it('take back the append whose hook throws, with what the hook wrote, and commit the rest of the batch', async () => {
      const { store } = open((db) => {
        db.exec('CREATE TABLE IF NOT EXISTS side (n INTEGER)');
        const insert = db.prepare('INSERT INTO side (n) VALUES (?)');
        return {
          inline: {
            begin: () => undefined,
            apply: (events) => {
              insert.run((events[0].data as { n: number }).n);
              if (events[0].stream === 'bad') throw new Error('projection failed');
            },
            end: () => undefined,
          },
        };
      });

      const outcomes = await Promise.allSettled([
        store.appendToStream('good-1', [ping(1)]),
        store.appendToStream('bad', [ping(2), ping(3)]),
        store.appendToStream('good-2', [ping(4)]),
      ]);

      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((await store.readAll()).map((e) => [e.stream, e.position])).toEqual([
        ['good-1', 1n],
        ['good-2', 2n],
      ]);
      expect(await store.streamRevision('bad')).toBeNull();
      expect(opened[0].db.prepare('SELECT n FROM side ORDER BY n').pluck().all()).toEqual([1, 4]);
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

    it('reads the log with the other store\'s appends between its own, as a store that appended nothing reads it', async () => {
      const first = open().store;
      const second = open().store;
      await first.appendToStream('heartbeat-a', [ping(1), ping(2)]);
      await second.appendToStream('heartbeat-b', [ping(3)]);
      await first.appendToStream('heartbeat-a', [ping(4)]);

      const read = await first.readAll();
      expect(read.map((e) => [e.stream, e.position, (e.data as { n: number }).n])).toEqual([
        ['heartbeat-a', 1n, 1],
        ['heartbeat-a', 2n, 2],
        ['heartbeat-b', 3n, 3],
        ['heartbeat-a', 4n, 4],
      ]);
      expect(read).toEqual(await open().store.readAll());
      expect(await first.readAll({ after: 3n })).toEqual([expect.objectContaining({ stream: 'heartbeat-a', position: 4n })]);
      expect(await first.readAll({ after: 1n, maxCount: 1 })).toEqual([expect.objectContaining({ position: 2n })]);
      expect(await first.readAll({ after: 4n })).toEqual([]);
    });

    it('keeps revisions consistent when both append to the same stream', async () => {
      const first = open().store;
      const second = open().store;
      await first.appendToStream('check-1', [ping(1)]);

      const conflicting = second.appendToStream('check-1', [ping(2)], { expectedRevision: 'no_stream' });

      await expect(conflicting).rejects.toBeInstanceOf(ConcurrencyError);
      expect((await second.appendToStream('check-1', [ping(3)], { expectedRevision: 0n })).nextRevision).toBe(1n);
    });
  });

  describe('storage', () => {
    it('reads a stream backwards from a revision, at most maxCount', async () => {
      const { store } = open();
      await store.appendToStream('s', [ping(0), ping(1), ping(2), ping(3)]);

      expect((await store.readStream('s', { direction: 'backwards', maxCount: 2 })).map((e) => e.revision)).toEqual([3n, 2n]);
      expect((await store.readStream('s', { direction: 'backwards', fromRevision: 1n })).map((e) => e.revision)).toEqual([1n, 0n]);
      expect((await store.readStream('s', { fromRevision: 1n, maxCount: 2 })).map((e) => e.revision)).toEqual([1n, 2n]);
    });

    it('prunes by occurredAt, keeping the revision and the log head', async () => {
      const { store } = open();
      const at = (minute: number): EventToAppend => ({ ...ping(minute), metadata: { accountId: null, occurredAt: `2026-01-01T00:0${minute}:00.000Z` } });
      await store.appendToStream('s', [at(0), at(1), at(2)]);

      expect(await store.pruneStream('s', new Date('2026-01-01T00:01:30.000Z'))).toBe(2);
      expect((await store.readStream('s')).map((e) => e.revision)).toEqual([2n]);
      expect(await store.streamRevision('s')).toBe(2n);
      expect(await store.pruneStream('s', new Date('2027-01-01T00:00:00.000Z'))).toBe(1);
      expect(await store.headPosition()).toBe(3n);
      expect((await store.appendToStream('s', [ping(9)], { expectedRevision: 2n })).position).toBe(4n);
    });

    it('writes no stream row on append: the revision comes from the newest event', async () => {
      const { db, store } = open();
      await store.appendToStream('s', [ping(0)]);
      await store.appendToStream('s', [ping(1), ping(2)], { expectedRevision: 0n });

      expect(db.prepare("SELECT revision FROM streams WHERE name = 's'").pluck().get()).toBe(-1);
      expect(await store.streamRevision('s')).toBe(2n);
      await expect(store.appendToStream('s', [ping(3)], { expectedRevision: 1n })).rejects.toThrow(ConcurrencyError);
    });

    it('sees the appends another connection made between its own: an append expecting the revision before them conflicts', async () => {
      const a = open();
      const b = open();
      await a.store.appendToStream('s', [ping(1)]);
      await b.store.appendToStream('s', [ping(2)], { expectedRevision: 0n });

      await expect(a.store.appendToStream('s', [ping(3)], { expectedRevision: 0n })).rejects.toThrow(ConcurrencyError);
      await a.store.appendToStream('s', [ping(4)], { expectedRevision: 1n });
      expect((await b.store.readStream('s')).map((event) => [event.revision, (event.data as { n: number }).n])).toEqual([[0n, 1], [1n, 2], [2n, 4]]);
    });

    it('keeps a ping under 150 bytes of event body', async () => {
      const { db, store } = open();
      const data = {
        eventId: '019abcde-f012-7345-8678-9abcdef01234',
        checkId: '019abcde-0000-7000-8000-000000000001',
        state: 'RECEIVED',
        at: '2026-11-25T12:00:00.000Z',
        source: null,
        userAgent: 'curl/8.5.0',
      };
      const metadata = { accountId: '019abcde-0000-7000-8000-0000000000aa', requestId: 'b2c4e5f6-1234-4abc-9def-0123456789ab', occurredAt: data.at };
      await store.appendToStream('heartbeat-1', [{ type: 'HeartbeatPingReceived', data, metadata }]);

      expect((db.prepare('SELECT length(body) FROM events').pluck().get() as number)).toBeLessThan(150);
      expect((await store.readStream('heartbeat-1'))[0]).toMatchObject({ type: 'HeartbeatPingReceived', data, metadata });
    });

    it('keeps a monitor run written without an actor under 35 bytes of body in a runs stream: its time is the at column', async () => {
      const { db, store } = open(() => ({ deflate: (stream: string) => stream.startsWith('monitor-') && 'runs' }));
      const actorless = { accountId: null, keyId: null, keyName: null, requestId: null, occurredAt: '2026-11-28T13:21:51.346Z' };
      const withActor = { ...actorless, accountId: 'acc', keyName: 'test' };
      await store.appendToStream('monitor-1', [
        { type: 'MonitorRunRecorded', data: { r: 'bench P mih3kq8x 427 3,0,1,,2' }, metadata: actorless },
        { type: 'MonitorUpdated', data: { id: '1' }, metadata: withActor },
      ]);

      const sizes = db.prepare('SELECT length(body) FROM events ORDER BY position').pluck().all() as number[];
      expect(sizes[0]).toBeLessThan(35);
      expect((await store.readStream('monitor-1')).map((e) => [e.type, e.data, e.metadata])).toEqual([
        ['MonitorRunRecorded', { r: 'bench P mih3kq8x 427 3,0,1,,2' }, actorless],
        ['MonitorUpdated', { id: '1' }, withActor],
      ]);
      expect((await store.readAll()).map((e) => e.metadata)).toEqual([actorless, withActor]);
    });

    it('deflates the bodies of the streams its deflate option names only, and reads both forms back', async () => {
      const { db, store } = open();
      const metadata = { accountId: 'a', occurredAt: '2026-11-25T12:00:00.000Z' };
      await store.appendToStream('heartbeat-1', [{ type: 'HeartbeatPingReceived', data: { n: 1 }, metadata }]);
      await store.appendToStream('incident-1', [{ type: 'IncidentCreated', data: { n: 2 }, metadata }]);
      // A deflated body in an incident stream, as every body was before: here a copy of the ping's.
      db.prepare("UPDATE events SET body = (SELECT body FROM events WHERE position = 1) WHERE position = 2").run();
      await store.appendToStream('incident-1', [{ type: 'IncidentUpdatePosted', data: { n: 3 }, metadata }]);

      expect(db.prepare('SELECT typeof(body) FROM events ORDER BY position').pluck().all()).toEqual(['blob', 'blob', 'text']);
      // Read by another store: the writer keeps its own appends as it decoded them, and the body was changed under it.
      expect((await open().store.readAll()).map((event) => [event.type, event.data])).toEqual([
        ['HeartbeatPingReceived', { n: 1 }],
        ['HeartbeatPingReceived', { n: 1 }],
        ['IncidentUpdatePosted', { n: 3 }],
      ]);
    });
  });

  describe('a log in the text-column format', () => {
    it('is moved over when first opened, keeping positions, revisions, pruned revisions and the position mark', async () => {
      const db = openSqliteDatabase(dir.file);
      db.exec(`
        CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL);
        CREATE TABLE stream_index (stream TEXT NOT NULL, revision INTEGER NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (stream, revision)) WITHOUT ROWID;
        CREATE TABLE streams (stream TEXT PRIMARY KEY, revision INTEGER NOT NULL);
      `);
      const insert = db.prepare('INSERT INTO events (position, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
      const meta = JSON.stringify({ accountId: 'a', occurredAt: '2026-01-01T00:00:00.000Z' });
      insert.run(1, 'a', 0, 'Added', '{"n":1}', meta);
      insert.run(2, 'b', 0, 'Added', '{"n":2}', meta);
      insert.run(4, 'a', 1, 'Added', '{"n":3}', meta);
      db.prepare("UPDATE sqlite_sequence SET seq = 9 WHERE name = 'events'").run();
      db.prepare("INSERT INTO streams (stream, revision) VALUES ('pruned', 6)").run();
      db.close();

      const { store } = open();

      expect((await store.readAll()).map((e) => [e.stream, e.revision, e.position, e.type, e.data])).toEqual([
        ['a', 0n, 1n, 'Added', { n: 1 }],
        ['b', 0n, 2n, 'Added', { n: 2 }],
        ['a', 1n, 4n, 'Added', { n: 3 }],
      ]);
      expect(await store.streamRevision('pruned')).toBe(6n);
      expect(await store.headPosition()).toBe(9n);
      expect((await store.appendToStream('a', [ping(4)], { expectedRevision: 1n })).position).toBe(10n);
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

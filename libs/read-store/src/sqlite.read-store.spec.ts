import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTERNAL_CHANGES_POLL_MS, openSqliteDatabase, SqliteDatabase } from '../../core/src/sqlite-database';
import { ReadStoreUsageError } from './collection-schema';
import { readStoreContract } from './read-store.contract';
import { ReadModelDoc } from '../../core/src/projection';
import { CollectionSpec, FindQuery, ReadStore } from './read-store.port';
import { SqliteReadStore, sqliteTableName } from './sqlite.read-store';

function tempDatabase(): { file: string; db: SqliteDatabase; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-read-store-'));
  const file = join(dir, 'vigil.db');
  const db = openSqliteDatabase(file);
  return {
    file,
    db,
    remove() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

readStoreContract('sqlite', async () => {
  const temp = tempDatabase();
  const store = new SqliteReadStore(temp.db);
  return {
    store,
    async cleanup() {
      await store.close();
      temp.remove();
    },
  };
});

/**
 * The same contract with the documents written through the write-back path (as the inline runner
 * writes heartbeat read models): now and then (every seventh write) they are flushed to the table,
 * the rest stay in memory, so reads merge both. Then again held append-only, as an immutable
 * projection's documents are: that mode too must answer right for documents that change.
 */
const writtenBack = (appendOnly: boolean) => async () => {
  const temp = tempDatabase();
  const sqlite = new SqliteReadStore(temp.db);
  const revisions = new Map<string, bigint>();
  let writes = 0;
  const writeBack = (collection: string, id: string, doc: ReadModelDoc | null, revision: bigint): boolean => {
    sqlite.checkWriteSync(collection, id, doc, revision);
    const key = `${collection}\u0000${id}`;
    const known = revisions.get(key) ?? sqlite.getSync(collection, id)?.revision;
    if (known !== undefined && known >= revision) return false;
    revisions.set(key, revision);
    // Held as a read would return it (JSON), like the documents evolve makes.
    sqlite.writeBackSync(collection, [{ id, revision, doc: doc && JSON.parse(JSON.stringify(doc)) }], null, appendOnly);
    if (++writes % 7 === 3) sqlite.flushWriteBackSync();
    return true;
  };
  const store: ReadStore = {
    ensureCollection: (spec) => sqlite.ensureCollection(spec),
    dropCollection: async (name) => {
      for (const key of revisions.keys()) if (key.startsWith(`${name}\u0000`)) revisions.delete(key);
      await sqlite.dropCollection(name);
    },
    get: (collection, id) => sqlite.get(collection, id),
    getMany: (collection, ids) => sqlite.getMany(collection, ids),
    find: (collection, query) => sqlite.find(collection, query),
    count: (collection, filters) => sqlite.count(collection, filters),
    put: async (collection, doc, revision) => {
      sqlite.checkWriteSync(collection, doc?.id, doc, revision);
      return writeBack(collection, doc.id, doc, revision);
    },
    delete: async (collection, id, revision) => writeBack(collection, id, null, revision),
    getCheckpoint: (name) => sqlite.getCheckpoint(name),
    setCheckpoint: (name, position) => sqlite.setCheckpoint(name, position),
    getMeta: (key) => sqlite.getMeta(key),
    setMeta: (key, value) => sqlite.setMeta(key, value),
    changeToken: (collections) => sqlite.changeToken(collections),
    close: () => sqlite.close(),
  };
  return {
    store,
    async cleanup() {
      await store.close();
      temp.remove();
    },
  };
};
readStoreContract('sqlite, written back', writtenBack(false));
readStoreContract('sqlite, written back append-only', writtenBack(true));

describe('SqliteReadStore', () => {
  const INCIDENTS: CollectionSpec = {
    name: 'incidents_v1_g1',
    indexes: [{ field: 'accountId' }, { field: 'status' }, { field: 'serviceIds', array: true }],
    sortField: 'created_at',
  };
  let temp: ReturnType<typeof tempDatabase>;
  let store: SqliteReadStore;

  beforeEach(() => {
    temp = tempDatabase();
    store = new SqliteReadStore(temp.db);
    store.ensureCollectionSync(INCIDENTS);
  });

  afterEach(() => temp.remove());

  describe('synchronous methods', () => {
    it('read and write without promises, as the inline projection runner needs', () => {
      expect(store.putSync(INCIDENTS.name, { id: 'inc-1', accountId: 'acc-a' }, 1n)).toBe(true);
      expect(store.putSync(INCIDENTS.name, { id: 'inc-1', accountId: 'stale' }, 1n)).toBe(false);
      expect(store.putSync(INCIDENTS.name, { id: 'inc-2', accountId: 'acc-a' }, 4n)).toBe(true);
      expect(store.getSync(INCIDENTS.name, 'inc-1')).toEqual({
        doc: { id: 'inc-1', accountId: 'acc-a' },
        revision: 1n,
      });
      expect(store.getManySync(INCIDENTS.name, ['inc-2', 'inc-1']).map((stored) => stored.revision)).toEqual([4n, 1n]);
      expect(store.deleteSync(INCIDENTS.name, 'inc-2', 5n)).toBe(true);
      expect(store.deleteSync(INCIDENTS.name, 'inc-2', 5n)).toBe(false);
      expect(store.getSync(INCIDENTS.name, 'inc-2')).toBeNull();
      expect(store.findSync(INCIDENTS.name, { limit: 10 })).toEqual([{ id: 'inc-1', accountId: 'acc-a' }]);
      expect(store.countSync(INCIDENTS.name)).toBe(1);

      expect(store.getCheckpointSync('incidents_v1_g1')).toBeNull();
      store.setCheckpointSync('incidents_v1_g1', 12n);
      expect(store.getCheckpointSync('incidents_v1_g1')).toBe(12n);
      expect(store.getMetaSync('projection:incidents')).toBeNull();
      store.setMetaSync('projection:incidents', { active: 1 });
      expect(store.getMetaSync('projection:incidents')).toEqual({ active: 1 });
    });

    it('roll back with the transaction they run in', () => {
      store.putSync(INCIDENTS.name, { id: 'inc-1', title: 'before' }, 1n);
      const append = temp.db.transaction(() => {
        store.putSync(INCIDENTS.name, { id: 'inc-1', title: 'after' }, 2n);
        store.putSync(INCIDENTS.name, { id: 'inc-2' }, 0n);
        store.setCheckpointSync('incidents_v1_g1', 9n);
        throw new Error('append failed');
      });
      expect(() => append()).toThrow('append failed');
      expect(store.getSync(INCIDENTS.name, 'inc-1')).toEqual({ doc: { id: 'inc-1', title: 'before' }, revision: 1n });
      expect(store.getSync(INCIDENTS.name, 'inc-2')).toBeNull();
      expect(store.getCheckpointSync('incidents_v1_g1')).toBeNull();
    });

    it('run a transaction of their own, nested as a savepoint inside an open one', () => {
      expect(store.transactionSync(() => store.putSync(INCIDENTS.name, { id: 'inc-1' }, 0n))).toBe(true);
      temp.db.transaction(() => {
        expect(() =>
          store.transactionSync(() => {
            store.putSync(INCIDENTS.name, { id: 'inc-2' }, 0n);
            throw new Error('inner failed');
          }),
        ).toThrow('inner failed');
        store.putSync(INCIDENTS.name, { id: 'inc-3' }, 0n);
      })();
      expect(store.findSync(INCIDENTS.name, { limit: 10 }).map((doc) => doc.id)).toEqual(['inc-1', 'inc-3']);
    });
  });

  describe('change tokens', () => {
    it('notices a commit by another process within the poll interval, and only then', async () => {
      await store.ensureCollection(INCIDENTS);
      const before = store.changeToken([INCIDENTS.name]);
      await new Promise((resolve) => setTimeout(resolve, EXTERNAL_CHANGES_POLL_MS + 20));
      expect(store.changeToken([INCIDENTS.name])).toBe(before);

      // Another connection to the same file stands for the CLI or a second instance.
      const other = openSqliteDatabase(temp.file);
      try {
        await new SqliteReadStore(other).put(INCIDENTS.name, { id: 'inc-9', accountId: 'a' }, 1n);
      } finally {
        other.close();
      }
      await new Promise((resolve) => setTimeout(resolve, EXTERNAL_CHANGES_POLL_MS + 20));
      const after = store.changeToken([INCIDENTS.name]);
      expect(after).not.toBe(before);
      expect(store.changeToken([INCIDENTS.name])).toBe(after);
    });

    it('changes with the inline batch\'s writes', async () => {
      await store.ensureCollection(INCIDENTS);
      const before = store.changeToken([INCIDENTS.name]);
      store.writeManySync(INCIDENTS.name, [store.prepareWriteSync(INCIDENTS.name, 'inc-1', { id: 'inc-1', accountId: 'a' }, 1n)]);
      expect(store.changeToken([INCIDENTS.name])).not.toBe(before);
    });
  });

  describe('write-back', () => {
    const held = (id: string, revision: bigint, fields: Record<string, unknown> = {}) => ({ id, revision, doc: { id, accountId: 'acc-a', ...fields } });
    const connections: SqliteDatabase[] = [];
    /** Another connection to the file, as another process has. */
    const otherStore = () => {
      const db = openSqliteDatabase(temp.file);
      connections.push(db);
      return new SqliteReadStore(db);
    };
    afterEach(() => {
      for (const db of connections.splice(0)) db.close();
    });

    it('holds documents in memory for every read of this store; other connections see them, with the checkpoint, once written', () => {
      store.putSync(INCIDENTS.name, { id: 'inc-1', accountId: 'acc-a', status: 'old' }, 1n);
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 2n, { status: 'new' }), held('inc-2', 0n), { id: 'inc-3', revision: 0n, json: '{"id":"inc-3","accountId":"acc-b"}' }], 40n);
      const other = otherStore();

      expect(store.getSync(INCIDENTS.name, 'inc-1')).toEqual({ doc: { id: 'inc-1', accountId: 'acc-a', status: 'new' }, revision: 2n });
      expect(store.getManySync(INCIDENTS.name, ['inc-3', 'inc-1']).map((stored) => stored.revision)).toEqual([0n, 2n]);
      const accountA = [{ field: 'accountId', op: 'eq' as const, value: 'acc-a' }];
      expect(store.findSync(INCIDENTS.name, { filters: accountA, limit: 10 }).map((doc) => [doc.id, doc.status])).toEqual([
        ['inc-1', 'new'],
        ['inc-2', undefined],
      ]);
      expect(store.countSync(INCIDENTS.name, accountA)).toBe(2);
      expect(store.getCheckpointSync(INCIDENTS.name)).toBe(40n);
      expect(other.getSync(INCIDENTS.name, 'inc-1')?.revision).toBe(1n);
      expect(other.getCheckpointSync(INCIDENTS.name)).toBeNull();

      store.flushWriteBackSync();
      expect(other.getSync(INCIDENTS.name, 'inc-1')).toEqual({ doc: { id: 'inc-1', accountId: 'acc-a', status: 'new' }, revision: 2n });
      expect(other.countSync(INCIDENTS.name)).toBe(3);
      expect(other.getCheckpointSync(INCIDENTS.name)).toBe(40n);
    });

    it('hands out copies of what it holds', () => {
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 0n, { tags: ['a'] })], null);
      (store.getSync(INCIDENTS.name, 'inc-1')!.doc.tags as string[]).push('b');
      (store.findSync(INCIDENTS.name, { limit: 1 })[0].tags as string[]).push('c');
      expect(store.getSync(INCIDENTS.name, 'inc-1')!.doc.tags).toEqual(['a']);
      (store.getManySync(INCIDENTS.name, ['inc-1', 'inc-9'])[0].doc.tags as string[]).push('d');
      expect(store.getSync(INCIDENTS.name, 'inc-1')!.doc.tags).toEqual(['a']);
    });

    it('holds deletes as tombstones that hide the stored document', () => {
      store.putSync(INCIDENTS.name, { id: 'inc-1', accountId: 'acc-a' }, 1n);
      store.writeBackSync(INCIDENTS.name, [{ id: 'inc-1', revision: 2n, doc: null }], null);
      expect(store.getSync(INCIDENTS.name, 'inc-1')).toBeNull();
      expect(store.findSync(INCIDENTS.name, { limit: 10 })).toEqual([]);
      expect(store.countSync(INCIDENTS.name)).toBe(0);
      store.flushWriteBackSync();
      expect(store.putSync(INCIDENTS.name, { id: 'inc-1' }, 1n)).toBe(false);
    });

    it('never moves a stored checkpoint back: each process writes what its own documents are complete up to', () => {
      const other = otherStore();
      other.setCheckpointSync(INCIDENTS.name, 90n);
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 0n)], 50n);
      store.flushWriteBackSync();
      expect(other.getCheckpointSync(INCIDENTS.name)).toBe(90n);
      expect(store.getCheckpointSync(INCIDENTS.name)).toBe(90n);
    });

    it('writes what it holds before a direct write of the collection, and refuses one inside a transaction', () => {
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 5n, { status: 'held' })], 10n);
      expect(() => store.transactionSync(() => store.putSync(INCIDENTS.name, { id: 'inc-1' }, 9n))).toThrow(ReadStoreUsageError);

      expect(store.putSync(INCIDENTS.name, { id: 'inc-1', status: 'stale' }, 4n)).toBe(false);
      expect(store.getSync(INCIDENTS.name, 'inc-1')?.doc.status).toBe('held');
      store.setCheckpointSync(INCIDENTS.name, 0n);
      expect(store.getCheckpointSync(INCIDENTS.name)).toBe(0n);
    });

    it('writes a drain slice inside the caller\'s transaction, which keeps it until that commits', () => {
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 0n), held('inc-2', 0n)], 7n);
      (store as unknown as { overlay: { startDrain(): void } }).overlay.startDrain();
      expect(() => store.transactionSync(() => {
        store.writeBackStepSync();
        throw new Error('batch failed');
      })).toThrow('batch failed');
      const other = otherStore();
      expect(other.countSync(INCIDENTS.name)).toBe(0);

      store.transactionSync(() => store.writeBackStepSync());
      store.writeBackStepCommitted();
      expect(other.countSync(INCIDENTS.name)).toBe(2);
      expect(other.getCheckpointSync(INCIDENTS.name)).toBe(7n);
      expect(store.getCheckpointSync(INCIDENTS.name)).toBe(7n);
    });

    it('holds documents of new ids append-only for every read of this store, until a drain writes them to the table', () => {
      const event = (id: string, accountId: string) => ({ id, revision: 0n, json: JSON.stringify({ id, accountId }) });
      store.putSync(INCIDENTS.name, { id: 'inc-0', accountId: 'acc-a' }, 0n);
      store.writeBackSync(INCIDENTS.name, [event('inc-2', 'acc-a'), event('inc-1', 'acc-b')], 20n, true);
      // inc-2 again: an event applied twice.
      store.writeBackSync(INCIDENTS.name, [event('inc-3', 'acc-a'), event('inc-2', 'acc-a')], 30n, true);
      const other = otherStore();
      const accountA = [{ field: 'accountId', op: 'eq' as const, value: 'acc-a' }];
      const reads = () => ({
        one: store.getSync(INCIDENTS.name, 'inc-1'),
        many: store.getManySync(INCIDENTS.name, ['inc-3', 'inc-0', 'inc-2']).map((stored) => stored.doc.id),
        found: store.findSync(INCIDENTS.name, { filters: accountA, limit: 10 }).map((doc) => doc.id),
        counted: [store.countSync(INCIDENTS.name), store.countSync(INCIDENTS.name, accountA)],
      });
      const held = reads();

      expect(held).toEqual({
        one: { doc: { id: 'inc-1', accountId: 'acc-b' }, revision: 0n },
        many: ['inc-3', 'inc-0', 'inc-2'],
        found: ['inc-0', 'inc-2', 'inc-3'],
        counted: [4, 3],
      });
      expect(other.countSync(INCIDENTS.name)).toBe(1);

      (store as unknown as { overlay: { startDrain(): void } }).overlay.startDrain();
      store.transactionSync(() => store.writeBackStepSync());
      store.writeBackStepCommitted();
      expect((store as unknown as { overlay: { empty: boolean } }).overlay.empty).toBe(true);
      expect(reads()).toEqual(held);
      expect(other.countSync(INCIDENTS.name)).toBe(4);
      expect(other.getCheckpointSync(INCIDENTS.name)).toBe(30n);
    });

    it('forgets what it holds for a dropped collection', () => {
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 0n)], 3n);
      store.dropCollectionSync(INCIDENTS.name);
      store.ensureCollectionSync(INCIDENTS);
      expect(store.getSync(INCIDENTS.name, 'inc-1')).toBeNull();
      expect(store.getCheckpointSync(INCIDENTS.name)).toBeNull();
    });

    it('is written on close', async () => {
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 0n)], 3n);
      await store.close();
      const other = otherStore();
      expect(other.getSync(INCIDENTS.name, 'inc-1')?.revision).toBe(0n);
      expect(other.getCheckpointSync(INCIDENTS.name)).toBe(3n);
    });

    it('changes its token when it holds new documents', () => {
      const before = store.changeToken([INCIDENTS.name]);
      store.writeBackSync(INCIDENTS.name, [held('inc-1', 0n)], null);
      expect(store.changeToken([INCIDENTS.name])).not.toBe(before);
    });
  });

  describe('prepared writes (the inline batch)', () => {
    it('write many puts and deletes with the revision guard of putSync and deleteSync', () => {
      store.putSync(INCIDENTS.name, { id: 'kept', title: 'newer' }, 9n);
      store.putSync(INCIDENTS.name, { id: 'old', title: 'old' }, 1n);
      const writes = [
        store.prepareWriteSync(INCIDENTS.name, 'kept', { id: 'kept', title: 'stale' }, 3n),
        store.prepareWriteSync(INCIDENTS.name, 'old', null, 2n),
        // More than one statement's worth of rows.
        ...Array.from({ length: 70 }, (_, n) => store.prepareWriteSync(INCIDENTS.name, `inc-${n}`, { id: `inc-${n}`, n }, BigInt(n))),
      ];

      store.transactionSync(() => store.writeManySync(INCIDENTS.name, writes));

      expect(store.getSync(INCIDENTS.name, 'kept')).toEqual({ doc: { id: 'kept', title: 'newer' }, revision: 9n });
      expect(store.getSync(INCIDENTS.name, 'old')).toBeNull();
      // A tombstone: a stale put cannot bring the document back.
      expect(store.putSync(INCIDENTS.name, { id: 'old', title: 'old' }, 1n)).toBe(false);
      expect(store.countSync(INCIDENTS.name)).toBe(71);
      expect(store.getSync(INCIDENTS.name, 'inc-69')).toEqual({ doc: { id: 'inc-69', n: 69 }, revision: 69n });
    });

    it('store their rows without the id, one at a time, many per statement, or written back', async () => {
      const raw = (id: string) => temp.db.prepare(`SELECT doc FROM "rm_incidents_v1_g1" WHERE id = ?`).pluck().get(id);
      store.transactionSync(() => store.writeManySync(INCIDENTS.name, [store.prepareWriteSync(INCIDENTS.name, 'one', { id: 'one', n: 1 }, 1n)]));
      const many = Array.from({ length: 3 }, (_, n) => store.prepareWriteSync(INCIDENTS.name, `m-${n}`, { id: `m-${n}`, n }, 1n));
      store.transactionSync(() => store.writeManySync(INCIDENTS.name, many));
      // Held as prepareWriteSync encodes it, the text its row will hold.
      const held = store.prepareWriteSync(INCIDENTS.name, 'held', { id: 'held', n: 7 }, 1n);
      expect(held.doc).toBe('{"n":7}');
      store.writeBackSync(INCIDENTS.name, [{ id: 'held', revision: 1n, json: held.doc! }], null, true);
      expect(store.getSync(INCIDENTS.name, 'held')?.doc).toEqual({ id: 'held', n: 7 });
      expect(await store.find(INCIDENTS.name, { filters: [{ field: 'id', op: 'eq', value: 'held' }], limit: 10 })).toEqual([{ id: 'held', n: 7 }]);
      store.flushWriteBackSync();
      expect([raw('one'), raw('m-2'), raw('held')]).toEqual(['{"n":1}', '{"n":2}', '{"n":7}']);
      expect(store.getSync(INCIDENTS.name, 'held')?.doc).toEqual({ id: 'held', n: 7 });
    });

    it('encode an id that JSON escapes into the stored text, and read it back while held and once written', () => {
      const id = 'a"b\\c';
      const held = store.prepareWriteSync(INCIDENTS.name, id, { id, n: 8 }, 1n);
      expect(held.doc).toBe('{"n":8}');
      store.writeBackSync(INCIDENTS.name, [{ id, revision: 1n, json: held.doc! }], null, true);
      expect(store.getSync(INCIDENTS.name, id)?.doc).toEqual({ id, n: 8 });
      store.flushWriteBackSync();
      expect(store.getSync(INCIDENTS.name, id)?.doc).toEqual({ id, n: 8 });
    });

    it('are checked when prepared, as putSync and deleteSync check them', () => {
      expect(() => store.prepareWriteSync(INCIDENTS.name, 'x', { id: '' }, 1n)).toThrow(ReadStoreUsageError);
      expect(() => store.prepareWriteSync(INCIDENTS.name, 'x', { id: 'x' }, -1n)).toThrow(ReadStoreUsageError);
      expect(() => store.prepareWriteSync(INCIDENTS.name, '', null, 1n)).toThrow(ReadStoreUsageError);
      expect(() => store.prepareWriteSync('missing', 'x', { id: 'x' }, 1n)).toThrow(ReadStoreUsageError);
      expect(() => store.prepareWriteSync(INCIDENTS.name, 'x', { id: 'x', big: 1n }, 1n)).toThrow(TypeError);
    });
  });

  describe('storage', () => {
    it('keeps one table per collection with the documented columns', () => {
      const columns = temp.db.prepare(`PRAGMA table_info("${sqliteTableName(INCIDENTS.name)}")`).all() as {
        name: string;
        type: string;
      }[];
      expect(columns.map(({ name, type }) => `${name} ${type}`)).toEqual([
        'id TEXT',
        'revision INTEGER',
        'deleted INTEGER',
        'doc TEXT',
      ]);
      store.deleteSync(INCIDENTS.name, 'gone', 3n);
      expect(temp.db.prepare(`SELECT id, revision, deleted, doc FROM "rm_incidents_v1_g1"`).all()).toEqual([
        { id: 'gone', revision: 3, deleted: 1, doc: null },
      ]);
    });

    it('stores a document without the id its row holds, and reads it back whole, id first', () => {
      const doc = { id: 'inc-1', accountId: 'acc-a', created_at: '2026-01-01', title: 'Down' };
      store.putSync(INCIDENTS.name, doc, 1n);
      const raw = temp.db.prepare(`SELECT doc FROM "rm_incidents_v1_g1" WHERE id = ?`).pluck().get('inc-1') as string;
      expect(raw).toBe('{"accountId":"acc-a","created_at":"2026-01-01","title":"Down"}');
      const read = store.getSync(INCIDENTS.name, 'inc-1')!.doc;
      expect(read).toEqual(doc);
      expect(Object.keys(read)[0]).toBe('id');
      expect(store.getManySync(INCIDENTS.name, ['inc-1', 'none']).map((one) => one.doc)).toEqual([doc]);
      expect(store.findSync(INCIDENTS.name, { filters: [{ field: 'accountId', op: 'eq', value: 'acc-a' }], limit: 5 })).toEqual([doc]);
    });

    it('reads rows written whole by earlier versions beside rows written without their id', () => {
      temp.db
        .prepare(`INSERT INTO "rm_incidents_v1_g1" (id, revision, deleted, doc) VALUES (?, 1, 0, ?)`)
        .run('old', '{"id":"old","accountId":"acc-a","created_at":"2025-12-31"}');
      store.putSync(INCIDENTS.name, { id: 'new', accountId: 'acc-a', created_at: '2026-01-02' }, 1n);
      expect(store.getSync(INCIDENTS.name, 'old')?.doc).toEqual({ id: 'old', accountId: 'acc-a', created_at: '2025-12-31' });
      const found = store.findSync(INCIDENTS.name, {
        filters: [{ field: 'accountId', op: 'eq', value: 'acc-a' }],
        sort: { field: 'created_at', direction: 'asc' },
        limit: 5,
      });
      expect(found.map((doc) => doc.id)).toEqual(['old', 'new']);
      expect(found[1]).toEqual({ id: 'new', accountId: 'acc-a', created_at: '2026-01-02' });
    });

    it('derives table names that cannot collide or escape their quotes', () => {
      expect(sqliteTableName('incidents_v1_g1')).toBe('rm_incidents_v1_g1');
      const names = ['a-b', 'a_b', 'a.b', 'A_b', 'A-B'].map(sqliteTableName);
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(5);
      for (const name of names) expect(name).toMatch(/^rm_[a-z0-9_]+$/);
      expect(() => sqliteTableName('x"; DROP TABLE rm_meta; --')).toThrow(ReadStoreUsageError);
    });

    it('leaves the shared database open on close', async () => {
      await store.close();
      expect(temp.db.open).toBe(true);
      expect(temp.db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    });

    it('lets another connection use a collection this one ensured, and forget one it dropped', async () => {
      const other = openSqliteDatabase(temp.file);
      try {
        const elsewhere = new SqliteReadStore(other);
        store.putSync(INCIDENTS.name, { id: 'inc-1', accountId: 'acc-a', created_at: '2026-01-01' }, 2n);
        expect(elsewhere.getSync(INCIDENTS.name, 'inc-1')?.revision).toBe(2n);
        expect(
          elsewhere.findSync(INCIDENTS.name, {
            filters: [{ field: 'accountId', op: 'eq', value: 'acc-a' }],
            sort: { field: 'created_at', direction: 'desc' },
            limit: 5,
          }),
        ).toHaveLength(1);
        expect(() =>
          elsewhere.findSync(INCIDENTS.name, { filters: [{ field: 'title', op: 'eq', value: 'x' }], limit: 1 }),
        ).toThrow(ReadStoreUsageError);
        elsewhere.dropCollectionSync(INCIDENTS.name);
        expect(() => new SqliteReadStore(other).getSync(INCIDENTS.name, 'inc-1')).toThrow(ReadStoreUsageError);
      } finally {
        other.close();
      }
    });

    it('binds booleans as 1 and 0 in every operator', () => {
      store.ensureCollectionSync({ name: 'flags', indexes: [{ field: 'public' }, { field: 'tags', array: true }] });
      store.putSync('flags', { id: 'a', public: true, tags: [true] }, 0n);
      store.putSync('flags', { id: 'b', public: false, tags: [false, 'x'] }, 0n);
      const ids = (query: FindQuery) => store.findSync('flags', query).map((doc) => doc.id);
      expect(ids({ filters: [{ field: 'public', op: 'eq', value: true }], limit: 5 })).toEqual(['a']);
      expect(ids({ filters: [{ field: 'public', op: 'in', value: [false] }], limit: 5 })).toEqual(['b']);
      expect(ids({ filters: [{ field: 'tags', op: 'contains', value: false }], limit: 5 })).toEqual(['b']);
    });
  });

  describe('query plans', () => {
    // Captures the SQL the store prepares, then asks SQLite how it would run it.
    function planOf(run: () => unknown, statement = 'SELECT id, doc FROM'): string[] {
      const prepared: string[] = [];
      const prepare = temp.db.prepare.bind(temp.db);
      const spy = jest.spyOn(temp.db, 'prepare').mockImplementation((sql: string) => {
        prepared.push(sql);
        return prepare(sql);
      });
      try {
        run();
      } finally {
        spy.mockRestore();
      }
      const select = prepared.find((sql) => sql.startsWith(statement));
      if (!select) throw new Error(`no ${statement} statement among ${JSON.stringify(prepared)}`);
      const params = Array.from(select.match(/\?/g) ?? [], () => 'x');
      return (temp.db.prepare(`EXPLAIN QUERY PLAN ${select}`).all(...params) as { detail: string }[]).map(
        (row) => row.detail,
      );
    }

    beforeEach(() => {
      temp.db.transaction(() => {
        for (let i = 0; i < 2000; i++) {
          const created = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
          store.putSync(
            INCIDENTS.name,
            { id: `inc-${i}`, accountId: `acc-${i % 40}`, status: i % 3 ? 'open' : 'resolved', created_at: created },
            0n,
          );
        }
      })();
    });

    const latest: FindQuery = {
      filters: [{ field: 'accountId', op: 'eq', value: 'acc-7' }],
      sort: { field: 'created_at', direction: 'desc' },
      limit: 20,
    };

    function expectIndexedWithoutSort(plan: string[]): void {
      const table = sqliteTableName(INCIDENTS.name);
      expect(plan.some((step) => step.includes(`USING INDEX ${table}:accountId,created_at`))).toBe(true);
      // A full scan of the table without an index, or a sort of the matches, would not scale.
      expect(plan.filter((step) => new RegExp(`^SCAN ${table}$`).test(step))).toEqual([]);
      expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
    }

    it('serves "latest of an account" from the (accountId, created_at, id) index, without sorting', () => {
      expectIndexedWithoutSort(planOf(() => store.findSync(INCIDENTS.name, latest)));
    });

    it('starts the next page by seeking to the cursor', () => {
      const [last] = store.findSync(INCIDENTS.name, { ...latest, limit: 1 });
      const plan = planOf(() =>
        store.findSync(INCIDENTS.name, { ...latest, after: { value: last.created_at as string, id: last.id } }),
      );
      expectIndexedWithoutSort(plan);
      // Both the account and the sort key bound the range, so deep pages cost what the first one does.
      expect(plan.join('\n')).toMatch(/<expr>=\? AND <expr><\?/);
    });

    it('counts an account from an index', () => {
      const plan = planOf(() => store.countSync(INCIDENTS.name, latest.filters), 'SELECT count(*)');
      const table = sqliteTableName(INCIDENTS.name);
      expect(plan.filter((step) => new RegExp(`^SCAN ${table}$`).test(step))).toEqual([]);
      expect(plan.some((step) => step.startsWith(`SEARCH ${table} USING`))).toBe(true);
    });
  });
});

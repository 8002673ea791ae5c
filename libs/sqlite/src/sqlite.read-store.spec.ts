import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreUnavailableError } from '../../core/src/errors';
import { ReadStoreUsageError } from '../../read-store/src/collection-schema';
import { readStoreContract } from '../../read-store/src/read-store.contract';
import { CollectionSpec, FindQuery } from '../../read-store/src/read-store.port';
import { openSqliteDatabase, SqliteDatabase } from './sqlite-database';
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

describe('SqliteReadStore', () => {
  const INCIDENTS: CollectionSpec = {
    name: 'incidents_v1_g1',
    indexes: [{ field: 'accountId' }, { field: 'status' }, { field: 'serviceIds', array: true }],
    sortField: 'created_at',
  };
  let temp: ReturnType<typeof tempDatabase>;
  let store: SqliteReadStore;

  beforeEach(async () => {
    temp = tempDatabase();
    store = new SqliteReadStore(temp.db);
    await store.ensureCollection(INCIDENTS);
  });

  afterEach(() => temp.remove());

  it('answers a write only once the WAL holding it is on disk, and fails it when the fsync fails', async () => {
    let releaseSync: () => void = () => undefined;
    const durable = temp.db.durable;
    temp.db.durable = () => new Promise<void>((resolve) => (releaseSync = () => void durable().then(resolve)));
    let answered = false;
    const put = store.put(INCIDENTS.name, { id: 'inc-1', accountId: 'a' }, 1n).then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    releaseSync();
    await put;
    expect(answered).toBe(true);

    temp.db.durable = () => Promise.reject(new Error('EIO'));
    await expect(store.put(INCIDENTS.name, { id: 'inc-2', accountId: 'a' }, 1n)).rejects.toBeInstanceOf(StoreUnavailableError);
    temp.db.durable = durable;
  });

  describe('inline access', () => {
    it('reads and writes without promises, and rolls back with the transaction it runs in', () => {
      const { inline } = store;
      temp.db.transaction(() => {
        inline.writeMany(INCIDENTS.name, [{ id: 'inc-1', doc: { id: 'inc-1', accountId: 'a' }, revision: 1n }]);
        inline.setCheckpoints([INCIDENTS.name, 'other'], 7n);
        expect(inline.getMany(INCIDENTS.name, ['inc-1'])).toEqual([{ doc: { id: 'inc-1', accountId: 'a' }, revision: 1n }]);
      })();
      inline.setCheckpoints(['other'], 2n ** 62n);
      expect(inline.checkpoints()).toEqual(new Map([[INCIDENTS.name, 7n], ['other', 2n ** 62n]]));
      expect(inline.setCheckpoints([], 9n)).toBeUndefined();
      expect(inline.checkpoints().get(INCIDENTS.name)).toBe(7n);
      expect(() =>
        temp.db.transaction(() => {
          inline.writeMany(INCIDENTS.name, [{ id: 'inc-2', doc: { id: 'inc-2' }, revision: 1n }]);
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      expect(inline.getMany(INCIDENTS.name, ['inc-1', 'inc-2']).map((s) => s.doc.id)).toEqual(['inc-1']);
    });
  });

  describe('change tokens', () => {
    it('notices a commit by another process within the poll interval, and only then', async () => {
      const before = store.changeToken([INCIDENTS.name]);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(store.changeToken([INCIDENTS.name])).toBe(before);

      // Another connection to the same file stands for the CLI or a second instance.
      const other = openSqliteDatabase(temp.file);
      try {
        await new SqliteReadStore(other).put(INCIDENTS.name, { id: 'inc-9', accountId: 'a' }, 1n);
      } finally {
        other.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 120));
      const after = store.changeToken([INCIDENTS.name]);
      expect(after).not.toBe(before);
      expect(store.changeToken([INCIDENTS.name])).toBe(after);
    });

    it('changes with inline writes', () => {
      const before = store.changeToken([INCIDENTS.name]);
      store.inline.writeMany(INCIDENTS.name, [{ id: 'inc-1', doc: { id: 'inc-1', accountId: 'a' }, revision: 1n }]);
      expect(store.changeToken([INCIDENTS.name])).not.toBe(before);
    });
  });

  describe('storage', () => {
    it('keeps one table per collection with the documented columns', async () => {
      const columns = temp.db.prepare(`PRAGMA table_info("${sqliteTableName(INCIDENTS.name)}")`).all() as { name: string; type: string }[];
      expect(columns.map(({ name, type }) => `${name} ${type}`)).toEqual(['id TEXT', 'revision INTEGER', 'deleted INTEGER', 'doc TEXT']);
      await store.delete(INCIDENTS.name, 'gone', 3n);
      expect(temp.db.prepare(`SELECT id, revision, deleted, doc FROM "rm_incidents_v1_g1"`).all()).toEqual([{ id: 'gone', revision: 3, deleted: 1, doc: null }]);
    });

    it('puts back the id that rows in the id-less format left out of their document, once', async () => {
      temp.db.prepare(`INSERT INTO "rm_incidents_v1_g1" (id, revision, deleted, doc) VALUES ('old', 1, 0, '{"accountId":"a"}')`).run();
      temp.db.prepare("DELETE FROM rm_meta WHERE key = 'format:documents'").run();
      const reopened = new SqliteReadStore(temp.db);
      expect((await reopened.get(INCIDENTS.name, 'old'))?.doc).toEqual({ id: 'old', accountId: 'a' });
      expect(await reopened.find(INCIDENTS.name, { filters: [{ field: 'accountId', op: 'eq', value: 'a' }], limit: 5 })).toEqual([{ id: 'old', accountId: 'a' }]);
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
    });

    it('lets another connection use a collection this one ensured, and forget one it dropped', async () => {
      const other = openSqliteDatabase(temp.file);
      try {
        const elsewhere = new SqliteReadStore(other);
        await store.put(INCIDENTS.name, { id: 'inc-1', accountId: 'acc-a', created_at: '2026-01-01' }, 2n);
        expect((await elsewhere.get(INCIDENTS.name, 'inc-1'))?.revision).toBe(2n);
        await expect(elsewhere.find(INCIDENTS.name, { filters: [{ field: 'title', op: 'eq', value: 'x' }], limit: 1 })).rejects.toThrow(ReadStoreUsageError);
        await elsewhere.dropCollection(INCIDENTS.name);
        await expect(new SqliteReadStore(other).get(INCIDENTS.name, 'inc-1')).rejects.toThrow(ReadStoreUsageError);
      } finally {
        other.close();
      }
    });

    it('drops an index the spec no longer names, and keeps the ones it does', async () => {
      const indexes = () => temp.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'rm_timers' AND sql IS NOT NULL ORDER BY name").pluck().all();
      await store.ensureCollection({ name: 'timers', indexes: [{ field: 'deadline' }, { field: 'pingToken' }] });
      await store.put('timers', { id: 't', deadline: 5, pingToken: 'x' }, 0n);
      expect(indexes()).toEqual(['rm_timers:deadline', 'rm_timers:pingToken']);

      await store.ensureCollection({ name: 'timers', indexes: [{ field: 'deadline' }] });
      expect(indexes()).toEqual(['rm_timers:deadline']);
      expect(await store.find('timers', { filters: [{ field: 'deadline', op: 'lte', value: 5 }], limit: 5 })).toEqual([{ id: 't', deadline: 5, pingToken: 'x' }]);
    });

    it('binds booleans as 1 and 0 in every operator', async () => {
      await store.ensureCollection({ name: 'flags', indexes: [{ field: 'public' }, { field: 'tags', array: true }] });
      await store.put('flags', { id: 'a', public: true, tags: [true] }, 0n);
      await store.put('flags', { id: 'b', public: false, tags: [false, 'x'] }, 0n);
      const ids = async (query: FindQuery) => (await store.find('flags', query)).map((doc) => doc.id);
      expect(await ids({ filters: [{ field: 'public', op: 'eq', value: true }], limit: 5 })).toEqual(['a']);
      expect(await ids({ filters: [{ field: 'public', op: 'in', value: [false] }], limit: 5 })).toEqual(['b']);
      expect(await ids({ filters: [{ field: 'tags', op: 'contains', value: false }], limit: 5 })).toEqual(['b']);
    });
  });

  describe('query plans', () => {
    // Captures the SQL the store prepares, then asks SQLite how it would run it.
    async function planOf(run: () => Promise<unknown>, statement = 'SELECT doc FROM'): Promise<string[]> {
      const prepared: string[] = [];
      const prepare = temp.db.prepare.bind(temp.db);
      const spy = jest.spyOn(temp.db, 'prepare').mockImplementation((sql: string) => {
        prepared.push(sql);
        return prepare(sql);
      });
      try {
        await run();
      } finally {
        spy.mockRestore();
      }
      const select = prepared.find((sql) => sql.startsWith(statement));
      if (!select) throw new Error(`no ${statement} statement among ${JSON.stringify(prepared)}`);
      const params = Array.from(select.match(/\?/g) ?? [], () => 'x');
      return (temp.db.prepare(`EXPLAIN QUERY PLAN ${select}`).all(...params) as { detail: string }[]).map((row) => row.detail);
    }

    beforeEach(async () => {
      await store.writeMany(
        INCIDENTS.name,
        Array.from({ length: 2000 }, (_, i) => ({
          id: `inc-${i}`,
          doc: { id: `inc-${i}`, accountId: `acc-${i % 40}`, status: i % 3 ? 'open' : 'resolved', created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() },
          revision: 0n,
        })),
      );
    });

    const latest: FindQuery = { filters: [{ field: 'accountId', op: 'eq', value: 'acc-7' }], sort: { field: 'created_at', direction: 'desc' }, limit: 20 };

    function expectIndexedWithoutSort(plan: string[]): void {
      const table = sqliteTableName(INCIDENTS.name);
      expect(plan.some((step) => step.includes(`USING INDEX ${table}:accountId,created_at`))).toBe(true);
      // A full scan of the table without an index, or a sort of the matches, would not scale.
      expect(plan.filter((step) => new RegExp(`^SCAN ${table}$`).test(step))).toEqual([]);
      expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
    }

    it('serves "latest of an account" from the (accountId, created_at, id) index, without sorting', async () => {
      expectIndexedWithoutSort(await planOf(() => store.find(INCIDENTS.name, latest)));
    });

    it('starts the next page by seeking to the cursor', async () => {
      const [last] = await store.find(INCIDENTS.name, { ...latest, limit: 1 });
      const plan = await planOf(() => store.find(INCIDENTS.name, { ...latest, after: { value: last.created_at as string, id: last.id } }));
      expectIndexedWithoutSort(plan);
      // Both the account and the sort key bound the range, so deep pages cost what the first one does.
      expect(plan.join('\n')).toMatch(/<expr>=\? AND <expr><\?/);
    });

    it('counts an account from an index', async () => {
      const plan = await planOf(() => store.count(INCIDENTS.name, latest.filters), 'SELECT count(*)');
      const table = sqliteTableName(INCIDENTS.name);
      expect(plan.filter((step) => new RegExp(`^SCAN ${table}$`).test(step))).toEqual([]);
      expect(plan.some((step) => step.startsWith(`SEARCH ${table} USING`))).toBe(true);
    });
  });
});

import type { Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { StoreUnavailableError } from '../../core/src/errors';
import { ReadModelDoc } from '../../core/src/projection';
import { ChangeCounters, CollectionSchema, pageSegments, ReadStoreUsageError, checkCollectionName } from '../../read-store/src/collection-schema';
import { InlineAccess } from '../../read-store/src/projection-engine';
import { BatchAnswer, BatchRead, CollectionSpec, CollectionWrites, DocsWanted, DocWrite, Filter, FindQuery, ReadStore, StoredDoc } from '../../read-store/src/read-store.port';
import { SqliteDatabase } from './sqlite-database';
import { filterSql, segmentSql, valueSql } from './sqlite-query-sql';

interface SqliteCollection {
  schema: CollectionSchema;
  table: string;
  get: Statement;
  getMany: Statement;
  put: Statement;
  delete: Statement;
  /** find and count statements, keyed by their SQL. */
  queries: Map<string, Statement>;
}

interface DocRow {
  id: string;
  revision: bigint;
  doc: string;
}

/** How often, at most, a process looks whether another one has committed to the shared file. */
const EXTERNAL_CHANGES_POLL_MS = 100;

/**
 * Table for a collection. SQLite names are case-insensitive, so any name that is not already a plain
 * lower-case identifier gets a hash suffix: "a-b", "a.b" and "A_b" stay three tables.
 */
export function sqliteTableName(collection: string): string {
  const name = checkCollectionName(collection);
  if (/^[a-z0-9_]+$/.test(name)) return `rm_${name}`;
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `rm_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_${digest}`;
}

/**
 * Read models in the embedded SQLite file: one table per collection, documents as JSON, declared
 * fields indexed by expression. Every method runs synchronously underneath, and a write answers once
 * it is on disk; `inline` hands the few the append transaction needs to the projection runner.
 */
export class SqliteReadStore implements ReadStore {
  private readonly collections = new Map<string, SqliteCollection>();
  private readonly sql: Record<'getSpec' | 'setSpec' | 'deleteSpec' | 'getCheckpoint' | 'setCheckpoint' | 'resetCheckpoint' | 'checkpoints' | 'setCheckpoints' | 'getMeta' | 'setMeta' | 'dataVersion' | 'indexesOf', Statement>;
  private readonly changes = new ChangeCounters();
  private external = { version: undefined as unknown, checkedAt: Number.NEGATIVE_INFINITY, count: 0 };

  readonly inline: InlineAccess = {
    getMany: (collection, ids) => this.getManyNow(collection, ids),
    writeMany: (collection, writes) => this.writeManyNow(collection, writes),
    checkpoints: () => new Map((this.sql.checkpoints.all() as { name: string; position: bigint }[]).map(({ name, position }) => [name, position])),
    setCheckpoints: (names, position) => void this.sql.setCheckpoints.run(position, JSON.stringify(names)),
  };

  constructor(private readonly db: SqliteDatabase) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS rm_collections (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS rm_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS rm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.sql = {
      getSpec: db.prepare('SELECT spec FROM rm_collections WHERE name = ?').pluck(),
      setSpec: db.prepare('INSERT INTO rm_collections (name, spec) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET spec = excluded.spec'),
      deleteSpec: db.prepare('DELETE FROM rm_collections WHERE name = ?'),
      getCheckpoint: db.prepare('SELECT position FROM rm_checkpoints WHERE name = ?').pluck().safeIntegers(true),
      setCheckpoint: db.prepare(
        'INSERT INTO rm_checkpoints AS cp (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position WHERE excluded.position > cp.position',
      ),
      resetCheckpoint: db.prepare('DELETE FROM rm_checkpoints WHERE name = ?'),
      checkpoints: db.prepare('SELECT name, position FROM rm_checkpoints').safeIntegers(true),
      // `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the upsert, not to the SELECT's join.
      setCheckpoints: db.prepare(
        'INSERT INTO rm_checkpoints AS cp (name, position) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT(name) DO UPDATE SET position = excluded.position WHERE excluded.position > cp.position',
      ),
      getMeta: db.prepare('SELECT value FROM rm_meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT INTO rm_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      // Not the primary key's own index (no `sql`).
      indexesOf: db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").pluck(),
    };
    this.restoreIds();
  }

  /** Rows in the id-less document format keep their id in the row's key only: puts it into `doc`, once per database. */
  private restoreIds(): void {
    if (this.sql.getMeta.get('format:documents') !== undefined) return;
    this.db.transaction(() => {
      for (const name of this.db.prepare('SELECT name FROM rm_collections').pluck().all() as string[]) {
        this.db.exec(`UPDATE "${sqliteTableName(name)}" SET doc = json_set(doc, '$.id', id) WHERE deleted = 0 AND json_type(doc, '$.id') IS NULL`);
      }
      this.sql.setMeta.run('format:documents', '2');
    }).immediate();
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const schema = new CollectionSchema(spec);
    const name = sqliteTableName(schema.name);
    this.db.transaction(() => {
      this.db.exec(`CREATE TABLE IF NOT EXISTS "${name}" (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, doc TEXT)`);
      const wanted = new Set<string>();
      for (const plan of schema.indexPlans) {
        // An expression index cannot reach inside a JSON array: `contains` scans what the other filters leave.
        if (plan.array) continue;
        const keys = [...plan.fields.map(valueSql), 'id'].join(', ');
        const index = `${name}:${plan.fields.join(',')}`;
        wanted.add(index);
        // Partial: tombstones stay out of every index, and queries repeat `deleted = 0` to use them.
        this.db.exec(`CREATE INDEX IF NOT EXISTS "${index}" ON "${name}" (${keys}) WHERE deleted = 0`);
      }
      // An index the spec no longer names would still be rewritten on every write.
      for (const index of this.sql.indexesOf.all(name) as string[]) if (!wanted.has(index)) this.db.exec(`DROP INDEX "${index.replaceAll('"', '""')}"`);
      this.sql.setSpec.run(schema.name, JSON.stringify(schema.spec));
    }).immediate();
    this.changes.touchLayout();
    this.collections.set(schema.name, this.prepareCollection(schema));
  }

  async dropCollection(name: string): Promise<void> {
    this.db.transaction(() => {
      this.db.exec(`DROP TABLE IF EXISTS "${sqliteTableName(name)}"`);
      this.sql.deleteSpec.run(name);
    }).immediate();
    this.collections.delete(name);
    this.changes.touchLayout();
  }

  async get<Doc extends ReadModelDoc>(collection: string, id: string): Promise<StoredDoc<Doc> | null> {
    const row = this.collection(collection).get.get(id) as Omit<DocRow, 'id'> | undefined;
    return row ? { doc: JSON.parse(row.doc) as Doc, revision: row.revision } : null;
  }

  async getMany<Doc extends ReadModelDoc>(collection: string, ids: string[]): Promise<StoredDoc<Doc>[]> {
    return this.getManyNow(collection, ids) as StoredDoc<Doc>[];
  }

  async getManyOf(wanted: readonly DocsWanted[]): Promise<StoredDoc[][]> {
    return wanted.map(({ collection, ids }) => this.getManyNow(collection, ids));
  }

  async readBatch(reads: readonly BatchRead[]): Promise<BatchAnswer[]> {
    for (const { collection } of reads) this.collection(collection);
    return Promise.all(reads.map((read) => (read.query ? this.find(read.collection, read.query) : this.getMany(read.collection, read.ids ?? []))));
  }

  async find<Doc extends ReadModelDoc>(collection: string, query: FindQuery): Promise<Doc[]> {
    const entry = this.collection(collection);
    const { filters, sort, limit, after } = entry.schema.checkQuery(query);
    const params: unknown[] = [];
    const where = ['deleted = 0', ...filters.map((filter) => filterSql(filter, params))];
    const asc = sort.direction === 'asc';
    const direction = asc ? 'ASC' : 'DESC';
    const order = sort.field === 'id' ? `id ${direction}` : `${valueSql(sort.field)} ${direction}, id ${direction}`;
    const docs: Doc[] = [];
    for (const segment of pageSegments(sort, after)) {
      if (docs.length >= limit) break;
      const segmentParams = [...params];
      const range = segmentSql(segment, sort.field, asc, segmentParams);
      // Within the null group only the id orders, and saying so spares SQLite a sort.
      const segmentOrder = segment.kind === 'nulls' ? `id ${direction}` : order;
      const sql = `SELECT doc FROM ${entry.table} WHERE ${[...where, ...(range ? [range] : [])].join(' AND ')} ORDER BY ${segmentOrder} LIMIT ?`;
      for (const doc of this.query(entry, sql).pluck().all(...segmentParams, limit - docs.length) as string[]) docs.push(JSON.parse(doc) as Doc);
    }
    return docs;
  }

  async count(collection: string, filters?: Filter[]): Promise<number> {
    const entry = this.collection(collection);
    const params: unknown[] = [];
    const where = ['deleted = 0', ...entry.schema.checkFilters(filters).map((filter) => filterSql(filter, params))];
    return (this.query(entry, `SELECT count(*) AS n FROM ${entry.table} WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
  }

  async put(collection: string, doc: ReadModelDoc, revision: bigint): Promise<boolean> {
    const entry = this.collection(collection);
    entry.schema.checkDoc(doc, revision);
    this.changes.touch(collection);
    const written = entry.put.run(doc.id, revision, JSON.stringify(doc)).changes > 0;
    await this.synced();
    return written;
  }

  async delete(collection: string, id: string, revision: bigint): Promise<boolean> {
    const entry = this.collection(collection);
    entry.schema.checkWrite(id, revision);
    this.changes.touch(collection);
    const written = entry.delete.run(id, revision).changes > 0;
    await this.synced();
    return written;
  }

  async writeMany(collection: string, writes: readonly DocWrite[]): Promise<void> {
    this.db.transaction(() => this.writeManyNow(collection, writes)).immediate();
    await this.synced();
  }

  async writeAll(batches: readonly CollectionWrites[]): Promise<void> {
    this.db.transaction(() => {
      for (const { collection, writes } of batches) this.writeManyNow(collection, writes);
    }).immediate();
    await this.synced();
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return (this.sql.getCheckpoint.get(name) as bigint | undefined) ?? null;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    this.sql.setCheckpoint.run(name, position);
    await this.synced();
  }

  async setCheckpoints(names: readonly string[], position: bigint): Promise<void> {
    this.sql.setCheckpoints.run(position, JSON.stringify(names));
    await this.synced();
  }

  async resetCheckpoint(name: string): Promise<void> {
    this.sql.resetCheckpoint.run(name);
    await this.synced();
  }

  async getMeta<T>(key: string): Promise<T | null> {
    const json = this.sql.getMeta.get(key) as string | undefined;
    return json === undefined ? null : (JSON.parse(json) as T);
  }

  async setMeta<T>(key: string, value: T): Promise<void> {
    if (value === undefined) throw new ReadStoreUsageError(`Meta "${key}" needs a value`);
    this.sql.setMeta.run(key, JSON.stringify(value));
    this.changes.touchLayout();
    await this.synced();
  }

  /** Settles once this write is on disk. */
  private async synced(): Promise<void> {
    await this.db.durable().catch((error: unknown) => {
      throw new StoreUnavailableError('The read store could not sync its writes to disk', error);
    });
  }

  changeToken(collections: readonly string[]): string {
    return this.changes.token(collections, this.externalCommits());
  }

  /** The database handle is shared with the event store: whoever opened it closes it. */
  async close(): Promise<void> {}

  /** Commits other connections (the CLI, another instance) made, from `PRAGMA data_version`, polled at most every 100 ms. */
  private externalCommits(): number {
    const now = Date.now();
    if (now - this.external.checkedAt >= EXTERNAL_CHANGES_POLL_MS) {
      this.external.checkedAt = now;
      const version = this.sql.dataVersion.get();
      if (version !== this.external.version) {
        if (this.external.version !== undefined) this.external.count += 1;
        this.external.version = version;
      }
    }
    return this.external.count;
  }

  private getManyNow(collection: string, ids: string[]): StoredDoc[] {
    const { schema, get, getMany } = this.collection(collection);
    const wanted = schema.checkIds(ids);
    if (wanted.length === 0) return [];
    // A few ids (a ping's timer or rollups) are plain key lookups: json_each costs more than the reads.
    if (wanted.length <= 4) {
      return wanted.flatMap((id) => {
        const row = get.get(id) as Omit<DocRow, 'id'> | undefined;
        return row ? [{ doc: JSON.parse(row.doc) as ReadModelDoc, revision: row.revision }] : [];
      });
    }
    const rows = new Map((getMany.all(JSON.stringify(wanted)) as DocRow[]).map((row) => [row.id, row]));
    return wanted.flatMap((id) => {
      const row = rows.get(id);
      return row ? [{ doc: JSON.parse(row.doc) as ReadModelDoc, revision: row.revision }] : [];
    });
  }

  /** Puts and deletes, each guarded by revision. */
  private writeManyNow(collection: string, writes: readonly DocWrite[]): void {
    const entry = this.collection(collection);
    for (const { id, doc, revision } of writes) {
      if (doc === null) {
        entry.schema.checkWrite(id, revision);
        entry.delete.run(id, revision);
      } else {
        entry.schema.checkDoc(doc, revision);
        entry.put.run(doc.id, revision, JSON.stringify(doc));
      }
    }
    if (writes.length > 0) this.changes.touch(collection);
  }

  private collection(name: string): SqliteCollection {
    const known = this.collections.get(name);
    if (known) return known;
    // Ensured by another process sharing the file (a CLI rebuild, say).
    const spec = this.sql.getSpec.get(name) as string | undefined;
    if (spec === undefined) throw new ReadStoreUsageError(`Read model collection "${name}" does not exist`);
    const collection = this.prepareCollection(new CollectionSchema(JSON.parse(spec) as CollectionSpec));
    this.collections.set(name, collection);
    return collection;
  }

  private prepareCollection(schema: CollectionSchema): SqliteCollection {
    const table = `"${sqliteTableName(schema.name)}"`;
    return {
      schema,
      table,
      get: this.db.prepare(`SELECT revision, doc FROM ${table} WHERE id = ? AND deleted = 0`).safeIntegers(true),
      getMany: this.db.prepare(`SELECT id, revision, doc FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0`).safeIntegers(true),
      put: this.db.prepare(
        `INSERT INTO ${table} AS rm (id, revision, deleted, doc) VALUES (?, ?, 0, ?)
         ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, deleted = 0, doc = excluded.doc
         WHERE excluded.revision > rm.revision`,
      ),
      delete: this.db.prepare(
        `INSERT INTO ${table} AS rm (id, revision, deleted, doc) VALUES (?, ?, 1, NULL)
         ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, deleted = 1, doc = NULL
         WHERE excluded.revision > rm.revision`,
      ),
      queries: new Map(),
    };
  }

  private query(entry: SqliteCollection, sql: string): Statement {
    let statement = entry.queries.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      entry.queries.set(sql, statement);
    }
    return statement;
  }
}

import type { Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { ReadModelDoc } from '../../core/src/projection';
import { ExternalChanges, externalChangesOf, SqliteDatabase } from '../../core/src/sqlite-database';
import { ChangeCounters } from './change-counters';
import { CheckedFilter, CollectionSchema, ReadStoreUsageError, Scalar, checkCollectionName } from './collection-schema';
import { PageSegment, pageSegments } from './keyset-page';
import type { PreparedWrite } from './projection-engine';
import { CollectionSpec, Filter, FindQuery, ReadStore, StoredDoc } from './read-store.port';
import { compareStrings, compareValues, idMatcher, matches, scalarAt, SortKey } from './doc-match';
import { decodeStoredDoc, encodeStoredDoc } from './stored-json';
import { newestById, valueOf, WriteBackDoc, WriteBackOverlay, WriteBackSlice } from './write-back-overlay';

interface SqliteCollection {
  schema: CollectionSchema;
  table: string;
  get: Statement;
  getMany: Statement;
  put: Statement;
  delete: Statement;
  /** Multi-row puts by row count (writeManySync). */
  putMany: Map<number, Statement>;
  /** find and count statements, keyed by their SQL. */
  queries: Map<string, Statement>;
}

/** Rows per multi-row put statement: fewer statements per batch, one prepared statement per size. */
const PUT_MANY_ROWS = 32;
/**
 * A drain of written-back documents starts this often. Each drain writes a document (a timer, a rollup)
 * once however often it changed, and a check's new event documents side by side: the longer the
 * interval, the fewer pages per ping (2 s against 1 s: ~5–10% more pings/s, see docs/benchmarks.md).
 */
const WRITE_BACK_FLUSH_MS = 2000;
/** So many documents waiting are written at once (a bound on memory; ~2 s of pings at 18,000/s is ~40,000). */
const WRITE_BACK_MAX_DOCS = 100_000;
/** A drain of written-back documents is spread over about this many transactions… */
const WRITE_BACK_DRAIN_PARTS = 64;
/** …each writing at least this many. */
const WRITE_BACK_MIN_SLICE = 128;

/** The put statement's upsert for `rows` rows: the revision guard of a single put applies row by row. */
function putSql(table: string, rows: number): string {
  return `INSERT INTO ${table} AS rm (id, revision, deleted, doc) VALUES ${Array.from({ length: rows }, () => '(?, ?, 0, ?)').join(', ')}
         ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, deleted = 0, doc = excluded.doc
         WHERE excluded.revision > rm.revision`;
}

export interface SqliteReadStoreOptions {
  /** How often a drain of written-back documents starts (default 2 s); each is written within 1.25 × this. */
  writeBackFlushMs?: number;
  /** Written at once when this many documents wait (default 100,000). */
  writeBackMaxDocs?: number;
  /**
   * Asks the writer for a transaction soon, appends or not, in which writeBackStepSync runs: what
   * carries a drain when no appends come. Without it, an unfinished drain is written in a
   * transaction of its own.
   */
  requestTransaction?: () => void;
  /** A flush that failed; its documents stay and the next flush retries them. */
  onWriteBackError?: (error: unknown) => void;
}

interface DocRow {
  id: string;
  revision: bigint;
  doc: string;
}

/** A held document as a read from the table returns it: a copy (one held as JSON is decoded afresh already); null for a delete. */
function storedOf<Doc extends ReadModelDoc>(pending: WriteBackDoc): StoredDoc<Doc> | null {
  const doc = valueOf(pending);
  return doc === null ? null : { doc: (pending.json === undefined ? copy(doc) : doc) as Doc, revision: pending.revision };
}

/** A document held in memory as a read from the table returns it: a copy, through JSON. */
function copy(doc: ReadModelDoc): ReadModelDoc {
  return JSON.parse(JSON.stringify(doc)) as ReadModelDoc;
}

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

// Field paths reach this point only after CollectionSchema matched them against declared,
// identifier-shaped names, which is what makes interpolating them safe.
function valueSql(field: string): string {
  return field === 'id' ? 'id' : `json_extract(doc, '$.${field}')`;
}

// json_extract reads JSON true/false as 1/0, so booleans are bound the same way.
function bind(value: Scalar): string | number | null {
  return typeof value === 'boolean' ? Number(value) : value;
}

const RANGE_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function filterSql(filter: CheckedFilter, params: unknown[]): string {
  const value = valueSql(filter.field);
  switch (filter.op) {
    case 'eq':
      if (filter.value === null) return `${value} IS NULL`;
      params.push(bind(filter.value));
      return `${value} = ?`;
    case 'in': {
      const present = filter.value.filter((item) => item !== null);
      const terms: string[] = [];
      if (present.length === 1) {
        // The common single-item list skips json_each, whose set-up costs more than the lookup.
        params.push(bind(present[0]));
        terms.push(`${value} = ?`);
      } else if (present.length > 0) {
        // One JSON parameter keeps a single prepared statement whatever the list length.
        params.push(JSON.stringify(present));
        terms.push(`${value} IN (SELECT value FROM json_each(?))`);
      }
      if (present.length < filter.value.length) terms.push(`${value} IS NULL`);
      return terms.length > 0 ? `(${terms.join(' OR ')})` : '0';
    }
    case 'contains':
      params.push(bind(filter.value));
      return `EXISTS (SELECT 1 FROM json_each(doc, '$.${filter.field}') WHERE value = ?)`;
    default:
      params.push(filter.value);
      return `${value} ${RANGE_SQL[filter.op]} ?`;
  }
}

function segmentSql(segment: PageSegment, sortField: string, asc: boolean, params: unknown[]): string | null {
  const value = valueSql(sortField);
  const next = asc ? '>' : '<';
  switch (segment.kind) {
    case 'all':
      return null;
    case 'after':
      // The bare range term lets SQLite seek in the (…, sort, id) index; the OR only sorts out ties.
      params.push(segment.value, segment.value, segment.id);
      return `${value} ${next}= ? AND (${value} ${next} ? OR id ${next} ?)`;
    case 'nulls':
      if (segment.afterId === undefined) return `${value} IS NULL`;
      params.push(segment.afterId);
      return `${value} IS NULL AND id ${next} ?`;
    case 'values':
      return `${value} IS NOT NULL`;
    case 'afterId':
      params.push(segment.id);
      return `id ${next} ?`;
  }
}

/**
 * Read models in the embedded SQLite file, one table per collection, documents as JSON. The sync
 * methods let the inline projection runner write inside the event store's append transaction.
 */
export class SqliteReadStore implements ReadStore {
  private readonly collections = new Map<string, SqliteCollection>();
  private readonly getSpecStatement: Statement;
  private readonly setSpecStatement: Statement;
  private readonly deleteSpecStatement: Statement;
  private readonly getCheckpointStatement: Statement;
  private readonly setCheckpointStatement: Statement;
  private readonly getMetaStatement: Statement;
  private readonly setMetaStatement: Statement;
  private readonly changes = new ChangeCounters();
  private readonly external: ExternalChanges;
  private readonly advanceCheckpointStatement: Statement;
  private readonly overlay = new WriteBackOverlay();
  private flushTimer: NodeJS.Timeout | null = null;
  /** The timer's next run is the deadline of the drain under way. */
  private drainDue = false;
  /** The drain under way has passed its deadline: it asks for transactions (requestTransaction). */
  private drainOverdue = false;
  /** Closed: what is written back after this waits for a flush the caller makes. */
  private closed = false;
  private readonly writeBackFlushMs: number;
  private readonly writeBackMaxDocs: number;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: SqliteReadStoreOptions = {},
  ) {
    this.external = externalChangesOf(db);
    this.writeBackFlushMs = options.writeBackFlushMs ?? WRITE_BACK_FLUSH_MS;
    this.writeBackMaxDocs = options.writeBackMaxDocs ?? WRITE_BACK_MAX_DOCS;
    db.exec(`
      CREATE TABLE IF NOT EXISTS rm_collections (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS rm_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS rm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.getSpecStatement = db.prepare('SELECT spec FROM rm_collections WHERE name = ?').pluck();
    this.setSpecStatement = db.prepare(
      'INSERT INTO rm_collections (name, spec) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET spec = excluded.spec',
    );
    this.deleteSpecStatement = db.prepare('DELETE FROM rm_collections WHERE name = ?');
    this.getCheckpointStatement = db
      .prepare('SELECT position FROM rm_checkpoints WHERE name = ?')
      .pluck()
      .safeIntegers(true);
    this.setCheckpointStatement = db.prepare(
      'INSERT INTO rm_checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position',
    );
    // Flushes from several processes never move a checkpoint back (each one's documents are complete up to its own).
    this.advanceCheckpointStatement = db.prepare(
      'INSERT INTO rm_checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = max(position, excluded.position)',
    );
    this.getMetaStatement = db.prepare('SELECT value FROM rm_meta WHERE key = ?').pluck();
    this.setMetaStatement = db.prepare(
      'INSERT INTO rm_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  ensureCollectionSync(spec: CollectionSpec): void {
    const schema = new CollectionSchema(spec);
    const name = sqliteTableName(schema.name);
    this.transactionSync(() => {
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS "${name}" (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, doc TEXT)`,
      );
      for (const plan of schema.indexPlans) {
        // An expression index cannot reach inside a JSON array: `contains` scans what the other filters leave.
        if (plan.array) continue;
        const keys = [...plan.fields.map(valueSql), 'id'].join(', ');
        // Partial: tombstones stay out of every index, and queries repeat `deleted = 0` to use them.
        this.db.exec(
          `CREATE INDEX IF NOT EXISTS "${name}:${plan.fields.join(',')}" ON "${name}" (${keys}) WHERE deleted = 0`,
        );
      }
      this.setSpecStatement.run(schema.name, JSON.stringify(schema.spec));
    });
    this.changes.touchLayout();
    this.collections.set(schema.name, this.prepareCollection(schema));
  }

  dropCollectionSync(name: string): void {
    this.overlay.discard(name);
    this.transactionSync(() => {
      this.db.exec(`DROP TABLE IF EXISTS "${sqliteTableName(name)}"`);
      this.deleteSpecStatement.run(name);
    });
    this.collections.delete(name);
    this.changes.touchLayout();
  }

  /** Runs `fn` in one write transaction, or in a savepoint when one is already open. */
  transactionSync<T>(fn: () => T): T {
    // IMMEDIATE takes the write lock up front, so a read-then-write never fails on a stale snapshot.
    return this.db.transaction(fn).immediate();
  }

  getSync<Doc extends ReadModelDoc>(collection: string, id: string): StoredDoc<Doc> | null {
    const pending = this.overlay.get(collection, id);
    if (pending) return storedOf<Doc>(pending);
    const row = this.collection(collection).get.get(id) as Omit<DocRow, 'id'> | undefined;
    return row ? { doc: decodeStoredDoc<Doc>(id, row.doc), revision: row.revision } : null;
  }

  /**
   * getSync for the projection engine: a document waiting to be written back is returned as is, not
   * copied, so the caller must not change it (evolve returns new documents).
   */
  peekSync<Doc extends ReadModelDoc>(collection: string, id: string): StoredDoc<Doc> | null {
    const pending = this.overlay.get(collection, id);
    if (pending) {
      const doc = valueOf(pending);
      return doc === null ? null : { doc: doc as Doc, revision: pending.revision };
    }
    return this.getSync<Doc>(collection, id);
  }

  getManySync<Doc extends ReadModelDoc>(collection: string, ids: string[]): StoredDoc<Doc>[] {
    const { schema, getMany } = this.collection(collection);
    const wanted = schema.checkIds(ids);
    if (wanted.length === 0) return [];
    // One id (an incident's single service, say) is a plain key lookup; json_each costs more than the read.
    if (wanted.length === 1) {
      const one = this.getSync<Doc>(collection, wanted[0]);
      return one ? [one] : [];
    }
    const held = new Map<string, WriteBackDoc>();
    if (this.overlay.has(collection)) {
      for (const id of wanted) {
        const pending = this.overlay.get(collection, id);
        if (pending) held.set(id, pending);
      }
    }
    const stored = held.size > 0 ? wanted.filter((id) => !held.has(id)) : wanted;
    const rows = new Map(stored.length === 0 ? [] : (getMany.all(JSON.stringify(stored)) as DocRow[]).map((row) => [row.id, row]));
    return wanted.flatMap((id) => {
      const pending = held.get(id);
      if (pending) {
        const one = storedOf<Doc>(pending);
        return one ? [one] : [];
      }
      const row = rows.get(id);
      return row ? [{ doc: decodeStoredDoc<Doc>(id, row.doc), revision: row.revision }] : [];
    });
  }

  findSync<Doc extends ReadModelDoc>(collection: string, query: FindQuery): Doc[] {
    const entry = this.collection(collection);
    const { filters, sort, limit, after } = entry.schema.checkQuery(query);
    const params: unknown[] = [];
    const where = ['deleted = 0', ...filters.map((filter) => filterSql(filter, params))];
    const pending = this.pendingFor(collection, filters, where, params);
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
      const sql = `SELECT id, doc FROM ${entry.table} WHERE ${[...where, ...(range ? [range] : [])].join(' AND ')} ORDER BY ${segmentOrder} LIMIT ?`;
      const rows = this.query(entry, sql).all(...segmentParams, limit - docs.length) as { id: string; doc: string }[];
      for (const row of rows) docs.push(decodeStoredDoc<Doc>(row.id, row.doc));
    }
    if (!pending) return docs;
    // Merged with the matching documents held in memory, in the same order.
    const sign = sort.direction === 'asc' ? 1 : -1;
    const keyOf = (doc: ReadModelDoc): SortKey => [sort.field === 'id' ? null : scalarAt(doc, sort.field), doc.id];
    const compare = (a: SortKey, b: SortKey) => sign * (compareValues(a[0], b[0]) || compareStrings(a[1], b[1]));
    const cursor: SortKey | undefined = after && [sort.field === 'id' ? null : after.value, after.id];
    const held = pending.docs.filter((doc) => !cursor || compare(keyOf(doc), cursor) > 0) as Doc[];
    if (held.length === 0) return docs;
    const page = [...docs, ...held].sort((a, b) => compare(keyOf(a), keyOf(b))).slice(0, limit);
    // Copies, as reads from the table would be, of the held documents that made the page and are shared.
    return page.map((doc) => (pending.shared.has(doc) ? (copy(doc) as Doc) : doc));
  }

  countSync(collection: string, filters?: Filter[]): number {
    const entry = this.collection(collection);
    const params: unknown[] = [];
    const checked = entry.schema.checkFilters(filters);
    const where = ['deleted = 0', ...checked.map((filter) => filterSql(filter, params))];
    const pending = this.pendingFor(collection, checked, where, params);
    const sql = `SELECT count(*) AS n FROM ${entry.table} WHERE ${where.join(' AND ')}`;
    return (this.query(entry, sql).get(...params) as { n: number }).n + (pending?.docs.length ?? 0);
  }

  /**
   * For a query of a collection with documents held in memory: leaves out of the SQL (adds to
   * `where`) the stored versions of those the query may match, and returns the held ones it does.
   */
  private pendingFor(
    collection: string,
    filters: CheckedFilter[],
    where: string[],
    params: unknown[],
  ): { docs: ReadModelDoc[]; shared: Set<ReadModelDoc> } | null {
    if (!this.overlay.has(collection)) return null;
    // Only a filter on the id tells, without the stored version, that it cannot match.
    const idFilters = filters.filter((filter) => filter.field === 'id');
    const shadowed: string[] = [];
    const docs: ReadModelDoc[] = [];
    // The held documents themselves (not decoded from JSON): a caller that hands them out copies them.
    const shared = new Set<ReadModelDoc>();
    // The newest held version of each id the id filters let through (usually a range: few of them).
    const newest = newestById(this.overlay.versions(collection), idMatcher(idFilters));
    for (const [id, held] of newest) {
      shadowed.push(id);
      const doc = valueOf(held);
      if (!doc || !filters.every((filter) => matches(doc, filter))) continue;
      docs.push(doc);
      if (held.json === undefined) shared.add(doc);
    }
    if (shadowed.length === 0) return null;
    params.push(JSON.stringify(shadowed));
    where.push('id NOT IN (SELECT value FROM json_each(?))');
    return { docs, shared };
  }

  putSync(collection: string, doc: ReadModelDoc, revision: bigint): boolean {
    this.settleForWrite(collection);
    const entry = this.collection(collection);
    entry.schema.checkDoc(doc, revision);
    this.changes.touch(collection);
    return entry.put.run(doc.id, revision, encodeStoredDoc(doc)).changes > 0;
  }

  deleteSync(collection: string, id: string, revision: bigint): boolean {
    this.settleForWrite(collection);
    const entry = this.collection(collection);
    entry.schema.checkWrite(id, revision);
    this.changes.touch(collection);
    return entry.delete.run(id, revision).changes > 0;
  }

  checkWriteSync(collection: string, id: string, doc: ReadModelDoc | null, revision: bigint): void {
    const { schema } = this.collection(collection);
    if (doc === null) schema.checkWrite(id, revision);
    else schema.checkDoc(doc, revision);
  }

  /**
   * Checks and encodes a put (`doc`) or a delete (`doc` null) exactly as putSync and deleteSync
   * would, without writing: a bad document fails here, where its caller can still undo its own work.
   */
  prepareWriteSync(collection: string, id: string, doc: ReadModelDoc | null, revision: bigint): PreparedWrite {
    const { schema } = this.collection(collection);
    if (doc === null) {
      schema.checkWrite(id, revision);
      return { id, revision, doc: null };
    }
    schema.checkDoc(doc, revision);
    // Encoded as the row will hold it now, while the JSON is young: held for seconds (a write-back
    // document), it is ~100 characters shorter, and the cut is not made on a string the GC has moved.
    return { id: doc.id, revision, doc: encodeStoredDoc(doc) };
  }

  /** Writes prepared puts and deletes, each guarded by revision like putSync and deleteSync; puts go several rows per statement. */
  writeManySync(collection: string, writes: readonly PreparedWrite[]): void {
    this.settleForWrite(collection);
    this.writeRows(collection, writes);
  }

  private writeRows(collection: string, writes: readonly PreparedWrite[]): void {
    const entry = this.collection(collection);
    this.changes.touch(collection);
    // Puts as prepareWriteSync encoded them: the text their rows hold, without the id the row's key holds.
    const puts: PreparedWrite[] = [];
    for (const write of writes) {
      if (write.doc === null) entry.delete.run(write.id, write.revision);
      else puts.push(write);
    }
    for (let start = 0; start < puts.length; start += PUT_MANY_ROWS) {
      const rows = puts.slice(start, start + PUT_MANY_ROWS);
      if (rows.length === 1) {
        entry.put.run(rows[0].id, rows[0].revision, rows[0].doc);
        continue;
      }
      let statement = entry.putMany.get(rows.length);
      if (!statement) {
        statement = this.db.prepare(putSql(entry.table, rows.length));
        entry.putMany.set(rows.length, statement);
      }
      const params: unknown[] = [];
      for (const row of rows) params.push(row.id, row.revision, row.doc);
      statement.run(...params);
    }
  }

  /** What this process's view of the collection reflects: its checkpoint waiting to be written back, else the stored one. */
  getCheckpointSync(name: string): bigint | null {
    return this.overlay.checkpoint(name) ?? (this.getCheckpointStatement.get(name) as bigint | undefined) ?? null;
  }

  setCheckpointSync(name: string, position: bigint): void {
    this.settleForWrite(name);
    this.setCheckpointStatement.run(name, position);
  }

  /**
   * Write-back: documents (derived from committed events only) and the log position the collection
   * then reflects, kept in memory and written later, so a document changed many times is written
   * once. Every read of this store sees them at once: get and getMany from memory; find and count
   * leave their stored versions out and merge them in. Other processes see them once written (within 1.25 × writeBackFlushMs), or
   * through their own catch-up. A crash loses them, not the events: the checkpoint written with the
   * documents is where a replay starts.
   *
   * Every writeBackFlushMs a drain starts, which writeBackStepSync spreads over the next transactions
   * of the event store (no commit of its own, no pause); an idle process, a drain left unfinished, or
   * writeBackMaxDocs waiting make one transaction write everything instead.
   *
   * `appendOnly`: documents of new ids that never change (an immutable projection's), held in a
   * plain list rather than a map entry each.
   */
  writeBackSync(collection: string, docs: readonly WriteBackDoc[], checkpoint: bigint | null, appendOnly = false): void {
    if (docs.length > 0) this.changes.touch(collection);
    this.overlay.add(collection, docs, checkpoint, appendOnly);
    if (this.overlay.size >= this.writeBackMaxDocs && !this.db.inTransaction) {
      this.flushWriteBackSync();
      return;
    }
    if (!this.overlay.empty && !this.closed) this.flushTimer ??= setTimeout(() => this.flushOnTimer(), this.writeBackFlushMs).unref();
  }

  /** Inside someone's write transaction (a group commit): writes the drain's next slice with it. */
  writeBackStepSync(): void {
    const slice = this.overlay.slice(WRITE_BACK_DRAIN_PARTS, WRITE_BACK_MIN_SLICE);
    if (slice) this.writeSlice(slice);
  }

  /** The transaction writeBackStepSync wrote into has committed. */
  writeBackStepCommitted(): void {
    this.overlay.sliceWritten();
    // Past its deadline: the drain asks for transactions of its own until it is done.
    if (this.drainOverdue && this.overlay.draining) this.options.requestTransaction?.();
    else this.drainOverdue = false;
  }

  /** Writes every document and checkpoint waiting, in one transaction. */
  flushWriteBackSync(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.drainDue = false;
    this.drainOverdue = false;
    if (this.overlay.empty) return;
    if (this.db.inTransaction) throw new ReadStoreUsageError('Written-back documents are flushed outside a transaction');
    this.transactionSync(() => this.writeSlice(this.overlay.everything()));
    this.overlay.written();
  }

  private writeSlice(slice: WriteBackSlice): void {
    for (const collection of new Set([...slice.docs.keys(), ...slice.checkpoints.keys()])) {
      // Dropped by another process (a retired generation): nothing left to write to.
      if (this.getSpecStatement.get(collection) === undefined) continue;
      const writes: PreparedWrite[] = [];
      for (const held of slice.docs.get(collection) ?? []) {
        try {
          writes.push(held.json !== undefined ? { id: held.id, revision: held.revision, doc: held.json } : this.prepareWriteSync(collection, held.id, held.doc, held.revision));
        } catch (error) {
          // Checked when applied, so only a document JSON cannot encode gets here: it can never be written.
          this.options.onWriteBackError?.(error);
        }
      }
      if (writes.length > 0) this.writeRows(collection, writes);
      const checkpoint = slice.checkpoints.get(collection);
      if (checkpoint !== undefined) this.advanceCheckpointStatement.run(collection, checkpoint);
    }
  }

  /** Every writeBackFlushMs a drain starts; a quarter of that later, whatever it has not written is written at once. */
  private flushOnTimer(): void {
    this.flushTimer = null;
    let wait = this.writeBackFlushMs;
    try {
      if (this.drainDue) {
        this.drainDue = false;
        // Too few transactions since (an idle process, or a paused writer) to carry it.
        if (this.overlay.draining && this.options.requestTransaction) {
          this.drainOverdue = true;
          this.options.requestTransaction();
        } else if (this.overlay.draining) {
          this.flushWriteBackSync();
        }
      } else if (!this.overlay.empty) {
        this.overlay.startDrain();
        this.drainDue = true;
        wait = Math.ceil(this.writeBackFlushMs / 4);
      }
    } catch (error) {
      this.options.onWriteBackError?.(error);
    }
    if (!this.overlay.empty && !this.closed) this.flushTimer ??= setTimeout(() => this.flushOnTimer(), wait).unref();
    else this.drainDue = false;
  }

  /** A direct write must not be shadowed by an older document waiting in memory. */
  private settleForWrite(collection: string): void {
    if (!this.overlay.has(collection)) return;
    if (this.db.inTransaction) {
      throw new ReadStoreUsageError(`Read model collection "${collection}" has written-back documents; flush them before this transaction`);
    }
    this.flushWriteBackSync();
  }

  getMetaSync<T>(key: string): T | null {
    const json = this.getMetaStatement.get(key) as string | undefined;
    return json === undefined ? null : (JSON.parse(json) as T);
  }

  setMetaSync<T>(key: string, value: T): void {
    if (value === undefined) throw new ReadStoreUsageError(`Meta "${key}" needs a value`);
    this.setMetaStatement.run(key, JSON.stringify(value));
    this.changes.touchLayout();
  }

  changeToken(collections: readonly string[]): string {
    return this.changes.token(collections, this.external.epoch());
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    this.ensureCollectionSync(spec);
  }

  async dropCollection(name: string): Promise<void> {
    this.dropCollectionSync(name);
  }

  async get<Doc extends ReadModelDoc>(collection: string, id: string): Promise<StoredDoc<Doc> | null> {
    return this.getSync<Doc>(collection, id);
  }

  async getMany<Doc extends ReadModelDoc>(collection: string, ids: string[]): Promise<StoredDoc<Doc>[]> {
    return this.getManySync<Doc>(collection, ids);
  }

  async find<Doc extends ReadModelDoc>(collection: string, query: FindQuery): Promise<Doc[]> {
    return this.findSync<Doc>(collection, query);
  }

  async count(collection: string, filters?: Filter[]): Promise<number> {
    return this.countSync(collection, filters);
  }

  async put(collection: string, doc: ReadModelDoc, revision: bigint): Promise<boolean> {
    return this.putSync(collection, doc, revision);
  }

  async delete(collection: string, id: string, revision: bigint): Promise<boolean> {
    return this.deleteSync(collection, id, revision);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return this.getCheckpointSync(name);
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    this.setCheckpointSync(name, position);
  }

  async getMeta<T>(key: string): Promise<T | null> {
    return this.getMetaSync<T>(key);
  }

  async setMeta<T>(key: string, value: T): Promise<void> {
    this.setMetaSync(key, value);
  }

  /** Writes back what waits; the database handle is shared with the event store, whoever opened it closes it. */
  async close(): Promise<void> {
    this.closed = true;
    this.flushWriteBackSync();
  }

  private collection(name: string): SqliteCollection {
    const known = this.collections.get(name);
    if (known) return known;
    // Ensured by another process sharing the file (a CLI rebuild, say).
    const spec = this.getSpecStatement.get(name) as string | undefined;
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
      getMany: this.db
        .prepare(`SELECT id, revision, doc FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) AND deleted = 0`)
        .safeIntegers(true),
      put: this.db.prepare(putSql(table, 1)),
      delete: this.db.prepare(
        `INSERT INTO ${table} AS rm (id, revision, deleted, doc) VALUES (?, ?, 1, NULL)
         ON CONFLICT(id) DO UPDATE SET revision = excluded.revision, deleted = 1, doc = NULL
         WHERE excluded.revision > rm.revision`,
      ),
      putMany: new Map(),
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

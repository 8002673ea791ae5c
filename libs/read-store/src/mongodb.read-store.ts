import type { ClientBulkWriteModel, Collection, Db, Document, MongoClient, Sort } from 'mongodb';
import { StoreUnavailableError } from '../../core/src/errors';
import { ReadModelDoc } from '../../core/src/projection';
import { CollectionSchema, pageSegments, ReadStoreUsageError, checkCollectionName } from './collection-schema';
import { batchAnswers, docsByPart, filterQuery, PartRecord, path, planBatch, replaceOlder, segmentQuery, sortOrder, unionOf, unionPipeline } from './mongodb-queries';
import { COMMAND_NOT_FOUND, DUPLICATE_KEY, isUnavailable, onlyDuplicateKeys } from './mongodb-errors';
import { withDeadline } from '../../core/src/deadline';
import { BatchAnswer, BatchRead, CollectionSpec, CollectionWrites, DocsWanted, DocWrite, Filter, FindQuery, ReadStore, StoredDoc } from './read-store.port';

type Driver = typeof import('mongodb');

interface DocRecord {
  _id: string;
  revision: bigint;
  deleted: boolean;
  doc: ReadModelDoc | null;
}

interface MongoReadStoreOptions {
  /** Defaults to the database named in the URL. */
  database?: string;
  /** Deadline of every operation and of server selection. */
  timeoutMs?: number;
  /** How long a collection's spec is trusted before it is read again. Default 5 s. */
  schemaTtlMs?: number;
}

/** The driver's own timeouts fire first; this margin only catches a call none of them bounds. */
const WATCHDOG_GRACE_MS = 100;
const SCHEMA_TTL_MS = 5_000;
/** Throws the driver's own parse error when it would refuse the connection string; connects to nothing. */
export function checkMongoConnectionString(url: string): void {
  const driver = require('mongodb') as Driver;
  // The constructor only parses: no DNS lookup (mongodb+srv) and no connection before connect().
  new driver.MongoClient(url);
}

/**
 * Read models in MongoDB, one collection per read model: `{_id, revision, deleted, doc}`. The
 * driver is required only by `connect`, so the embedded deployment never loads it.
 */
export class MongoReadStore implements ReadStore {
  private readonly schemas = new Map<string, { schema: CollectionSchema; checkedAt: number }>();
  /** False once the server said it has no cross-collection bulkWrite: writeAll then writes collection by collection. */
  private clientBulkWrite = true;

  private constructor(
    private readonly driver: Driver,
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly timeoutMs: number,
    private readonly schemaTtlMs: number,
  ) {}

  static async connect(url: string, options: MongoReadStoreOptions = {}): Promise<MongoReadStore> {
    const driver = require('mongodb') as Driver;
    const timeoutMs = options.timeoutMs ?? 5000;
    const client = new driver.MongoClient(url, {
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      waitQueueTimeoutMS: timeoutMs,
      // maxTimeMS bounds the server's work; this bounds a peer that stopped answering altogether.
      socketTimeoutMS: timeoutMs * 2,
      ignoreUndefined: true,
      useBigInt64: true,
    });
    const store = new MongoReadStore(driver, client, client.db(options.database), timeoutMs, options.schemaTtlMs ?? SCHEMA_TTL_MS);
    try {
      await store.guard(() => client.connect());
    } catch (error) {
      await client.close();
      throw error;
    }
    return store;
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const schema = new CollectionSchema(spec);
    await this.guard(async () => {
      const indexes = schema.indexPlans.map((plan) => ({
        key: Object.fromEntries([...plan.fields.map((field) => [path(field), 1]), ['_id', 1]]),
        // Tombstones stay out of every index; queries repeat `deleted: false` to use them.
        partialFilterExpression: { deleted: false },
      }));
      const records = this.records(schema.name);
      // An index the spec no longer names would still be rewritten on every write (26: no collection yet).
      const wanted = new Set(indexes.map((index) => JSON.stringify(index.key)));
      const existing = await records
        .listIndexes({ maxTimeMS: this.timeoutMs })
        .toArray()
        .catch((error: unknown) => ((error as { code?: unknown }).code === 26 ? [] : Promise.reject(error)));
      // Only missing indexes are built, without maxTimeMS (which would abort a build on a large collection):
      // waited for up to half the deadline, then left to finish on the server while queries run unindexed.
      const have = new Set(existing.map((index) => JSON.stringify(index.key)));
      const missing = indexes.filter((index) => !have.has(JSON.stringify(index.key)));
      if (missing.length > 0) {
        const build = records.createIndexes(missing).then(() => undefined, () => undefined);
        await Promise.race([build, new Promise<void>((resolve) => setTimeout(resolve, this.timeoutMs / 2).unref())]);
      }
      for (const index of existing) {
        if (index.name !== '_id_' && !wanted.has(JSON.stringify(index.key))) await records.dropIndex(index.name as string, { maxTimeMS: this.timeoutMs });
      }
      await this.specs().replaceOne(
        { _id: schema.name },
        { spec: schema.spec },
        { upsert: true, maxTimeMS: this.timeoutMs },
      );
    });
    this.schemas.set(schema.name, { schema, checkedAt: Date.now() });
  }

  async dropCollection(name: string): Promise<void> {
    checkCollectionName(name);
    await this.guard(async () => {
      await this.db.dropCollection(`rm_${name}`, { maxTimeMS: this.timeoutMs });
      await this.specs().deleteOne({ _id: name }, { maxTimeMS: this.timeoutMs });
    });
    this.schemas.delete(name);
  }

  async get<Doc extends ReadModelDoc>(collection: string, id: string): Promise<StoredDoc<Doc> | null> {
    await this.schema(collection);
    const record = await this.guard(() =>
      this.records(collection).findOne(
        { _id: id, deleted: false },
        { projection: { revision: 1, doc: 1 }, maxTimeMS: this.timeoutMs },
      ),
    );
    return record ? { doc: record.doc as Doc, revision: BigInt(record.revision) } : null;
  }

  async getMany<Doc extends ReadModelDoc>(collection: string, ids: string[]): Promise<StoredDoc<Doc>[]> {
    const wanted = (await this.schema(collection)).checkIds(ids);
    if (wanted.length === 0) return [];
    const records = await this.guard(() =>
      this.records(collection)
        .find(
          { _id: { $in: wanted }, deleted: false },
          { projection: { revision: 1, doc: 1 }, maxTimeMS: this.timeoutMs },
        )
        .toArray(),
    );
    const byId = new Map(records.map((record) => [record._id, record]));
    return wanted.flatMap((id) => {
      const record = byId.get(id);
      return record ? [{ doc: record.doc as Doc, revision: BigInt(record.revision) }] : [];
    });
  }

  async getManyOf(wanted: readonly DocsWanted[]): Promise<StoredDoc[][]> {
    const parts = await Promise.all(wanted.map(async ({ collection, ids }) => ({ table: `rm_${collection}`, ids: (await this.schema(collection)).checkIds(ids) })));
    const union = unionPipeline(parts);
    if (!union) return parts.map(() => []);
    const records = await this.guard(() => this.db.collection(union.table).aggregate<PartRecord>(union.pipeline, { maxTimeMS: this.timeoutMs }).toArray());
    return docsByPart(parts, records);
  }

  async readBatch(reads: readonly BatchRead[]): Promise<BatchAnswer[]> {
    const plan = planBatch(reads, await Promise.all(reads.map(({ collection }) => this.schema(collection))));
    const union = unionOf(plan.branches);
    const [records, ...apart] = await Promise.all([
      union ? this.guard(() => this.db.collection(union.table).aggregate<PartRecord>(union.pipeline, { maxTimeMS: this.timeoutMs }).toArray()) : Promise.resolve([]),
      ...plan.apart.map((part) => this.find(reads[part].collection, reads[part].query as FindQuery)),
    ]);
    return batchAnswers(reads.length, plan, records, apart);
  }

  async find<Doc extends ReadModelDoc>(collection: string, query: FindQuery): Promise<Doc[]> {
    const { filters, sort, limit, after } = (await this.schema(collection)).checkQuery(query);
    const asc = sort.direction === 'asc';
    const order: Sort = sortOrder(sort);
    const base = [{ deleted: false }, ...filters.map(filterQuery)];
    const docs: Doc[] = [];
    for (const segment of pageSegments(sort, after)) {
      if (docs.length >= limit) break;
      const range = segmentQuery(segment, sort.field, asc);
      const records = await this.guard(() =>
        this.records(collection)
          .find(
            { $and: range ? [...base, range] : base },
            { sort: order, limit: limit - docs.length, projection: { doc: 1 }, maxTimeMS: this.timeoutMs },
          )
          .toArray(),
      );
      for (const record of records) docs.push(record.doc as Doc);
    }
    return docs;
  }

  async count(collection: string, filters?: Filter[]): Promise<number> {
    const checked = (await this.schema(collection)).checkFilters(filters);
    const count = await this.guard(() =>
      this.records(collection).countDocuments(
        { $and: [{ deleted: false }, ...checked.map(filterQuery)] },
        { maxTimeMS: this.timeoutMs },
      ),
    );
    // With useBigInt64 a count the server sends as int64 would arrive as a bigint.
    return Number(count);
  }

  async put(collection: string, doc: ReadModelDoc, revision: bigint): Promise<boolean> {
    (await this.schema(collection)).checkDoc(doc, revision);
    // Documents are JSON in every adapter: a Date or an undefined comes back as SQLite would return it.
    const json = JSON.parse(JSON.stringify(doc)) as ReadModelDoc;
    return this.replaceIfNewer(collection, doc.id, revision, { revision, deleted: false, doc: json });
  }

  async delete(collection: string, id: string, revision: bigint): Promise<boolean> {
    (await this.schema(collection)).checkWrite(id, revision);
    return this.replaceIfNewer(collection, id, revision, { revision, deleted: true, doc: null });
  }

  async writeMany(collection: string, writes: readonly DocWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const schema = await this.schema(collection);
    const operations = writes.map((write) => ({ replaceOne: replaceOlder(schema.checkDocWrite(write)) }));
    await this.guard(async () => {
      try {
        await this.records(collection).bulkWrite(operations, { ordered: false, maxTimeMS: this.timeoutMs });
      } catch (error) {
        // A duplicate key is an upsert that met a newer stored revision: that write is a no-op, as in put.
        if (!onlyDuplicateKeys(error, DUPLICATE_KEY)) throw error;
      }
    });
  }

  async writeAll(batches: readonly CollectionWrites[]): Promise<void> {
    const filled = batches.filter((batch) => batch.writes.length > 0);
    if (filled.length < 2 || !this.clientBulkWrite) {
      for (const { collection, writes } of filled) await this.writeMany(collection, writes);
      return;
    }
    const models: ClientBulkWriteModel<Record<string, DocRecord>>[] = [];
    for (const { collection, writes } of filled) {
      const schema = await this.schema(collection);
      const namespace = `${this.db.databaseName}.rm_${collection}`;
      for (const write of writes) models.push({ name: 'replaceOne' as const, namespace, ...replaceOlder(schema.checkDocWrite(write)) });
    }
    try {
      await this.guard(() => this.client.bulkWrite<Record<string, DocRecord>>(models, { ordered: false, maxTimeMS: this.timeoutMs }));
    } catch (error) {
      if (onlyDuplicateKeys(error, DUPLICATE_KEY)) return;
      if (!(error instanceof this.driver.MongoServerError && error.code === COMMAND_NOT_FOUND)) throw error;
      this.clientBulkWrite = false;
      await this.writeAll(filled);
    }
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    const record = await this.guard(() => this.checkpoints().findOne({ _id: name }, { maxTimeMS: this.timeoutMs }));
    return record ? BigInt(record.position) : null;
  }

  /** Instances and the worker advance the same checkpoints: a slow one must not set back what a faster one recorded. */
  async setCheckpoint(name: string, position: bigint): Promise<void> {
    try {
      await this.guard(() =>
        this.checkpoints().updateOne(
          { _id: name, position: { $lt: position } },
          { $set: { position } },
          { upsert: true, maxTimeMS: this.timeoutMs },
        ),
      );
    } catch (error) {
      // The upsert found no older checkpoint and could not insert: one as new or newer is there already.
      if (!(error instanceof this.driver.MongoServerError && error.code === DUPLICATE_KEY)) throw error;
    }
  }

  async setCheckpoints(names: readonly string[], position: bigint): Promise<void> {
    if (names.length === 0) return;
    const operations = names.map((name) => ({ updateOne: { filter: { _id: name, position: { $lt: position } }, update: { $set: { position } }, upsert: true } }));
    await this.guard(() => this.checkpoints().bulkWrite(operations, { ordered: false, maxTimeMS: this.timeoutMs })).catch((error: unknown) => {
      if (!onlyDuplicateKeys(error, DUPLICATE_KEY)) throw error;
    });
  }

  async resetCheckpoint(name: string): Promise<void> {
    await this.guard(() => this.checkpoints().deleteOne({ _id: name }, { maxTimeMS: this.timeoutMs }));
  }

  async getMeta<T>(key: string): Promise<T | null> {
    const record = await this.guard(() => this.metaRecords().findOne({ _id: key }, { maxTimeMS: this.timeoutMs }));
    return record ? (JSON.parse(record.value) as T) : null;
  }

  async setMeta<T>(key: string, value: T): Promise<void> {
    if (value === undefined) throw new ReadStoreUsageError(`Meta "${key}" needs a value`);
    // Stored as JSON text so every adapter hands back exactly what JSON would.
    const json = JSON.stringify(value);
    await this.guard(() =>
      this.metaRecords().replaceOne({ _id: key }, { value: json }, { upsert: true, maxTimeMS: this.timeoutMs }),
    );
  }

  /** The worker's daemon and other instances write MongoDB directly: this process cannot know what changed. */
  changeToken(): null {
    return null;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * The filter matches only an older record; when there is none the upsert inserts, and when the
   * stored one is as new or newer the insert fails on the duplicate _id. That failure is
   * ambiguous once: a concurrent writer may have inserted an older record after our filter ran,
   * so the write is tried a second time, when the record surely exists.
   */
  private async replaceIfNewer(
    collection: string,
    id: string,
    revision: bigint,
    replacement: Omit<DocRecord, '_id'>,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.guard(() =>
          this.records(collection).replaceOne({ _id: id, revision: { $lt: revision } }, replacement, {
            upsert: true,
            maxTimeMS: this.timeoutMs,
          }),
        );
        return result.modifiedCount + result.upsertedCount > 0;
      } catch (error) {
        if (!(error instanceof this.driver.MongoServerError && error.code === DUPLICATE_KEY)) throw error;
        if (attempt === 2) return false;
      }
    }
  }

  private records(collection: string): Collection<DocRecord> {
    return this.db.collection<DocRecord>(`rm_${collection}`);
  }

  private specs(): Collection<{ _id: string; spec: CollectionSpec }> {
    return this.db.collection('rm_collections');
  }

  private checkpoints(): Collection<{ _id: string; position: bigint }> {
    return this.db.collection('rm_checkpoints');
  }

  private metaRecords(): Collection<{ _id: string; value: string }> {
    return this.db.collection('rm_meta');
  }

  /**
   * The collection's spec, re-read every `schemaTtlMs`: collections are ensured and dropped by other
   * processes too (a CLI rebuild retires a generation), and a dropped one must stop answering here.
   */
  private async schema(name: string): Promise<CollectionSchema> {
    const known = this.schemas.get(name);
    const now = Date.now();
    if (known && now - known.checkedAt < this.schemaTtlMs) return known.schema;
    const record = await this.guard(() => this.specs().findOne({ _id: name }, { maxTimeMS: this.timeoutMs }));
    if (!record) {
      this.schemas.delete(name);
      throw new ReadStoreUsageError(`Read model collection "${name}" does not exist`);
    }
    const schema = known && sameSpec(known.schema.spec, record.spec) ? known.schema : new CollectionSchema(record.spec);
    this.schemas.set(name, { schema, checkedAt: now });
    return schema;
  }

  /** Runs one driver call under the deadline; whatever says the server cannot answer becomes StoreUnavailableError. */
  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    const running = operation();
    try {
      // An abandoned call settles later (the socket timeout ends it); nobody waits for it.
      const late = () => new StoreUnavailableError(`MongoDB did not answer within ${this.timeoutMs} ms`);
      return await withDeadline(running, this.timeoutMs + WATCHDOG_GRACE_MS, late);
    } catch (error) {
      throw isUnavailable(this.driver, error)
        ? new StoreUnavailableError('The MongoDB read store is unavailable', error)
        : error;
    }
  }

}

function sameSpec(a: CollectionSpec, b: CollectionSpec): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

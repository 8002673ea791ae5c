import { ReadModelDoc } from '../../core/src/projection';
import { ChangeCounters, CheckedFilter, CollectionSchema, ReadStoreUsageError, checkCollectionName } from './collection-schema';
import { compareStrings, compareValues, matches, SortKey, scalarAt } from './doc-match';
import { BatchAnswer, BatchRead, CollectionSpec, CollectionWrites, DocsWanted, DocWrite, Filter, FindQuery, ReadStore, StoredDoc } from './read-store.port';

interface Row {
  revision: bigint;
  /** JSON text, as a real store would keep it; null for a tombstone. */
  json: string | null;
  doc: ReadModelDoc | null;
}

interface MemoryCollection {
  schema: CollectionSchema;
  rows: Map<string, Row>;
}

/** The reference adapter: the contract suite holds it to the same behaviour as SQLite and MongoDB. */
export class InMemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection>();
  private readonly checkpoints = new Map<string, bigint>();
  private readonly meta = new Map<string, string>();
  private readonly changes = new ChangeCounters();

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const schema = new CollectionSchema(spec);
    const existing = this.collections.get(schema.name);
    this.collections.set(schema.name, { schema, rows: existing?.rows ?? new Map() });
    this.changes.touchLayout();
  }

  async dropCollection(name: string): Promise<void> {
    this.collections.delete(checkCollectionName(name));
    this.changes.touchLayout();
  }

  async get<Doc extends ReadModelDoc>(collection: string, id: string): Promise<StoredDoc<Doc> | null> {
    const row = this.collection(collection).rows.get(id);
    return row?.json ? { doc: JSON.parse(row.json) as Doc, revision: row.revision } : null;
  }

  async getMany<Doc extends ReadModelDoc>(collection: string, ids: string[]): Promise<StoredDoc<Doc>[]> {
    const { schema, rows } = this.collection(collection);
    return schema.checkIds(ids).flatMap((id) => {
      const row = rows.get(id);
      return row?.json ? [{ doc: JSON.parse(row.json) as Doc, revision: row.revision }] : [];
    });
  }

  async getManyOf(wanted: readonly DocsWanted[]): Promise<StoredDoc[][]> {
    return Promise.all(wanted.map(({ collection, ids }) => this.getMany(collection, ids)));
  }

  async readBatch(reads: readonly BatchRead[]): Promise<BatchAnswer[]> {
    for (const { collection } of reads) this.collection(collection);
    return Promise.all(reads.map((read) => (read.query ? this.find(read.collection, read.query) : this.getMany(read.collection, read.ids ?? []))));
  }

  async find<Doc extends ReadModelDoc>(collection: string, query: FindQuery): Promise<Doc[]> {
    const { schema, rows } = this.collection(collection);
    const { filters, sort, limit, after } = schema.checkQuery(query);
    const sign = sort.direction === 'asc' ? 1 : -1;
    const compare = (a: SortKey, b: SortKey) => sign * (compareValues(a[0], b[0]) || compareStrings(a[1], b[1]));
    const keyOf = (doc: ReadModelDoc): SortKey => [sort.field === 'id' ? null : scalarAt(doc, sort.field), doc.id];
    const cursor: SortKey | undefined = after && [sort.field === 'id' ? null : after.value, after.id];
    return this.live(rows, filters)
      .filter((row) => !cursor || compare(keyOf(row.doc), cursor) > 0)
      .sort((a, b) => compare(keyOf(a.doc), keyOf(b.doc)))
      .slice(0, limit)
      .map((row) => JSON.parse(row.json) as Doc);
  }

  async count(collection: string, filters?: Filter[]): Promise<number> {
    const { schema, rows } = this.collection(collection);
    return this.live(rows, schema.checkFilters(filters)).length;
  }

  async put(collection: string, doc: ReadModelDoc, revision: bigint): Promise<boolean> {
    const { schema, rows } = this.collection(collection);
    schema.checkDoc(doc, revision);
    this.changes.touch(collection);
    if (!this.isNewer(rows, doc.id, revision)) return false;
    const json = JSON.stringify(doc);
    rows.set(doc.id, { revision, json, doc: JSON.parse(json) as ReadModelDoc });
    return true;
  }

  async delete(collection: string, id: string, revision: bigint): Promise<boolean> {
    const { schema, rows } = this.collection(collection);
    schema.checkWrite(id, revision);
    this.changes.touch(collection);
    if (!this.isNewer(rows, id, revision)) return false;
    rows.set(id, { revision, json: null, doc: null });
    return true;
  }

  async writeMany(collection: string, writes: readonly DocWrite[]): Promise<void> {
    for (const { id, doc, revision } of writes) await (doc ? this.put(collection, doc, revision) : this.delete(collection, id, revision));
  }

  async writeAll(batches: readonly CollectionWrites[]): Promise<void> {
    for (const { collection } of batches) this.collection(collection);
    for (const { collection, writes } of batches) await this.writeMany(collection, writes);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.get(name) ?? null;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    const stored = this.checkpoints.get(name);
    if (stored === undefined || stored < position) this.checkpoints.set(name, position);
  }

  async setCheckpoints(names: readonly string[], position: bigint): Promise<void> {
    for (const name of names) await this.setCheckpoint(name, position);
  }

  async resetCheckpoint(name: string): Promise<void> {
    this.checkpoints.delete(name);
  }

  async getMeta<T>(key: string): Promise<T | null> {
    const json = this.meta.get(key);
    return json === undefined ? null : (JSON.parse(json) as T);
  }

  async setMeta<T>(key: string, value: T): Promise<void> {
    if (value === undefined) throw new ReadStoreUsageError(`Meta "${key}" needs a value`);
    this.meta.set(key, JSON.stringify(value));
    this.changes.touchLayout();
  }

  changeToken(collections: readonly string[]): string | null {
    return this.changes.token(collections);
  }

  async close(): Promise<void> {}

  private collection(name: string): MemoryCollection {
    const collection = this.collections.get(name);
    if (!collection) throw new ReadStoreUsageError(`Read model collection "${name}" does not exist`);
    return collection;
  }

  private isNewer(rows: Map<string, Row>, id: string, revision: bigint): boolean {
    const stored = rows.get(id);
    return !stored || stored.revision < revision;
  }

  private live(rows: Map<string, Row>, filters: CheckedFilter[]): { json: string; doc: ReadModelDoc }[] {
    const result: { json: string; doc: ReadModelDoc }[] = [];
    for (const { json, doc } of rows.values()) {
      if (json !== null && doc !== null && filters.every((filter) => matches(doc, filter))) result.push({ json, doc });
    }
    return result;
  }
}

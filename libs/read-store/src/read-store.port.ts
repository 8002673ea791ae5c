import { Collection, collectionOf, IndexDeclaration, ReadModelDoc } from '../../core/src/projection';

type FilterOp = 'eq' | 'in' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte';

/** A filter on a declared index. `contains` matches array fields holding the value. */
export interface Filter {
  field: string;
  op: FilterOp;
  value: unknown;
}

/** Missing and null values sort before every other value; a field should hold one type. */
export interface SortSpec {
  field: string;
  direction: 'asc' | 'desc';
}

/** Position after which a page starts: the last entry's sort value and id. */
export interface PageAfter {
  value: string | number | null;
  id: string;
}

export interface FindQuery {
  filters?: Filter[];
  /** Ties are broken by id in the same direction. Default: id ascending. */
  sort?: SortSpec;
  limit: number;
  after?: PageAfter;
}

export interface StoredDoc<Doc extends ReadModelDoc = ReadModelDoc> {
  doc: Doc;
  /** The revision of its stream the document reflects (the one meaning of `revision` in the read store). */
  revision: bigint;
}

/** A put (`doc`) or, with a null doc, a delete, guarded by revision like put and delete. */
export interface DocWrite<Doc extends ReadModelDoc = ReadModelDoc> {
  id: string;
  doc: Doc | null;
  revision: bigint;
}

/** The ids wanted of one collection, in a read of several (`getManyOf`). */
export interface DocsWanted {
  collection: string;
  ids: string[];
}

/** One read of several sent together (`readBatch`): documents by id, as getMany, or one page of a find. */
export type BatchRead = { collection: string; ids: string[]; query?: undefined } | { collection: string; query: FindQuery; ids?: undefined };

/** What a BatchRead answers: by ids, what getMany answers; a find, what find answers. */
export type BatchAnswer = StoredDoc[] | ReadModelDoc[];

/** The writes to one collection, in a write to several (`writeAll`). */
export interface CollectionWrites {
  collection: string;
  writes: readonly DocWrite[];
}

export interface CollectionSpec {
  /** Physical name, unique per projection version and generation. */
  name: string;
  indexes: readonly IndexDeclaration[];
  /** The projection's list sort; adapters build compound indexes (field, sortField, id) for it. */
  sortField?: string;
}

/**
 * The read side's storage. Writes are guarded by the stream revision the document reflects: a put or
 * delete whose revision is not newer than the stored one is a no-op (returns false). Records no
 * projection owns are written by compare-and-set through `VersionedRecords`. Deletes leave a tombstone so that a stale
 * replay cannot bring a document back. A collection is named by a `Collection<Doc>` handle (from
 * `ProjectionEngine.collection` or `collectionOf`), which types the documents, or by a plain string.
 */
export interface ReadStore {
  /** Idempotent. Records the spec, so every process sharing the store can use the collection; unknown ones throw. */
  ensureCollection(spec: CollectionSpec): Promise<void>;
  dropCollection(name: string): Promise<void>;

  get<Doc extends ReadModelDoc>(collection: Collection<Doc>, id: string): Promise<StoredDoc<Doc> | null>;
  /** In the order of `ids`; missing and deleted ids are skipped, repeated ones returned once. */
  getMany<Doc extends ReadModelDoc>(collection: Collection<Doc>, ids: string[]): Promise<StoredDoc<Doc>[]>;
  /** getMany of several collections in one round trip (an append's documents in every read model it touches); answers in the order asked. */
  getManyOf(wanted: readonly DocsWanted[]): Promise<StoredDoc[][]>;
  /**
   * Several getMany and find reads, of any collections, in one round trip (MongoDB: one aggregation; a
   * find with `after` may cost one more); answers in the order asked. `BatchedReads` sends the reads a
   * request makes together through it.
   */
  readBatch(reads: readonly BatchRead[]): Promise<BatchAnswer[]>;
  /** Filters and sorts only on declared indexes (and id); anything else throws. */
  find<Doc extends ReadModelDoc>(collection: Collection<Doc>, query: FindQuery): Promise<Doc[]>;
  count(collection: string, filters?: Filter[]): Promise<number>;

  put<Doc extends ReadModelDoc>(collection: Collection<Doc>, doc: Doc, revision: bigint): Promise<boolean>;
  delete(collection: string, id: string, revision: bigint): Promise<boolean>;
  /** Many puts and deletes of one collection in one round trip (the projection runner's batches). */
  writeMany<Doc extends ReadModelDoc>(collection: Collection<Doc>, writes: readonly DocWrite<Doc>[]): Promise<void>;
  /** writeMany of several collections in one round trip; each write is guarded on its own, as in writeMany. */
  writeAll(batches: readonly CollectionWrites[]): Promise<void>;

  getCheckpoint(name: string): Promise<bigint | null>;
  /** Moves forward only: a position not after the stored one changes nothing (a slower instance cannot set it back). */
  setCheckpoint(name: string, position: bigint): Promise<void>;
  /** setCheckpoint of several checkpoints to one position in one round trip (the daemon's pass over every read model). */
  setCheckpoints(names: readonly string[], position: bigint): Promise<void>;
  /** Forgets a checkpoint, so the next catch-up reads the log from its start (a replay). */
  resetCheckpoint(name: string): Promise<void>;

  /** Small key/value records the projection runner keeps (active generations and the like). */
  getMeta<T>(key: string): Promise<T | null>;
  setMeta<T>(key: string, value: T): Promise<void>;

  /**
   * For in-process caches of answers built from these collections: a value that changes whenever a
   * document in any of them may have changed — at once for writes made through this store, within
   * ~100 ms for writes by other processes. Null when the adapter cannot know (other processes write
   * the store directly): then nothing may be cached across requests.
   */
  changeToken(collections: readonly string[]): string | null;

  close(): Promise<void>;
}

export const READ_STORE = Symbol('READ_STORE');

/** A secret or setting every instance must agree on, in the shared `settings` collection. */
interface SettingDoc {
  id: string;
  value: string;
  [field: string]: unknown;
}

export const SETTINGS = collectionOf<SettingDoc>('settings');

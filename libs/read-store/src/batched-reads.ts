import { AsyncLocalStorage } from 'node:async_hooks';
import { Collection, ReadModelDoc } from '../../core/src/projection';
import {
  BatchAnswer,
  BatchRead,
  CollectionSpec,
  CollectionWrites,
  DocsWanted,
  DocWrite,
  Filter,
  FindQuery,
  ReadStore,
  StoredDoc,
} from './read-store.port';

interface Waiting {
  read: BatchRead;
  resolve(answer: BatchAnswer): void;
  reject(error: unknown): void;
}

/** The reads of one `together` scope not sent yet. */
interface Batch {
  waiting: Waiting[];
  scheduled: boolean;
}

const scopes = new AsyncLocalStorage<Batch>();

/**
 * The read store as the app's code sees it. Inside `together(work)`, every get, getMany and find waits for
 * the end of the event loop's turn, and the reads waiting then go out as one `readBatch`: a request that
 * asks several read models at once (a public page) pays one round trip where it paid one per read. Code
 * reaches concurrency by asking with Promise.all, as it would anyway; outside a scope every call goes
 * straight through, and so does everything but those three reads.
 */
export class BatchingReadStore implements ReadStore {
  constructor(private readonly inner: ReadStore) {}

  /** Runs `work` with its reads batched (a scope inside another joins it). */
  static together<T>(work: () => Promise<T>): Promise<T> {
    return scopes.getStore() ? work() : scopes.run({ waiting: [], scheduled: false }, work);
  }

  async get<Doc extends ReadModelDoc>(collection: Collection<Doc>, id: string): Promise<StoredDoc<Doc> | null> {
    const batch = scopes.getStore();
    if (!batch) return this.inner.get(collection, id);
    const [found] = (await this.wait(batch, { collection, ids: [id] })) as StoredDoc<Doc>[];
    return found ?? null;
  }

  getMany<Doc extends ReadModelDoc>(collection: Collection<Doc>, ids: string[]): Promise<StoredDoc<Doc>[]> {
    const batch = scopes.getStore();
    if (!batch) return this.inner.getMany(collection, ids);
    return this.wait(batch, { collection, ids }) as Promise<StoredDoc<Doc>[]>;
  }

  find<Doc extends ReadModelDoc>(collection: Collection<Doc>, query: FindQuery): Promise<Doc[]> {
    const batch = scopes.getStore();
    if (!batch) return this.inner.find(collection, query);
    return this.wait(batch, { collection, query }) as Promise<Doc[]>;
  }

  readBatch(reads: readonly BatchRead[]): Promise<BatchAnswer[]> {
    return this.inner.readBatch(reads);
  }

  ensureCollection(spec: CollectionSpec): Promise<void> {
    return this.inner.ensureCollection(spec);
  }

  dropCollection(name: string): Promise<void> {
    return this.inner.dropCollection(name);
  }

  getManyOf(wanted: readonly DocsWanted[]): Promise<StoredDoc[][]> {
    return this.inner.getManyOf(wanted);
  }

  count(collection: string, filters?: Filter[]): Promise<number> {
    return this.inner.count(collection, filters);
  }

  put<Doc extends ReadModelDoc>(collection: Collection<Doc>, doc: Doc, revision: bigint): Promise<boolean> {
    return this.inner.put(collection, doc, revision);
  }

  delete(collection: string, id: string, revision: bigint): Promise<boolean> {
    return this.inner.delete(collection, id, revision);
  }

  writeMany<Doc extends ReadModelDoc>(collection: Collection<Doc>, writes: readonly DocWrite<Doc>[]): Promise<void> {
    return this.inner.writeMany(collection, writes);
  }

  writeAll(batches: readonly CollectionWrites[]): Promise<void> {
    return this.inner.writeAll(batches);
  }

  getCheckpoint(name: string): Promise<bigint | null> {
    return this.inner.getCheckpoint(name);
  }

  setCheckpoint(name: string, position: bigint): Promise<void> {
    return this.inner.setCheckpoint(name, position);
  }

  setCheckpoints(names: readonly string[], position: bigint): Promise<void> {
    return this.inner.setCheckpoints(names, position);
  }

  resetCheckpoint(name: string): Promise<void> {
    return this.inner.resetCheckpoint(name);
  }

  getMeta<T>(key: string): Promise<T | null> {
    return this.inner.getMeta<T>(key);
  }

  setMeta<T>(key: string, value: T): Promise<void> {
    return this.inner.setMeta(key, value);
  }

  changeToken(collections: readonly string[]): string | null {
    return this.inner.changeToken(collections);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private wait(batch: Batch, read: BatchRead): Promise<BatchAnswer> {
    return new Promise<BatchAnswer>((resolve, reject) => {
      batch.waiting.push({ read, resolve, reject });
      if (batch.scheduled) return;
      batch.scheduled = true;
      // After every microtask of this turn: reads issued together by Promise.all, however deep, are all waiting by then.
      setImmediate(() => this.send(batch));
    });
  }

  private send(batch: Batch): void {
    const waiting = batch.waiting.splice(0);
    batch.scheduled = false;
    const answered = waiting.length === 1 ? this.alone(waiting[0].read).then((answer) => [answer]) : this.inner.readBatch(waiting.map(({ read }) => read));
    answered.then(
      (answers) => waiting.forEach(({ resolve }, i) => resolve(answers[i])),
      (error: unknown) => waiting.forEach(({ reject }) => reject(error)),
    );
  }

  /** A read with no company goes out as itself. */
  private alone(read: BatchRead): Promise<BatchAnswer> {
    return read.query ? this.inner.find(read.collection, read.query) : this.inner.getMany(read.collection, read.ids ?? []);
  }
}

import { Collection, ReadModelDoc } from '../../core/src/projection';
import { ReadStore } from './read-store.port';

/** A record no projection owns, with its version: 1 when inserted, one more on every write. */
export interface VersionedRecord<Doc extends ReadModelDoc> {
  doc: Doc;
  version: bigint;
}

/**
 * Records that no projection owns (outbox entries, shared settings), changed by compare-and-set on
 * their version. The adapters keep the version where a projection document keeps its stream revision;
 * only this class reads it as a version, so `revision` keeps one meaning everywhere else.
 */
export class VersionedRecords<Doc extends ReadModelDoc> {
  constructor(
    private readonly store: ReadStore,
    readonly collection: Collection<Doc>,
  ) {}

  async get(id: string): Promise<VersionedRecord<Doc> | null> {
    const stored = await this.store.get(this.collection, id);
    return stored ? { doc: stored.doc, version: stored.revision } : null;
  }

  /** In the order of `ids`, skipping missing ones. */
  async getMany(ids: string[]): Promise<VersionedRecord<Doc>[]> {
    return (await this.store.getMany(this.collection, ids)).map((stored) => ({ doc: stored.doc, version: stored.revision }));
  }

  /** Adds the record unless one with its id exists (racing writers agree on the first); true when added. */
  insert(doc: Doc): Promise<boolean> {
    return this.store.put(this.collection, doc, 1n);
  }

  /** Writes the next version of a record read at `version`; false when another writer got there first. */
  compareAndSet(doc: Doc, version: bigint): Promise<boolean> {
    return this.store.put(this.collection, doc, version + 1n);
  }

  /** Deletes a record read at `version`, unless another writer changed it since. */
  compareAndDelete(id: string, version: bigint): Promise<boolean> {
    return this.store.delete(this.collection, id, version + 1n);
  }
}

import { DocWrite, StoredDoc } from './read-store.port';

/** The synchronous reads and writes inline projections make inside the embedded append transaction. */
export interface InlineAccess {
  getMany(collection: string, ids: string[]): StoredDoc[];
  writeMany(collection: string, writes: readonly DocWrite[]): void;
  /** Every stored checkpoint, by name: one read per batch. */
  checkpoints(): Map<string, bigint>;
  /** Moves the checkpoints `names` to `position` in one write. */
  setCheckpoints(names: readonly string[], position: bigint): void;
}

export interface EngineLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

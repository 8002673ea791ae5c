import type { Statement } from 'better-sqlite3';
import { SqliteDatabase } from './sqlite-database';

/** Streams kept: every check's heartbeat stream on a large install, a few MB at most. */
const KEPT = 20_000;

export interface StreamRow {
  id: bigint;
  /** The newest revision (-1: none yet). */
  revision: bigint;
}

/**
 * Each stream's row id and revision as this connection last appended to it (the Ping intake target: an append
 * reads no stream row). Forgotten when another connection has committed (`PRAGMA data_version`, read at each
 * batch's start inside its write transaction) and when a batch is taken back.
 */
export class StreamRows {
  private readonly rows = new Map<string, StreamRow>();
  private readonly dataVersion: Statement;
  private version: unknown = undefined;

  constructor(
    db: SqliteDatabase,
    private readonly read: Statement,
  ) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** At a batch's start, inside its write transaction: whether another connection has committed since the last batch (all is forgotten). */
  begin(): boolean {
    const version = this.dataVersion.get();
    const changed = version !== this.version;
    if (changed) this.rows.clear();
    this.version = version;
    return changed;
  }

  /** The stream's row, or undefined when it has none. */
  get(stream: string): StreamRow | undefined {
    return this.rows.get(stream) ?? (this.read.get(stream) as StreamRow | undefined);
  }

  /** After an append to `stream` that reached `revision`, inside the batch. */
  set(stream: string, id: bigint, revision: bigint): void {
    this.rows.delete(stream);
    this.rows.set(stream, { id, revision });
    if (this.rows.size > KEPT) this.rows.delete(this.rows.keys().next().value as string);
  }

  clear(): void {
    this.rows.clear();
  }
}

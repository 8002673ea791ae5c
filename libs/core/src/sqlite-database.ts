import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/**
 * Opens the embedded database shared by the event store and the read store. WAL lets readers run
 * beside the one writer; synchronous=FULL makes every commit durable (one fsync per commit, which
 * group commit shares between many appends); busy_timeout lets the CLI write while the server runs.
 * temp_store=MEMORY keeps statement and savepoint sub-journals (the original of every page a statement
 * changes) in memory: on disk each cost a write() per page, once a fifth of the ping path's time.
 */
export function openSqliteDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  db.defaultSafeIntegers(false);
  return db;
}

/** How often, at most, a process looks whether another one has committed to the shared file. */
export const EXTERNAL_CHANGES_POLL_MS = 100;

/**
 * Counts the commits other connections (the CLI, another instance, a rebuild) made to the database,
 * from `PRAGMA data_version`, read at most every `pollMs` and only when asked. Caches of this process
 * compare `epoch()` to notice that what another process wrote may have made them stale.
 */
export class ExternalChanges {
  private readonly dataVersion: Database.Statement;
  private lastVersion: unknown = undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(
    db: SqliteDatabase,
    private readonly pollMs = EXTERNAL_CHANGES_POLL_MS,
  ) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  epoch(): number {
    const now = Date.now();
    if (now - this.checkedAt >= this.pollMs) {
      this.checkedAt = now;
      const version = this.dataVersion.get();
      if (version !== this.lastVersion) {
        if (this.lastVersion !== undefined) this.count += 1;
        this.lastVersion = version;
      }
    }
    return this.count;
  }
}

const externalChanges = new WeakMap<SqliteDatabase, ExternalChanges>();

/** The one ExternalChanges of a connection, shared by the stores that use it. */
export function externalChangesOf(db: SqliteDatabase): ExternalChanges {
  let changes = externalChanges.get(db);
  if (!changes) {
    changes = new ExternalChanges(db);
    externalChanges.set(db, changes);
  }
  return changes;
}

import Database from 'better-sqlite3';
import { closeSync, fsync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { withDeadline } from '../../core/src/deadline';

export type SqliteDatabase = Database.Database & {
  /** Settles once everything committed before the call is on disk. */
  durable(): Promise<void>;
};

/**
 * Opens the embedded database shared by the event store and the read store. WAL lets readers run
 * beside the one writer; busy_timeout lets the CLI write while the server runs. SQLite's own
 * autocheckpoint keeps the WAL short, and journal_size_limit cuts back one a burst grew.
 * Commits do not fsync (synchronous=NORMAL; SQLite still syncs around each checkpoint, so the file
 * never corrupts): `durable()` fsyncs the WAL on the thread pool, and writers answer only after it.
 * The event loop accepts one connection per turn: a turn that waited for the disk held up every new
 * connection (pings from cron jobs, a connection each; docs/decisions.md).
 */
export function openSqliteDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  db.pragma('wal_autocheckpoint = 1000');
  db.pragma('journal_size_limit = 67108864');
  db.defaultSafeIntegers(false);
  if (db.memory) return Object.assign(db, { durable: () => Promise.resolve() });
  // SQLite holds no lock on the WAL file, so closing this descriptor releases none of its locks.
  let wal: number | null = null;
  const close = db.close.bind(db);
  return Object.assign(db, {
    durable: groupSync(
      () =>
        new Promise<void>((resolve, reject) => {
          wal ??= openSync(`${file}-wal`, 'r');
          fsync(wal, (error) => (error ? reject(error) : resolve()));
        }),
    ),
    close() {
      if (wal !== null) closeSync(wal);
      wal = null;
      return close();
    },
  });
}

/** An fsync still running after this long counts as failed: its writers answer 503 instead of hanging. */
const SYNC_DEADLINE_MS = 10_000;

/**
 * Group sync: a call while a sync runs waits for the next one, which starts when the running one ends and so
 * covers everything written before the call; every caller of one sync shares its outcome. A sync past its
 * deadline fails its callers and frees the way for the next one.
 */
export function groupSync(sync: () => Promise<void>, deadlineMs = SYNC_DEADLINE_MS): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const current: Promise<void> = withDeadline(sync(), deadlineMs, () => new Error(`fsync still running after ${deadlineMs} ms`)).finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  return () => {
    if (running === null) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

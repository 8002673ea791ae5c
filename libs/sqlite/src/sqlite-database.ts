import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/**
 * Opens the embedded database shared by the event store and the read store. WAL lets readers run
 * beside the one writer; synchronous=FULL makes every commit durable (one fsync per commit, which
 * group commit shares between many appends); busy_timeout lets the CLI write while the server runs.
 * SQLite's own autocheckpoint keeps the WAL short, and journal_size_limit cuts back one a burst grew.
 */
export function openSqliteDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  db.pragma('wal_autocheckpoint = 1000');
  db.pragma('journal_size_limit = 67108864');
  db.defaultSafeIntegers(false);
  return db;
}

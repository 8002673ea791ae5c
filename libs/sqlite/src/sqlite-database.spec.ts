import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from './sqlite-database';

describe('openSqliteDatabase', () => {
  it('opens in WAL mode, durable commits, savepoint journals in memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-sqlite-'));
    const db = openSqliteDatabase(join(dir, 'nested', 'vigil.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      expect(db.pragma('journal_size_limit', { simple: true })).toBe(67108864);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

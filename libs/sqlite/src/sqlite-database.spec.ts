import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupSync, openSqliteDatabase } from './sqlite-database';

describe('openSqliteDatabase', () => {
  it('opens in WAL mode, commits without an fsync of their own, savepoint journals in memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-sqlite-'));
    const db = openSqliteDatabase(join(dir, 'nested', 'vigil.db'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL: durable() fsyncs instead
      expect(db.pragma('temp_store', { simple: true })).toBe(2); // MEMORY
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      expect(db.pragma('journal_size_limit', { simple: true })).toBe(67108864);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fsyncs the WAL of a file database, and closes its descriptor with the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-sqlite-'));
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    const db = openSqliteDatabase(join(dir, 'vigil.db'));
    try {
      db.exec('CREATE TABLE t (x)');
      db.prepare('INSERT INTO t VALUES (1)').run();
      await expect(Promise.all([db.durable(), db.durable()])).resolves.toEqual([undefined, undefined]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(descriptors()).toBe(before);
  });

  it('answers at once for a database in memory', async () => {
    const db = openSqliteDatabase(':memory:');
    await expect(db.durable()).resolves.toBeUndefined();
    db.close();
  });
});

describe('groupSync', () => {
  /** A sync that stays pending until the test settles it. */
  function controlledSync() {
    const started: { release: () => void; fail: (error: Error) => void }[] = [];
    const sync = () => new Promise<void>((resolve, reject) => started.push({ release: resolve, fail: reject }));
    return { sync, started };
  }
  const state = async (promise: Promise<unknown>) => {
    let outcome = 'pending';
    promise.then(
      () => (outcome = 'resolved'),
      () => (outcome = 'rejected'),
    );
    for (let i = 0; i < 10; i++) await Promise.resolve();
    return outcome;
  };

  it('makes a call during a running sync wait for the next one, shared by all who called meanwhile', async () => {
    const { sync, started } = controlledSync();
    const durable = groupSync(sync);
    const first = durable();
    const second = durable();
    const third = durable();
    expect(started).toHaveLength(1);
    started[0].release();
    expect(await state(first)).toBe('resolved');
    // The running sync may have begun before their writes: they wait for one that starts after it.
    expect(await state(second)).toBe('pending');
    expect(started).toHaveLength(2);
    started[1].release();
    expect(await state(second)).toBe('resolved');
    expect(await state(third)).toBe('resolved');
    expect(started).toHaveLength(2);
  });

  it('fails the callers of a sync that hangs past its deadline, and syncs again for the next call', async () => {
    const { sync, started } = controlledSync();
    const durable = groupSync(sync, 30);
    const hung = durable();
    const waiting = durable();
    await expect(hung).rejects.toThrow('fsync still running after 30 ms');
    // The next sync starts once the hung one is given up, and covers the writes of those who waited.
    expect(started).toHaveLength(2);
    started[1].release();
    await expect(waiting).resolves.toBeUndefined();
    // The hung sync returning late changes nothing.
    started[0].release();
    const later = durable();
    expect(started).toHaveLength(3);
    started[2].release();
    await expect(later).resolves.toBeUndefined();
  });

  it('fails only the callers of a failed sync; the next call syncs again', async () => {
    const { sync, started } = controlledSync();
    const durable = groupSync(sync);
    const failed = durable();
    const waiting = durable();
    started[0].fail(new Error('EIO'));
    await expect(failed).rejects.toThrow('EIO');
    expect(await state(waiting)).toBe('pending');
    started[1].release();
    await expect(waiting).resolves.toBeUndefined();
    const later = durable();
    expect(started).toHaveLength(3);
    started[2].release();
    await expect(later).resolves.toBeUndefined();
  });
});

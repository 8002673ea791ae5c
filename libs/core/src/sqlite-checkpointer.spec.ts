import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpointer, startCheckpointer } from './sqlite-checkpointer';
import { openSqliteDatabase, SqliteDatabase } from './sqlite-database';

const PAGE = 4096;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A writer that commits without pause — as a group-committing event store does under load — on the
 * event loop, so the checkpointer's messages arrive between two commits. Its `pause` is what an event
 * store's pauseWrites does: hold the next commit back until released.
 */
function steadyWriter(db: SqliteDatabase) {
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const commit = db.transaction(() => {
    for (let i = 0; i < 20; i++) insert.run('x'.repeat(1000));
  });
  let pauses = 0;
  let pausedFor = 0;
  let stopped = false;
  let commits = 0;
  const loop = async () => {
    while (!stopped) {
      if (pauses === 0) {
        commit.immediate();
        commits += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const running = loop();
  return {
    pause: () => {
      pauses += 1;
      const since = Date.now();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        pauses -= 1;
        pausedFor = Math.max(pausedFor, Date.now() - since);
      };
    },
    stats: () => ({ commits, pausedFor }),
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

describe('WAL checkpointer', () => {
  let dir: string;
  let db: SqliteDatabase;
  let checkpointer: Checkpointer | null;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-checkpointer-'));
    db = openSqliteDatabase(join(dir, 'vigil.db'));
    db.pragma('wal_autocheckpoint = 0');
    checkpointer = null;
  });

  afterEach(async () => {
    await checkpointer?.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const walPages = () => statSync(join(dir, 'vigil.db-wal')).size / PAGE;

  it('pauses a writer that never stops, so the WAL restarts instead of growing', async () => {
    const writer = steadyWriter(db);
    const pauses: number[] = [];
    checkpointer = startCheckpointer(join(dir, 'vigil.db'), (message) => {
      throw new Error(message);
    }, {
      intervalMs: 5,
      restartAfterFrames: 200,
      pauseWriter: () => {
        pauses.push(Date.now());
        return writer.pause();
      },
    });

    await sleep(1500);
    await writer.stop();

    const { commits, pausedFor } = writer.stats();
    // Each commit adds at least 5 frames (20 rows of 1 KB); without restarts the WAL file would hold
    // them all (its size is the furthest any frame was written since the file was created).
    expect(commits * 5).toBeGreaterThan(2000);
    expect(pauses.length).toBeGreaterThan(1);
    expect(walPages()).toBeLessThan((commits * 5) / 4);
    expect(pausedFor).toBeLessThan(500);
  }, 10000);

  it('never pauses the writer without a pauseWriter (PASSIVE checkpoints only)', async () => {
    const writer = steadyWriter(db);
    checkpointer = startCheckpointer(join(dir, 'vigil.db'), () => undefined, { intervalMs: 5, restartAfterFrames: 200 });

    await sleep(300);
    await writer.stop();

    expect(writer.stats().commits).toBeGreaterThan(0);
    expect(writer.stats().pausedFor).toBe(0);
  }, 10000);

  it('releases a paused writer when it stops', async () => {
    let released = false;
    let paused = false;
    const writer = steadyWriter(db);
    checkpointer = startCheckpointer(join(dir, 'vigil.db'), () => undefined, {
      intervalMs: 5,
      restartAfterFrames: 1,
      maxPauseMs: 60_000,
      pauseWriter: () => {
        paused = true;
        const release = writer.pause();
        return () => {
          released = true;
          release();
        };
      },
    });
    while (!paused) await sleep(5);

    await checkpointer.stop();
    checkpointer = null;
    await writer.stop();

    expect(released).toBe(true);
  }, 10000);
});

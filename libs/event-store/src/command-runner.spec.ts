import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../core/src/clock';
import { Decider } from '../../core/src/decider';
import { NotFoundError, PreconditionFailedError } from '../../core/src/errors';
import { openSqliteDatabase, SqliteDatabase } from '../../core/src/sqlite-database';
import { CommandRunner } from './command-runner';
import { EventStore } from './event-store.port';
import { InMemoryEventStore } from './in-memory.event-store';
import { SqliteEventStore } from './sqlite.event-store';

type CounterEvent = { type: 'Incremented'; data: { by: string } };
const counter: Decider<{ count: number; seen: string[] }, { by: string }, CounterEvent> = {
  initialState: () => ({ count: 0, seen: [] }),
  decide: (command) => [{ type: 'Incremented', data: { by: command.by } }],
  evolve: (state, event) => ({ count: state.count + 1, seen: [...state.seen, event.data.by] }),
};

const noObserver = { applyAfterAppend: async () => undefined };

describe.each([
  [
    'SQLite (group commit)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'vigil-runner-'));
      const db: SqliteDatabase = openSqliteDatabase(join(dir, 'vigil.db'));
      const store = new SqliteEventStore(db);
      const cleanup = async () => {
        await store.close();
        db.close();
        rmSync(dir, { recursive: true, force: true });
      };
      return { store: store as EventStore, cleanup };
    },
  ],
  ['in-memory', () => ({ store: new InMemoryEventStore() as EventStore, cleanup: async () => undefined })],
])('CommandRunner on %s', (_name, open) => {
  let store: EventStore;
  let cleanup: () => Promise<void>;
  let runner: CommandRunner;

  beforeEach(() => {
    ({ store, cleanup } = open());
    runner = new CommandRunner(store, new ManualClock(), noObserver);
  });
  afterEach(() => cleanup());

  it('applies 50 concurrent commands on one stream without If-Match, none lost', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => runner.run('counter-1', counter, { by: `w${i}` }, { accountId: 'a' })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const events = await store.readStream('counter-1');
    expect(events).toHaveLength(50);
    expect(new Set(events.map((e) => (e.data as { by: string }).by)).size).toBe(50);
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(i)));
  });

  it('retries conflicts with another process (another runner on the same store) until all land', async () => {
    const other = new CommandRunner(store, new ManualClock(), noObserver);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? runner : other).run('counter-1', counter, { by: `w${i}` }, { accountId: 'a' })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await store.readStream('counter-1')).toHaveLength(50);
  });

  it('runs the next queued command after one that failed', async () => {
    const failing: typeof counter = {
      ...counter,
      decide: () => {
        throw new Error('refused');
      },
    };
    const first = runner.run('counter-1', failing, { by: 'x' }, { accountId: 'a' });
    const second = runner.run('counter-1', counter, { by: 'y' }, { accountId: 'a' });
    await expect(first).rejects.toThrow('refused');
    await expect(second).resolves.toMatchObject({ revision: 0n });
  });

  it('refuses a command with its own error before checking If-Match, so a 412 never reveals an aggregate', async () => {
    const refusing: typeof counter = {
      ...counter,
      decide: () => {
        throw new NotFoundError('Counter not found');
      },
    };
    await runner.run('counter-1', counter, { by: 'first' }, { accountId: 'a' });
    await expect(runner.run('counter-1', refusing, { by: 'x' }, { accountId: 'b' }, { ifMatch: 7n })).rejects.toBeInstanceOf(NotFoundError);
    await expect(runner.run('counter-1', counter, { by: 'x' }, { accountId: 'a' }, { ifMatch: 7n })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await store.readStream('counter-1')).toHaveLength(1);
  });

  it('keeps concurrent commands on different streams independent', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => runner.run(`counter-${i % 4}`, counter, { by: `w${i}` }, { accountId: 'a' })));
    for (let s = 0; s < 4; s++) expect(await store.readStream(`counter-${s}`)).toHaveLength(5);
  });

  it('answers 412 to all but one of concurrent commands carrying the same If-Match', async () => {
    await runner.run('counter-1', counter, { by: 'first' }, { accountId: 'a' });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => runner.run('counter-1', counter, { by: `w${i}` }, { accountId: 'a' }, { ifMatch: 0n })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PreconditionFailedError);
    expect(await store.readStream('counter-1')).toHaveLength(2);
  });
});

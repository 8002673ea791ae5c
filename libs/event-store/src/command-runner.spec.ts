import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../core/src/clock';
import { Decider } from '../../core/src/decider';
import { ConcurrencyError, NotFoundError, PreconditionFailedError } from '../../core/src/errors';
import { RecordedEvent } from '../../core/src/event';
import { openSqliteDatabase, SqliteDatabase } from '../../sqlite/src/sqlite-database';
import { CommandRunner } from './command-runner';
import { EventStore } from './event-store.port';
import { InMemoryEventStore } from './in-memory.event-store';
import { SqliteEventStore } from '../../sqlite/src/sqlite.event-store';

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

  it('starts from a snapshot and folds only the events after it', async () => {
    for (const by of ['a', 'b', 'c']) await runner.run('counter-1', counter, { by }, { accountId: 'a' });
    const snapshot = async () => ({ state: { count: 2, seen: ['snap'] }, revision: 1n });
    const result = await runner.run('counter-1', counter, { by: 'd' }, { accountId: 'a' }, { snapshot });
    expect(result.state).toEqual({ count: 4, seen: ['snap', 'c', 'd'] });
    expect(result.revision).toBe(3n);
  });

  it('decides again on the stream when a stale snapshot decided nothing, or refused', async () => {
    for (const by of ['a', 'b', 'c']) await runner.run('counter-1', counter, { by }, { accountId: 'a' });
    // Appends only from the third event on, and refuses outright below two.
    const picky: typeof counter = {
      ...counter,
      decide: (command, state) => {
        if (state.count < 2) throw new NotFoundError('too early');
        return state.count < 3 ? [] : counter.decide(command, state);
      },
    };
    const stale = (count: number, revision: bigint) => async () => ({ state: { count, seen: [] }, revision });
    const nothing = await runner.run('counter-1', picky, { by: 'd' }, { accountId: 'a' }, { snapshot: stale(2, 1n) });
    expect(nothing.appended).toHaveLength(1);
    expect(nothing.state.count).toBe(4);
    const refused = await runner.run('counter-1', picky, { by: 'e' }, { accountId: 'a' }, { snapshot: stale(1, 0n) });
    expect(refused.revision).toBe(4n);
  });

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

describe('CommandRunner on the in-memory store', () => {
  let store: InMemoryEventStore;
  let clock: ManualClock;
  let observed: { history: RecordedEvent[] | null; appended: RecordedEvent[] }[];
  let runner: CommandRunner;

  const foreign = (by: string) => ({ type: 'Incremented', data: { by }, metadata: { accountId: 'other', occurredAt: '2026-01-01T00:00:00.000Z' } });

  /**
   * A counter whose decide lets another writer append first, `times` times: the in-memory append runs
   * synchronously, so the runner's own append, right after decide, meets a stream that has moved on.
   */
  function racedBy(times: number) {
    const statesSeen: string[][] = [];
    const decider: typeof counter = {
      ...counter,
      decide: (command, state) => {
        statesSeen.push(state.seen);
        if (statesSeen.length <= times) void store.appendToStream('counter-1', [foreign(`other-${statesSeen.length}`)]);
        return counter.decide(command, state);
      },
    };
    return { decider, statesSeen };
  }

  beforeEach(() => {
    store = new InMemoryEventStore();
    clock = new ManualClock('2026-05-01T12:00:00.000Z');
    observed = [];
    runner = new CommandRunner(store, clock, {
      applyAfterAppend: async (history, appended) => {
        observed.push({ history, appended });
      },
    });
  });

  it('appends what decide returns, with the actor and the clock in the metadata, and tells the observer', async () => {
    await runner.run('counter-1', counter, { by: 'a' }, { accountId: 'acc' });
    const result = await runner.run('counter-1', counter, { by: 'b' }, { accountId: 'acc', keyId: 'k1', keyName: 'ci', requestId: 'r1' });
    expect(result.revision).toBe(1n);
    expect(result.state).toEqual({ count: 2, seen: ['a', 'b'] });
    expect(result.appended.map((e) => e.data)).toEqual([{ by: 'b' }]);
    const [, second] = await store.readStream('counter-1');
    expect(second.metadata).toEqual({ accountId: 'acc', keyId: 'k1', keyName: 'ci', requestId: 'r1', occurredAt: '2026-05-01T12:00:00.000Z' });
    expect(observed).toHaveLength(2);
    expect(observed[1].history?.map((e) => e.revision)).toEqual([0n]);
    expect(observed[1].appended).toEqual(result.appended);
  });

  it('names the person in the metadata when a signed-in person acts, and only then', async () => {
    await runner.run('counter-p', counter, { by: 'a' }, { accountId: 'acc', keyName: 'person:ada@example.com', userId: 'u-1' });
    await runner.run('counter-p', counter, { by: 'b' }, { accountId: 'acc', keyName: 'ci', userId: null });
    const [byPerson, byKey] = await store.readStream('counter-p');
    expect(byPerson.metadata).toEqual({ accountId: 'acc', keyId: null, keyName: 'person:ada@example.com', requestId: null, userId: 'u-1', occurredAt: '2026-05-01T12:00:00.000Z' });
    expect(byKey.metadata).not.toHaveProperty('userId');
  });

  it('appends nothing, and tells no observer, when decide returns no events', async () => {
    await runner.run('counter-1', counter, { by: 'a' }, { accountId: 'acc' });
    const idle: typeof counter = { ...counter, decide: () => [] };
    const head = await store.headPosition();
    const result = await runner.run('counter-1', idle, { by: 'x' }, { accountId: 'acc' });
    expect(result).toEqual({ state: { count: 1, seen: ['a'] }, revision: 0n, appended: [], decided: [] });
    expect(await store.headPosition()).toBe(head);
    expect(observed).toHaveLength(1);
  });

  it('leaves a stream that does not exist unborn when decide returns nothing', async () => {
    const idle: typeof counter = { ...counter, decide: () => [] };
    expect(await runner.run('counter-9', idle, { by: 'x' }, { accountId: 'acc' })).toMatchObject({ revision: null, appended: [] });
    expect(await store.streamRevision('counter-9')).toBeNull();
  });

  it('retries a conflict: reads again and decides again on the state that includes the other write', async () => {
    await runner.run('counter-1', counter, { by: 'first' }, { accountId: 'acc' });
    const { decider, statesSeen } = racedBy(2);
    const result = await runner.run('counter-1', decider, { by: 'mine' }, { accountId: 'acc' });
    expect(statesSeen).toEqual([['first'], ['first', 'other-1'], ['first', 'other-1', 'other-2']]);
    expect((await store.readStream('counter-1')).map((e) => (e.data as { by: string }).by)).toEqual(['first', 'other-1', 'other-2', 'mine']);
    expect(result.revision).toBe(3n);
    // Only the append that landed is reported.
    expect(observed.map((o) => o.appended.map((e) => e.revision))).toEqual([[0n], [3n]]);
  });

  it('creates a stream with expected revision no_stream, so two creators cannot both succeed', async () => {
    const { decider } = racedBy(1);
    const result = await runner.run('counter-1', decider, { by: 'mine' }, { accountId: 'acc' });
    expect(result.revision).toBe(1n);
    expect((await store.readStream('counter-1')).map((e) => (e.data as { by: string }).by)).toEqual(['other-1', 'mine']);
  });

  it('gives up with the ConcurrencyError after a bounded number of attempts', async () => {
    const { decider, statesSeen } = racedBy(Number.POSITIVE_INFINITY);
    await expect(runner.run('counter-1', decider, { by: 'mine' }, { accountId: 'acc' })).rejects.toBeInstanceOf(ConcurrencyError);
    expect(statesSeen.length).toBeGreaterThan(1);
    expect(statesSeen.length).toBeLessThanOrEqual(20);
    expect((await store.readStream('counter-1')).some((e) => (e.data as { by: string }).by === 'mine')).toBe(false);
  });

  it('with a matching If-Match, appends', async () => {
    await runner.run('counter-1', counter, { by: 'a' }, { accountId: 'acc' });
    expect((await runner.run('counter-1', counter, { by: 'b' }, { accountId: 'acc' }, { ifMatch: 0n })).revision).toBe(1n);
  });

  it('with a stale If-Match, answers 412 and writes nothing', async () => {
    await runner.run('counter-1', counter, { by: 'a' }, { accountId: 'acc' });
    await runner.run('counter-1', counter, { by: 'b' }, { accountId: 'acc' });
    await expect(runner.run('counter-1', counter, { by: 'c' }, { accountId: 'acc' }, { ifMatch: 0n })).rejects.toBeInstanceOf(PreconditionFailedError);
    await expect(runner.run('counter-1', counter, { by: 'c' }, { accountId: 'acc' }, { ifMatch: 5n })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await store.readStream('counter-1')).toHaveLength(2);
    expect(observed).toHaveLength(2);
  });

  it('with If-Match on a stream that does not exist, answers 412 and creates nothing', async () => {
    await expect(runner.run('counter-1', counter, { by: 'a' }, { accountId: 'acc' }, { ifMatch: 0n })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(await store.streamRevision('counter-1')).toBeNull();
  });

  it('with If-Match, answers a conflict between read and append with 412 instead of retrying', async () => {
    await runner.run('counter-1', counter, { by: 'first' }, { accountId: 'acc' });
    const { decider, statesSeen } = racedBy(1);
    await expect(runner.run('counter-1', decider, { by: 'mine' }, { accountId: 'acc' }, { ifMatch: 0n })).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(statesSeen).toHaveLength(1);
    expect((await store.readStream('counter-1')).map((e) => (e.data as { by: string }).by)).toEqual(['first', 'other-1']);
  });

  it('passes a refusal from decide through, writing nothing', async () => {
    const refusing: typeof counter = {
      ...counter,
      decide: () => {
        throw new NotFoundError('Counter not found');
      },
    };
    await expect(runner.run('counter-1', refusing, { by: 'a' }, { accountId: 'acc' })).rejects.toThrow('Counter not found');
    expect(await store.headPosition()).toBeNull();
  });

  it('loads the state as it stood at a moment, from the events up to then', async () => {
    for (const [i, by] of ['a', 'b', 'c'].entries()) {
      clock.set(`2026-05-0${i + 1}T00:00:00.000Z`);
      await runner.run('counter-1', counter, { by }, { accountId: 'acc' });
    }
    expect((await runner.load('counter-1', counter)).state.seen).toEqual(['a', 'b', 'c']);
    const then = await runner.load('counter-1', counter, new Date('2026-05-02T12:00:00.000Z'));
    expect(then.state.seen).toEqual(['a', 'b']);
    expect(then.revision).toBe(1n);
    expect((await runner.load('nothing', counter)).revision).toBeNull();
  });
});

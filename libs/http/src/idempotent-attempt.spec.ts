import { ManualClock } from '../../core/src/clock';
import { Decider } from '../../core/src/decider';
import { RecordedEvent } from '../../core/src/event';
import { CommandRunner } from '../../event-store/src/command-runner';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { idempotentRetries, newAttempt, RetryStableIds, runInAttempt } from './idempotent-attempt';

type Added = { type: 'Added'; data: { item: string } };
const list: Decider<string[], { item: string }, Added> = {
  initialState: () => [],
  decide: (command) => [{ type: 'Added', data: { item: command.item } }],
  evolve: (state, event) => [...state, event.data.item],
};

const counting = { next: (() => { let n = 0; return () => `plain-${++n}`; })() };

describe('an idempotent attempt', () => {
  let store: InMemoryEventStore;
  let runner: CommandRunner;
  let applied: RecordedEvent[][];

  beforeEach(() => {
    store = new InMemoryEventStore();
    applied = [];
    runner = new CommandRunner(store, new ManualClock('2026-01-01T00:00:00.000Z'), { applyAfterAppend: async (_h, events) => void applied.push(events) }, undefined, idempotentRetries);
  });

  const actor = (requestId: string) => ({ accountId: 'a', requestId });

  it('makes the same ids in every attempt of one record, and plain ids outside one', () => {
    const ids = new RetryStableIds(counting);
    const made = (seed: string) => {
      const attempt = { ...newAttempt(), seed, createdAt: Date.parse('2026-01-01T00:00:00.000Z') };
      return runInAttempt(attempt, () => [ids.next(), ids.next()]);
    };
    expect(made('s1')).toEqual(made('s1'));
    expect(made('s1')[0]).not.toBe(made('s1')[1]);
    expect(made('s1')).not.toEqual(made('s2'));
    expect(made('s1')[0]).toMatch(/^019b7[0-9a-f]{3}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.next()).toMatch(/^plain-/);
  });

  it('given two appends of an earlier attempt on a stream, when the retry runs its commands, then each answers with its own append and nothing is written', async () => {
    await runner.run('list-1', list, { item: 'other' }, actor('someone-else'));
    await runner.run('list-1', list, { item: 'a' }, actor('first'));
    await runner.run('list-1', list, { item: 'b' }, actor('first'));

    const retry = { ...newAttempt(), seed: 's', priorRequestIds: new Set(['first']) };
    const [one, two, three] = await runInAttempt(retry, async () => [
      await runner.run('list-1', list, { item: 'a' }, actor('second')),
      await runner.run('list-1', list, { item: 'b' }, actor('second')),
      await runner.run('list-1', list, { item: 'c' }, actor('second')),
    ]);

    expect(one.appended.map((event) => event.revision)).toEqual([1n]);
    expect(one.state).toEqual(['other', 'a']);
    expect(two.appended.map((event) => event.revision)).toEqual([2n]);
    // The earlier attempt never got this far: the third command writes.
    expect(three.appended.map((event) => event.revision)).toEqual([3n]);
    expect((await store.readStream('list-1')).map((event) => event.data)).toEqual([{ item: 'other' }, { item: 'a' }, { item: 'b' }, { item: 'c' }]);
    // The read models are caught up on what the earlier attempt appended.
    expect(applied.slice(-3).map((events) => events.map((event) => event.revision))).toEqual([[1n], [2n], [3n]]);
  });

  it('runs as usual when no earlier attempt may have written', async () => {
    await runInAttempt(newAttempt(), () => runner.run('list-2', list, { item: 'a' }, actor('first')));
    await runInAttempt(newAttempt(), () => runner.run('list-2', list, { item: 'a' }, actor('first')));
    expect(await store.readStream('list-2')).toHaveLength(2);
  });
});

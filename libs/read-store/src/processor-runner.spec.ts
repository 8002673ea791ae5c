import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../core/src/clock';
import { RecordedEvent } from '../../core/src/event';
import { Processor } from '../../core/src/processor';
import { loadConfig } from '../../platform/src/config';
import { createLogger } from '../../platform/src/logger';
import { openStores, Stores } from '../../platform/src/stores';
import { ProcessorRunner } from './processor-runner';

const silent = { error: () => undefined };

class Recorder implements Processor {
  readonly handles = ['Handled'];
  seen: string[] = [];
  failOn: string | null = null;
  constructor(
    readonly name: string,
    readonly startAt: 'beginning' | 'head',
  ) {}
  async handle(event: RecordedEvent): Promise<void> {
    const label = (event.data as { label: string }).label;
    if (label === this.failOn) throw new Error(`refused ${label}`);
    this.seen.push(label);
  }
}

describe('ProcessorRunner (embedded SQLite stores, reopened as after a restart)', () => {
  let dir: string;
  let stores: Stores;
  const open = async () => openStores(loadConfig({ VIGIL_DATA_DIR: dir }), createLogger('silent'), new ManualClock());
  const append = (...labels: string[]) =>
    stores.eventStore.appendToStream(
      'things-1',
      labels.map((label) => ({ type: label.startsWith('skip') ? 'Skipped' : 'Handled', data: { label }, metadata: { accountId: null, occurredAt: '2026-01-01T00:00:00.000Z' } })),
    );

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-processor-'));
    stores = await open();
  });
  afterEach(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given events before a restart, when a new runner starts, then it hands over only what was not handled yet, once', async () => {
    const first = new Recorder('p', 'beginning');
    const runner = new ProcessorRunner(stores.eventStore, stores.readStore, silent);
    runner.register(first);
    await runner.start();
    await append('a', 'skip-1', 'b');
    await runner.drain();
    expect(first.seen).toEqual(['a', 'b']);

    // Written while nothing processed (the process was down).
    await append('c', 'skip-2', 'd');
    await stores.close();
    stores = await open();
    const second = new Recorder('p', 'beginning');
    const restarted = new ProcessorRunner(stores.eventStore, stores.readStore, silent);
    restarted.register(second);
    await restarted.start();
    await restarted.drain();
    expect(second.seen).toEqual(['c', 'd']);
  });

  it('given a failing event, then the checkpoint stays before it and the event comes again on a later pass', async () => {
    let now = 0;
    const recorder = new Recorder('p', 'beginning');
    const runner = new ProcessorRunner(stores.eventStore, stores.readStore, silent, () => now);
    runner.register(recorder);
    await runner.start();
    await append('a', 'b', 'c');
    recorder.failOn = 'b';
    await runner.drain();
    expect(recorder.seen).toEqual(['a']);
    now += 500;
    await runner.drain(); // still waiting before the retry
    expect(recorder.seen).toEqual(['a']);
    recorder.failOn = null;
    now += 1000;
    await runner.drain();
    expect(recorder.seen).toEqual(['a', 'b', 'c']);
  });

  it('given an old log, when a processor that starts at the head first runs, then it sees only later events', async () => {
    await append('old-1', 'old-2');
    const recorder = new Recorder('late', 'head');
    const runner = new ProcessorRunner(stores.eventStore, stores.readStore, silent);
    runner.register(recorder);
    await runner.start();
    await append('new');
    await runner.drain();
    expect(recorder.seen).toEqual(['new']);
    // start() again (a restart) keeps the stored checkpoint.
    await append('newer');
    await runner.start();
    await runner.drain();
    expect(recorder.seen).toEqual(['new', 'newer']);
  });

  it('given processors at one checkpoint, then a pass reads each page of the log once for all of them', async () => {
    let reads = 0;
    const events = new Proxy(stores.eventStore, {
      get: (target, name, receiver) => (name === 'readAll' ? (...args: Parameters<typeof target.readAll>) => (reads++, target.readAll(...args)) : Reflect.get(target, name, receiver)),
    });
    const first = new Recorder('one', 'beginning');
    const second = new Recorder('two', 'beginning');
    const runner = new ProcessorRunner(events, stores.readStore, silent);
    runner.register(first);
    runner.register(second);
    await runner.start();
    await append('a', 'b');
    await runner.step();
    expect(reads).toBe(1);
    expect([first.seen, second.seen]).toEqual([['a', 'b'], ['a', 'b']]);
  });

  it('refuses two processors of one name', () => {
    const runner = new ProcessorRunner(stores.eventStore, stores.readStore, silent);
    runner.register(new Recorder('p', 'head'));
    expect(() => runner.register(new Recorder('p', 'head'))).toThrow(/twice/);
  });
});

import { StoreUnavailableError } from '../../core/src/errors';
import { ManualClock } from '../../core/src/clock';
import { Decider } from '../../core/src/decider';
import { CommandRunner, streamType } from '../../event-store/src/command-runner';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { Metrics } from './metrics';
import { StoreMetrics } from './store-metrics';

describe('Metrics', () => {
  it('creates each metric once and hands the same one out after', () => {
    const metrics = new Metrics({ processMetrics: false });
    const first = metrics.counter('vigil_things_total', 'Things', ['kind']);
    expect(metrics.counter('vigil_things_total', 'Things', ['kind'])).toBe(first);
    expect(() => metrics.gauge('vigil_things_total', 'Things')).toThrow(/another type/);
  });

  it('runs a gauge collector at every scrape', async () => {
    const metrics = new Metrics({ processMetrics: false });
    let depth = 3;
    metrics.gauge('vigil_queue_depth', 'Depth', [], (gauge) => gauge.set(depth));
    expect((await metrics.scrape()).body).toContain('vigil_queue_depth 3');
    depth = 5;
    expect((await metrics.scrape()).body).toContain('vigil_queue_depth 5');
  });
});

describe('appended events', () => {
  it('labels streams by type, never by id', () => {
    expect(streamType('heartbeat-01900000-0000-7000-8000-000000000001')).toBe('heartbeat');
    expect(streamType('settings')).toBe('other');
  });

  it('are counted by the command runner, by stream type', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const appended = metrics.counter('vigil_events_appended_total', 'Events appended', ['stream_type']);
    const runner = new CommandRunner(new InMemoryEventStore(), new ManualClock(), { applyAfterAppend: async () => undefined }, appended);
    const twice: Decider<null, string, { type: 'Noted'; data: { note: string } }> = {
      initialState: () => null,
      decide: (note) => [{ type: 'Noted', data: { note } }, { type: 'Noted', data: { note } }],
      evolve: (state) => state,
    };
    await runner.run('heartbeat-01900000-0000-7000-8000-000000000001', twice, 'a', { accountId: null });
    await runner.run('check-01900000-0000-7000-8000-000000000001', twice, 'b', { accountId: null });
    const text = (await metrics.scrape()).body;
    expect(text).toContain('vigil_events_appended_total{stream_type="heartbeat"} 2');
    expect(text).toContain('vigil_events_appended_total{stream_type="check"} 2');
  });
});

describe('StoreMetrics', () => {
  it('times production calls while the adapter keeps its own state', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const raw = new InMemoryEventStore();
    const store = new StoreMetrics(metrics).eventStore(raw);
    await store.appendToStream('heartbeat-1', [
      { type: 'HeartbeatPingReceived', data: {}, metadata: { accountId: null, occurredAt: '2026-11-25T10:00:00.000Z' } },
    ]);
    await store.close();
    await expect(raw.appendToStream('heartbeat-1', [])).rejects.toBeInstanceOf(StoreUnavailableError);
    const text = (await metrics.scrape()).body;
    expect(text).toContain('vigil_store_call_duration_seconds_count{store="event",operation="appendToStream"} 1');
    expect(store).toBeInstanceOf(InMemoryEventStore);
  });
});

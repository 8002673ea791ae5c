import { StoreUnavailableError } from '../../core/src/errors';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { Metrics } from './metrics';
import { StoreMetrics, streamType } from './store-metrics';

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

describe('StoreMetrics', () => {
  it('labels streams by type, never by id', () => {
    expect(streamType('heartbeat-01900000-0000-7000-8000-000000000001')).toBe('heartbeat');
    expect(streamType('settings')).toBe('other');
  });

  it('counts appended events and times calls while the adapter keeps its own state', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const raw = new InMemoryEventStore();
    const store = new StoreMetrics(metrics).eventStore(raw, true);
    await store.appendToStream('heartbeat-1', [
      { type: 'HeartbeatPingReceived', data: {}, metadata: { accountId: null, occurredAt: '2026-11-25T10:00:00.000Z' } },
      { type: 'HeartbeatPingReceived', data: {}, metadata: { accountId: null, occurredAt: '2026-11-25T10:01:00.000Z' } },
    ]);
    await store.close();
    await expect(raw.appendToStream('heartbeat-1', [])).rejects.toBeInstanceOf(StoreUnavailableError);
    const text = (await metrics.scrape()).body;
    expect(text).toContain('vigil_events_appended_total{stream_type="heartbeat"} 2');
    expect(text).toContain('vigil_store_call_duration_seconds_count{store="event",operation="appendToStream"} 1');
    expect(store).toBeInstanceOf(InMemoryEventStore);
  });
});

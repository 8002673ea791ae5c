import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { monitorStream } from '../domain/monitor.decider';
import { parseMonitorBody } from '../domain/monitor-body';
import { mergeRollups, namedMetrics, rangeOf } from './monitor-analytics';
import { serviceMonitorsProjection } from './service-monitors.projection';

const ID = '01900000-0000-7000-8000-0000000000bb';
const SERVICE = '01900000-0000-7000-8000-0000000000cc';
const plain = parseMonitorBody('URL', { name: 'Site', request: { url: 'https://example.com' } });
const linked = { ...plain, triggerIncident: { serviceId: SERVICE, severity: 'CRITICAL' as const, name: 'Down', description: '', notifySubscribers: false } };

describe.each(HARNESS_ADAPTERS)('service monitors projection (%s)', (adapter) => {
  let harness: ProjectionHarness;
  beforeEach(async () => {
    harness = await ProjectionHarness.start(adapter, [serviceMonitorsProjection]);
  });
  afterEach(() => harness.close());

  it('given a monitor without a service, when linked, then it is listed with its state as it changes; unlinked or deleted, it goes', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config: plain } }], '2026-01-01T10:00:00.000Z', 'acc');
    expect(await harness.get(serviceMonitorsProjection, ID)).toBeNull();
    await harness.append(monitorStream(ID), [{ type: 'MonitorUpdated', data: { id: ID, config: linked } }], '2026-01-01T10:01:00.000Z', 'acc');
    await harness.append(monitorStream(ID), [{ type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'FAILING', roundAt: '2026-01-01T10:01:00.000Z', failedLocations: ['local'], downtimeMs: null } }]);
    expect((await harness.get(serviceMonitorsProjection, ID))!.doc).toMatchObject({ accountId: 'acc', serviceId: SERVICE, severity: 'CRITICAL', state: 'FAILING', activated: true });
    await harness.replayAll();
    expect((await harness.get(serviceMonitorsProjection, ID))!.doc.state).toBe('FAILING');
    await harness.append(monitorStream(ID), [{ type: 'MonitorUpdated', data: { id: ID, config: plain } }]);
    expect(await harness.get(serviceMonitorsProjection, ID)).toBeNull();
    await harness.append(monitorStream(ID), [{ type: 'MonitorUpdated', data: { id: ID, config: linked } }, { type: 'MonitorDeleted', data: { id: ID } }]);
    expect(await harness.get(serviceMonitorsProjection, ID)).toBeNull();
  });
});

describe('monitor analytics', () => {
  const now = Date.parse('2026-11-26T15:30:00.000Z'); // a Thursday
  it('maps quick ranges to hourly buckets for a day and daily ones beyond; an unknown range is a 400', () => {
    expect(rangeOf(undefined, now)).toEqual({ from: Date.parse('2026-11-25T16:00:00.000Z'), to: now, granularity: 'h' });
    expect(rangeOf('thisWeek', now)).toMatchObject({ from: Date.parse('2026-11-23T00:00:00.000Z'), granularity: 'd' });
    expect(rangeOf('lastMonth', now)).toEqual({ from: Date.parse('2026-10-01T00:00:00.000Z'), to: Date.parse('2026-11-01T00:00:00.000Z'), granularity: 'd' });
    expect(() => rangeOf('forever', now)).toThrow('Validation failed');
  });

  it('merges rollups into availability and percentiles, named as Checkly names them per type', () => {
    const histogram = (at: number) => Array.from({ length: 22 }, (_, i) => (i === at ? 2 : 0));
    const merged = mergeRollups([
      { id: 'a', monitorId: 'm', granularity: 'h', bucketAt: 'x', runs: 3, failed: 1, degraded: 0, sumMs: 100, histogram: histogram(3) },
      { id: 'b', monitorId: 'm', granularity: 'h', bucketAt: 'y', runs: 2, failed: 0, degraded: 0, sumMs: 300, histogram: histogram(6) },
    ]);
    expect(merged).toEqual({ runs: 5, availability: 80, avg: 100, p50: 50, p95: 150, p99: 150 });
    expect(namedMetrics('TCP', merged, ['availability', 'total_p95', 'unknown'])).toEqual({ availability: 80, total_p95: 150 });
    expect(mergeRollups([])).toEqual({ runs: 0, availability: null, avg: null, p50: null, p95: null, p99: null });
  });
});

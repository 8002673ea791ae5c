import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { MonitorEvent, monitorStream } from '../domain/monitor.decider';
import { parseMonitorBody } from '../domain/monitor-body';
import { MonitorRun } from '../domain/round';
import { monitorRollupsProjection, rollupId, rollupRange } from './monitor-rollups.projection';
import { monitorsProjection } from './monitors.projection';
import { monitorStatesProjection } from './monitor-states.projection';

const ID = '01900000-0000-7000-8000-0000000000aa';
const config = parseMonitorBody('URL', { name: 'Site', frequency: 1, request: { url: 'https://example.com' } });
const run = (roundAt: string, outcome: MonitorRun['outcome'], total: number, final = true): MonitorEvent => ({
  type: 'MonitorRunRecorded',
  data: { id: ID, run: { location: 'local', roundAt, startedAt: roundAt, outcome, timings: { total }, error: null, networkError: false, attempt: 1, final } },
});

describe.each(HARNESS_ADAPTERS)('monitor projections (%s)', (adapter) => {
  let harness: ProjectionHarness;
  beforeEach(async () => {
    harness = await ProjectionHarness.start(adapter, [monitorsProjection, monitorStatesProjection, monitorRollupsProjection]);
  });
  afterEach(() => harness.close());

  it('given a created monitor, when runs come, then its next round follows the schedule and its rollups count final runs; a replay changes nothing', async () => {
    const at = '2026-01-01T10:00:00.000Z';
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], at, 'acc');
    expect((await harness.get(monitorStatesProjection, ID))!.doc).toMatchObject({ nextRunAt: Date.parse(at), lastRun: null });
    expect((await harness.get(monitorsProjection, ID))!.doc).toMatchObject({ checkType: 'URL' });

    await harness.append(monitorStream(ID), [run('2026-01-01T10:00:00.000Z', 'FAIL', 40, false)], at);
    expect((await harness.get(monitorStatesProjection, ID))!.doc.nextRunAt).toBe(Date.parse(at));
    await harness.append(monitorStream(ID), [
      run('2026-01-01T10:00:00.000Z', 'PASS', 40),
      { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'PASSING', roundAt: at, failedLocations: [], downtimeMs: null } },
      run('2026-01-01T10:01:00.000Z', 'DEGRADED', 4000),
      run('2026-01-01T10:02:00.000Z', 'FAIL', 5000),
    ], at);
    const doc = (await harness.get(monitorStatesProjection, ID))!.doc;
    expect(doc.nextRunAt).toBe(Date.parse('2026-01-01T10:03:00.000Z'));
    expect(doc.rounds.status).toBe('PASSING');
    const hour = (await harness.get(monitorRollupsProjection, rollupId(ID, 'h', '2026-01-01T10:00:00.000Z')))!.doc;
    expect(hour).toMatchObject({ runs: 3, failed: 1, degraded: 1, sumMs: 4040 });
    expect((await harness.get(monitorRollupsProjection, rollupId(ID, 'd', '2026-01-01T00:00:00.000Z')))!.doc.runs).toBe(3);

    await harness.replayAll();
    expect((await harness.get(monitorRollupsProjection, rollupId(ID, 'h', '2026-01-01T10:00:00.000Z')))!.doc.runs).toBe(3);
  });

  it('given runs of two monitors over two days, when a range of one monitor\'s buckets is asked by id, then it holds that monitor\'s buckets of that granularity in the range, in time order', async () => {
    const OTHER = '01900000-0000-7000-8000-0000000000ab';
    for (const id of [ID, OTHER]) {
      await harness.append(monitorStream(id), [{ type: 'MonitorCreated', data: { id, accountId: 'acc', config } }], '2026-01-01T10:00:00.000Z', 'acc');
      const runs = ['2026-01-01T10:00:00.000Z', '2026-01-01T11:00:00.000Z', '2026-01-01T12:00:00.000Z', '2026-01-02T10:00:00.000Z'].map((at) => run(at, 'PASS', 40));
      await harness.append(monitorStream(id), runs, '2026-01-02T10:00:01.000Z');
    }
    const bucketsOf = async (granularity: 'h' | 'd', from?: string, to?: string) =>
      (await harness.find(monitorRollupsProjection, { filters: rollupRange(ID, granularity, from, to), sort: { field: 'id', direction: 'asc' }, limit: 100 })).map((d) => [d.monitorId, d.granularity, d.bucketAt]);
    expect(await bucketsOf('h', '2026-01-01T11:00:00.000Z', '2026-01-02T10:00:00.000Z')).toEqual([
      [ID, 'h', '2026-01-01T11:00:00.000Z'],
      [ID, 'h', '2026-01-01T12:00:00.000Z'],
    ]);
    expect(await bucketsOf('h', '2026-01-01T12:00:00.000Z')).toEqual([
      [ID, 'h', '2026-01-01T12:00:00.000Z'],
      [ID, 'h', '2026-01-02T10:00:00.000Z'],
    ]);
    expect(await bucketsOf('d')).toEqual([
      [ID, 'd', '2026-01-01T00:00:00.000Z'],
      [ID, 'd', '2026-01-02T00:00:00.000Z'],
    ]);
  });

  it('given a run stored with a time in another ISO form, when it is rolled up, then it counts in the same hour and day', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], '2026-01-01T10:00:00.000Z', 'acc');
    await harness.append(monitorStream(ID), [run('2026-01-01T10:30:00.000Z', 'PASS', 40), run('2026-01-01T10:31:00Z', 'PASS', 40), run('2026-01-01T12:31:00+02:00', 'PASS', 40)]);
    expect((await harness.get(monitorRollupsProjection, rollupId(ID, 'h', '2026-01-01T10:00:00.000Z')))!.doc.runs).toBe(3);
    expect((await harness.get(monitorRollupsProjection, rollupId(ID, 'd', '2026-01-01T00:00:00.000Z')))!.doc.runs).toBe(3);
  });

  it('given a monitor, when a replaced config deactivates it, it is not due; reactivated, it is due at once', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], '2026-01-01T10:00:00.000Z', 'acc');
    await harness.append(monitorStream(ID), [{ type: 'MonitorUpdated', data: { id: ID, config: { ...config, activated: false } } }], '2026-01-01T10:05:00.000Z');
    expect((await harness.get(monitorStatesProjection, ID))!.doc.nextRunAt).toBeNull();
    await harness.append(monitorStream(ID), [{ type: 'MonitorUpdated', data: { id: ID, config } }], '2026-01-01T10:07:00.000Z');
    expect((await harness.get(monitorStatesProjection, ID))!.doc.nextRunAt).toBe(Date.parse('2026-01-01T10:07:00.000Z'));
  });

  it('given monitors on the embedded and on a runner location, only the embedded one is due for the scheduler (localRunAt); a change moves updated_at, a run does not', async () => {
    const OTHER = '01900000-0000-7000-8000-0000000000bb';
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], '2026-01-01T10:00:00.000Z', 'acc');
    await harness.append(monitorStream(OTHER), [{ type: 'MonitorCreated', data: { id: OTHER, accountId: 'acc', config: { ...config, locations: ['lab'] } } }], '2026-01-01T10:00:00.000Z', 'acc');
    expect((await harness.get(monitorStatesProjection, ID))!.doc).toMatchObject({ localRunAt: Date.parse('2026-01-01T10:00:00.000Z') });
    expect((await harness.get(monitorsProjection, ID))!.doc).toMatchObject({ places: ['local'] });
    expect((await harness.get(monitorStatesProjection, OTHER))!.doc).toMatchObject({ localRunAt: null, nextRunAt: Date.parse('2026-01-01T10:00:00.000Z') });
    expect((await harness.get(monitorsProjection, OTHER))!.doc).toMatchObject({ places: ['acc:lab'] });
    await harness.append(monitorStream(OTHER), [{ type: 'MonitorRunRecorded', data: { id: OTHER, run: { location: 'lab', roundAt: '2026-01-01T10:00:00.000Z', startedAt: '2026-01-01T10:00:00.000Z', outcome: 'PASS', timings: { total: 5 }, error: null, networkError: false, attempt: 1, final: true } } }], '2026-01-01T10:00:01.000Z');
    expect((await harness.get(monitorStatesProjection, OTHER))!.doc).toMatchObject({ localRunAt: null, nextRunAt: Date.parse('2026-01-01T10:01:00.000Z') });
    expect((await harness.get(monitorsProjection, OTHER))!.doc).toMatchObject({ updated_at: '2026-01-01T10:00:00.000Z' });
    await harness.append(monitorStream(OTHER), [{ type: 'MonitorUpdated', data: { id: OTHER, config: { ...config, locations: ['lab', 'local'] } } }], '2026-01-01T10:00:30.000Z');
    expect((await harness.get(monitorStatesProjection, OTHER))!.doc).toMatchObject({ localRunAt: Date.parse('2026-01-01T10:01:00.000Z') });
    expect((await harness.get(monitorsProjection, OTHER))!.doc).toMatchObject({ updated_at: '2026-01-01T10:00:30.000Z' });
  });

  it('given a monitor, when deactivated it is not due; when deleted its document goes', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], '2026-01-01T10:00:00.000Z', 'acc');
    await harness.append(monitorStream(ID), [{ type: 'MonitorActivationChanged', data: { id: ID, activated: false } }]);
    expect((await harness.get(monitorStatesProjection, ID))!.doc.nextRunAt).toBeNull();
    await harness.append(monitorStream(ID), [{ type: 'MonitorDeleted', data: { id: ID } }]);
    expect(await harness.get(monitorsProjection, ID)).toBeNull();
    expect(await harness.get(monitorStatesProjection, ID)).toBeNull();
  });
});

describe('response-time percentiles', () => {
  it('are the upper bound of the bucket the rank falls in; none without measured runs', async () => {
    const { BUCKET_BOUNDS_MS, percentile } = await import('./monitor-rollups.projection');
    const histogram = BUCKET_BOUNDS_MS.map(() => 0);
    histogram[BUCKET_BOUNDS_MS.indexOf(50)] = 90;
    histogram[BUCKET_BOUNDS_MS.indexOf(500)] = 9;
    histogram[BUCKET_BOUNDS_MS.indexOf(5000)] = 1;
    expect([percentile(histogram, 50), percentile(histogram, 95), percentile(histogram, 99), percentile(histogram, 100)]).toEqual([50, 500, 500, 5000]);
    expect(percentile(BUCKET_BOUNDS_MS.map(() => 0), 50)).toBeNull();
  });
});

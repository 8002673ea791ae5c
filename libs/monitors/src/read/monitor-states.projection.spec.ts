import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { MonitorEvent, monitorStream } from '../domain/monitor.decider';
import { parseMonitorBody } from '../domain/monitor-body';
import { MonitorRun } from '../domain/round';
import { encodeRun } from '../domain/run-codec';
import { lastRunOf, monitorStatesProjection } from './monitor-states.projection';
import { configOf, MonitorDoc, monitorsProjection } from './monitors.projection';

const ID = '01900000-0000-7000-8000-0000000000cc';
const config = parseMonitorBody('URL', { name: 'Site', frequency: 1, locations: ['lab'], request: { url: 'https://example.com' } });
const AT = '2026-01-01T10:00:00.000Z';
const pass: MonitorRun = { location: 'lab', roundAt: AT, startedAt: AT, outcome: 'PASS', timings: { total: 21, dns: 1 }, error: null, networkError: false, attempt: 1, final: true };

describe.each(HARNESS_ADAPTERS)('monitor states projection (%s)', (adapter) => {
  let harness: ProjectionHarness;
  beforeEach(async () => {
    harness = await ProjectionHarness.start(adapter, [monitorsProjection, monitorStatesProjection]);
  });
  afterEach(() => harness.close());

  it('given a monitor, when a run is recorded, then its state document changes and its configuration document does not', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], AT, 'acc');
    const before = (await harness.get(monitorsProjection, ID))!;
    await harness.append(monitorStream(ID), [
      { type: 'MonitorRunRecorded', data: { r: encodeRun(pass) } },
      { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'PASSING', roundAt: AT, failedLocations: [], downtimeMs: null } },
    ] as MonitorEvent[], '2026-01-01T10:00:01.000Z');
    expect(await harness.get(monitorsProjection, ID)).toEqual(before);
    const state = (await harness.get(monitorStatesProjection, ID))!;
    expect(state.revision).toBe(2n);
    expect(state.doc).toMatchObject({ lastRun: { r: encodeRun(pass) }, nextRunAt: Date.parse('2026-01-01T10:01:00.000Z'), localRunAt: null, configRevision: 0 });
    expect(state.doc.rounds).toMatchObject({ id: ID, accountId: 'acc', locations: ['lab'], checkType: 'URL', status: 'PASSING', statusSince: AT, round: { at: AT, decided: true } });
    expect(lastRunOf(state.doc)).toEqual(pass);
  });

  it('given a monitor with runs, when its configuration changes, then configRevision is the revision of the configuration document', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], AT, 'acc');
    await harness.append(monitorStream(ID), [{ type: 'MonitorRunRecorded', data: { r: encodeRun(pass) } }], AT);
    await harness.append(monitorStream(ID), [{ type: 'MonitorMuteChanged', data: { id: ID, muted: true } }], '2026-01-01T10:00:30.000Z');
    await harness.append(monitorStream(ID), [{ type: 'MonitorRunRecorded', data: { r: encodeRun({ ...pass, roundAt: '2026-01-01T10:01:00.000Z' }) } }], AT);
    const [configDoc, state] = [(await harness.get(monitorsProjection, ID))!, (await harness.get(monitorStatesProjection, ID))!];
    expect(configDoc.revision).toBe(2n);
    expect(configDoc.doc.config.muted).toBe(true);
    expect(state).toMatchObject({ revision: 3n, doc: { configRevision: 2 } });
  });

  it('given a run stored before runs were compact, then the last run reads the same; a replay changes nothing; deleted, both documents go', async () => {
    await harness.append(monitorStream(ID), [{ type: 'MonitorCreated', data: { id: ID, accountId: 'acc', config } }], AT, 'acc');
    await harness.append(monitorStream(ID), [{ type: 'MonitorRunRecorded', data: { id: ID, run: pass } } as MonitorEvent], AT);
    const state = (await harness.get(monitorStatesProjection, ID))!;
    expect(lastRunOf(state.doc)).toEqual(pass);
    await harness.replayAll();
    expect(await harness.get(monitorStatesProjection, ID)).toEqual(state);
    await harness.append(monitorStream(ID), [{ type: 'MonitorDeleted', data: { id: ID } }]);
    expect(await harness.get(monitorStatesProjection, ID)).toBeNull();
    expect(await harness.get(monitorsProjection, ID)).toBeNull();
  });
});

describe('a monitors document of version 3 (served while version 4 builds after an upgrade)', () => {
  it('still gives its configuration, from its state', () => {
    const v3 = { id: ID, accountId: 'acc', checkType: 'URL', places: ['acc:lab'], state: { config }, created_at: AT, updated_at: AT } as unknown as MonitorDoc;
    expect(configOf(v3)).toEqual(config);
    expect(configOf({ ...v3, config: { ...config, name: 'Now' } })).toMatchObject({ name: 'Now' });
  });
});

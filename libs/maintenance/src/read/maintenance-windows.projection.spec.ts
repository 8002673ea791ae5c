import { project, recorded } from '../../../testing/src/given-when-then';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { MaintenanceWindowEvent, maintenanceWindowStream, WindowConfig } from '../domain/maintenance-window.decider';
import { WINDOW_ID, windowConfig } from '../testing/window-fixtures';
import { MaintenanceWindowDoc, maintenanceWindowsProjection } from './maintenance-windows.projection';

const ID = WINDOW_ID;
const SERVICE = '01900000-0000-7000-8000-0000000000bb';
const config = (over: Partial<WindowConfig> = {}) => windowConfig({ serviceIds: [SERVICE], ...over });
const created: MaintenanceWindowEvent = { type: 'MaintenanceWindowCreated', data: { id: ID, accountId: 'acc', config: config() } };
const updated: MaintenanceWindowEvent = { type: 'MaintenanceWindowUpdated', data: { id: ID, config: config({ name: 'Renamed', serviceIds: [] }) } };
const times = (i: number) => `2026-11-0${i + 1}T00:00:00.000Z`;

describe('maintenance windows projection', () => {
  it('given created then updated, then the latest config with the first created_at and the last updated_at', () => {
    const docs = project(maintenanceWindowsProjection, recorded(maintenanceWindowStream(ID), [created, updated], { at: times }));
    expect([...docs.values()]).toEqual([
      { ...config({ name: 'Renamed', serviceIds: [] }), id: ID, accountId: 'acc', created_at: times(0), updated_at: times(1) },
    ]);
  });

  it('given deleted, then no document', () => {
    const docs = project(maintenanceWindowsProjection, recorded(maintenanceWindowStream(ID), [created, { type: 'MaintenanceWindowDeleted', data: { id: ID } }]));
    expect(docs.size).toBe(0);
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [maintenanceWindowsProjection]);
    });
    afterEach(() => harness.close());

    it('finds windows by service, follows updates, and a replay changes nothing', async () => {
      await harness.append(maintenanceWindowStream(ID), [created]);
      const byService = () =>
        harness.find<MaintenanceWindowDoc>('maintenance_windows', { filters: [{ field: 'serviceIds', op: 'contains', value: SERVICE }], limit: 10 });
      expect((await byService()).map((d) => d.id)).toEqual([ID]);
      await harness.append(maintenanceWindowStream(ID), [updated]);
      expect(await byService()).toEqual([]);
      await harness.replayAll();
      expect((await harness.get<MaintenanceWindowDoc>('maintenance_windows', ID))?.doc.name).toBe('Renamed');
    });
  });
});

import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { WINDOW_ID, windowConfig } from '../testing/window-fixtures';
import { MaintenanceWindowEvent, maintenanceWindowDecider, windowViolations } from './maintenance-window.decider';

const spec = specFor(maintenanceWindowDecider);
const ID = WINDOW_ID;
const ACCOUNT = 'acc-1';
const config = windowConfig;
const created: MaintenanceWindowEvent = { type: 'MaintenanceWindowCreated', data: { id: ID, accountId: ACCOUNT, config: config() } };

describe('maintenance window decider', () => {
  it('given nothing, when created, then MaintenanceWindowCreated', () => {
    spec.given([]).when({ type: 'CreateMaintenanceWindow', id: ID, accountId: ACCOUNT, config: config() }).then([created]);
  });

  it('given a window, when created again, then 409', () => {
    spec.given([created]).when({ type: 'CreateMaintenanceWindow', id: ID, accountId: ACCOUNT, config: config() }).thenThrows(ConflictError);
  });

  it('given a window, when updated, then MaintenanceWindowUpdated; the same config changes nothing', () => {
    const next = config({ name: 'Longer upgrade', repeatInterval: 1, repeatUnit: 'WEEK' });
    spec.given([created]).when({ type: 'UpdateMaintenanceWindow', id: ID, accountId: ACCOUNT, config: next }).then([{ type: 'MaintenanceWindowUpdated', data: { id: ID, config: next } }]);
    spec.given([created]).when({ type: 'UpdateMaintenanceWindow', id: ID, accountId: ACCOUNT, config: config() }).then([]);
  });

  it('another account’s window, or a deleted one, is not found', () => {
    spec.given([created]).when({ type: 'UpdateMaintenanceWindow', id: ID, accountId: 'acc-2', config: config() }).thenThrows(NotFoundError);
    spec.given([created, { type: 'MaintenanceWindowDeleted', data: { id: ID } }]).when({ type: 'DeleteMaintenanceWindow', id: ID, accountId: ACCOUNT }).thenThrows(NotFoundError);
  });

  it('given a window, when deleted, then MaintenanceWindowDeleted', () => {
    spec.given([created]).when({ type: 'DeleteMaintenanceWindow', id: ID, accountId: ACCOUNT }).then([{ type: 'MaintenanceWindowDeleted', data: { id: ID } }]);
  });

  it('refuses a window that breaks the rules, naming every field', () => {
    spec.given([]).when({ type: 'CreateMaintenanceWindow', id: ID, accountId: ACCOUNT, config: config({ endsAt: '2026-12-01T00:00:00.000Z' }) }).thenThrows(ValidationError);
  });

  it.each([
    ['end before start', { endsAt: '2026-12-01T00:59:00.000Z' }, ['endsAt']],
    ['end equal to start', { endsAt: '2026-12-01T01:00:00.000Z' }, ['endsAt']],
    ['a bad zone', { timezone: 'Mars/Olympus' }, ['timezone']],
    ['a zone not in canonical spelling', { timezone: 'europe/berlin' }, ['timezone']],
    ['an interval without unit', { repeatInterval: 1 }, ['repeatUnit']],
    ['a unit without interval', { repeatUnit: 'DAY' as const }, ['repeatInterval']],
    ['a bad unit', { repeatInterval: 1, repeatUnit: 'YEAR' as never }, ['repeatUnit']],
    ['interval 0', { repeatInterval: 0, repeatUnit: 'DAY' as const }, ['repeatInterval']],
    ['a window longer than its repeat', { endsAt: '2026-12-02T02:00:00.000Z', repeatInterval: 1, repeatUnit: 'DAY' as const }, ['endsAt']],
    ['repeatEndsAt without a repeat', { repeatEndsAt: '2027-01-01T00:00:00.000Z' }, ['repeatEndsAt']],
    ['repeatEndsAt before startsAt', { repeatInterval: 1, repeatUnit: 'DAY' as const, repeatEndsAt: '2026-11-01T00:00:00.000Z' }, ['repeatEndsAt']],
  ])('windowViolations: %s', (_label, over, paths) => {
    expect(windowViolations(config(over)).map((d) => d.path)).toEqual(paths);
  });

  it('accepts a repeating window that fits its repeat', () => {
    expect(windowViolations(config({ repeatInterval: 2, repeatUnit: 'MONTH', repeatEndsAt: '2027-12-01T00:00:00.000Z', timezone: 'Europe/Berlin' }))).toEqual([]);
  });
});

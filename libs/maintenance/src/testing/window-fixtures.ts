import { WindowConfig } from '../domain/maintenance-window.decider';

export const WINDOW_ID = '01900000-0000-7000-8000-0000000000aa';

/** A two-hour window that does not repeat, with `over` applied. */
export const windowConfig = (over: Partial<WindowConfig> = {}): WindowConfig => ({
  name: 'Database upgrade',
  tags: ['db'],
  startsAt: '2026-12-01T01:00:00.000Z',
  endsAt: '2026-12-01T03:00:00.000Z',
  repeatInterval: null,
  repeatUnit: null,
  repeatEndsAt: null,
  timezone: 'UTC',
  serviceIds: [],
  ...over,
});

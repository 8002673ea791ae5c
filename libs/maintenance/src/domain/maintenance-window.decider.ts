import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { canonicalTimeZone } from '../../../core/src/time-zone';

export const REPEAT_UNITS = ['DAY', 'WEEK', 'MONTH'] as const;
export type RepeatUnit = (typeof REPEAT_UNITS)[number];
export const MAX_REPEAT_INTERVAL = 1000;
export const MAX_TAGS = 50;
export const MAX_SERVICES = 50;

/** Shortest span of one repeat unit: a window may not outlast its own repeat. */
const MIN_UNIT_MS: Record<RepeatUnit, number> = { DAY: 23 * 3_600_000, WEEK: 7 * 86_400_000 - 3_600_000, MONTH: 28 * 86_400_000 - 3_600_000 };

/** A maintenance window as a client configures it (Checkly's shape plus a time zone and services). */
export interface WindowConfig {
  name: string;
  tags: string[];
  /** ISO 8601 UTC instants. */
  startsAt: string;
  endsAt: string;
  repeatInterval: number | null;
  repeatUnit: RepeatUnit | null;
  repeatEndsAt: string | null;
  /** IANA zone the repeats keep their wall-clock time in. */
  timezone: string;
  serviceIds: string[];
}

export type MaintenanceWindowEvent =
  | { type: 'MaintenanceWindowCreated'; data: { id: string; accountId: string; config: WindowConfig } }
  | { type: 'MaintenanceWindowUpdated'; data: { id: string; config: WindowConfig } }
  | { type: 'MaintenanceWindowDeleted'; data: { id: string } };

export type MaintenanceWindowCommand =
  | { type: 'CreateMaintenanceWindow'; id: string; accountId: string; config: WindowConfig }
  | { type: 'UpdateMaintenanceWindow'; id: string; accountId: string; config: WindowConfig }
  | { type: 'DeleteMaintenanceWindow'; id: string; accountId: string };

export interface MaintenanceWindowState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  config: WindowConfig | null;
}

/**
 * The rules beyond each field's shape: end after start, a repeat needs both interval and unit, ends
 * after it starts and may not be shorter than the window, and the zone must exist.
 */
export function windowViolations(config: WindowConfig): ViolationDetail[] {
  const details: ViolationDetail[] = [];
  const start = Date.parse(config.startsAt);
  const end = Date.parse(config.endsAt);
  if (!(end > start)) details.push({ path: 'endsAt', message: 'endsAt must be after startsAt' });
  if (canonicalTimeZone(config.timezone) !== config.timezone) {
    details.push({ path: 'timezone', message: 'timezone must be an IANA time zone name such as Europe/Berlin' });
  }
  const { repeatInterval, repeatUnit, repeatEndsAt } = config;
  if ((repeatInterval === null) !== (repeatUnit === null)) {
    details.push({ path: repeatUnit === null ? 'repeatUnit' : 'repeatInterval', message: 'repeatInterval and repeatUnit go together' });
  } else if (repeatInterval !== null && repeatUnit !== null) {
    if (!Number.isInteger(repeatInterval) || repeatInterval < 1 || repeatInterval > MAX_REPEAT_INTERVAL) {
      details.push({ path: 'repeatInterval', message: `repeatInterval must be a whole number from 1 to ${MAX_REPEAT_INTERVAL}` });
    } else if (!REPEAT_UNITS.includes(repeatUnit)) {
      details.push({ path: 'repeatUnit', message: `repeatUnit must be one of ${REPEAT_UNITS.join(', ')}` });
    } else if (end - start > repeatInterval * MIN_UNIT_MS[repeatUnit]) {
      details.push({ path: 'endsAt', message: 'a repeating window must end before its next repeat starts' });
    }
  }
  if (repeatEndsAt !== null) {
    if (repeatInterval === null) details.push({ path: 'repeatEndsAt', message: 'repeatEndsAt needs repeatInterval and repeatUnit' });
    else if (!(Date.parse(repeatEndsAt) >= start)) details.push({ path: 'repeatEndsAt', message: 'repeatEndsAt must not be before startsAt' });
  }
  return details;
}

function requireOwned(state: MaintenanceWindowState, accountId: string): WindowConfig {
  // Another account's window is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId || !state.config) throw new NotFoundError('Maintenance window not found');
  return state.config;
}

function validate(config: WindowConfig): void {
  const details = windowViolations(config);
  if (details.length > 0) throw ValidationError.of(details);
}

const sameConfig = (a: WindowConfig, b: WindowConfig) => JSON.stringify(a) === JSON.stringify(b);

export const maintenanceWindowDecider: Decider<MaintenanceWindowState, MaintenanceWindowCommand, MaintenanceWindowEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, config: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateMaintenanceWindow':
        if (state.status !== 'absent') throw new ConflictError('Maintenance window already exists');
        validate(command.config);
        return [{ type: 'MaintenanceWindowCreated', data: { id: command.id, accountId: command.accountId, config: command.config } }];
      case 'UpdateMaintenanceWindow': {
        const current = requireOwned(state, command.accountId);
        validate(command.config);
        if (sameConfig(current, command.config)) return [];
        return [{ type: 'MaintenanceWindowUpdated', data: { id: command.id, config: command.config } }];
      }
      case 'DeleteMaintenanceWindow':
        requireOwned(state, command.accountId);
        return [{ type: 'MaintenanceWindowDeleted', data: { id: command.id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'MaintenanceWindowCreated':
        return { status: 'active', accountId: event.data.accountId, config: event.data.config };
      case 'MaintenanceWindowUpdated':
        return { ...state, config: event.data.config };
      case 'MaintenanceWindowDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const maintenanceWindowStream = (id: string) => `maintenance-${id}`;

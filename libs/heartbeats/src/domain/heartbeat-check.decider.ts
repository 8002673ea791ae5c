import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError, ValidationError, ViolationDetail } from '../../../core/src/errors';

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
export const SEVERITIES = ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'] as const;
export type Severity = (typeof SEVERITIES)[number];

const UNIT_MS: Record<TimeUnit, number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
export const MIN_PERIOD_MS = 30_000;
export const MAX_SPAN_MS = 365 * 86_400_000;

export const toMs = (amount: number, unit: TimeUnit): number => amount * UNIT_MS[unit];

export interface TriggerIncident {
  serviceId: string;
  severity: Severity;
  name: string;
  description: string;
  notifySubscribers: boolean;
}

/** What a client configures; everything the check API stores. */
export interface CheckConfig {
  name: string;
  activated: boolean;
  muted: boolean;
  tags: string[];
  description: string | null;
  heartbeat: { period: number; periodUnit: TimeUnit; grace: number; graceUnit: TimeUnit; pingToken: string };
  triggerIncident: TriggerIncident | null;
  alertSettings: Record<string, unknown> | null;
  alertChannelSubscriptions: unknown[];
}

export type HeartbeatCheckEvent =
  | { type: 'HeartbeatCheckCreated'; data: { id: string; accountId: string; config: CheckConfig } }
  | { type: 'HeartbeatCheckUpdated'; data: { id: string; config: CheckConfig } }
  | { type: 'HeartbeatCheckDeleted'; data: { id: string } };

const CHECK_EVENT_TYPES: readonly string[] = ['HeartbeatCheckCreated', 'HeartbeatCheckUpdated', 'HeartbeatCheckDeleted'];

/** Events of a check stream are what this decider wrote: the type names the shape. */
export function isHeartbeatCheckEvent(event: { type: string; data: unknown }): event is HeartbeatCheckEvent {
  return CHECK_EVENT_TYPES.includes(event.type);
}

export type HeartbeatCheckCommand =
  | { type: 'CreateHeartbeatCheck'; id: string; accountId: string; config: CheckConfig }
  | { type: 'UpdateHeartbeatCheck'; id: string; accountId: string; config: CheckConfig }
  | { type: 'DeleteHeartbeatCheck'; id: string; accountId: string };

export interface HeartbeatCheckState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  config: CheckConfig | null;
}

/** Period 30 s to 365 d, grace 0 to 365 d, both whole numbers of their unit. */
export function checkTiming(heartbeat: CheckConfig['heartbeat']): void {
  const details: ViolationDetail[] = [];
  const period = toMs(heartbeat.period, heartbeat.periodUnit);
  if (period < MIN_PERIOD_MS || period > MAX_SPAN_MS) {
    details.push({ path: 'heartbeat.period', message: 'period must be between 30 seconds and 365 days' });
  }
  const grace = toMs(heartbeat.grace, heartbeat.graceUnit);
  if (grace < 0 || grace > MAX_SPAN_MS) {
    details.push({ path: 'heartbeat.grace', message: 'grace must be between 0 seconds and 365 days' });
  }
  if (details.length > 0) throw ValidationError.of(details);
}

function requireOwned(state: HeartbeatCheckState, accountId: string): CheckConfig {
  // Another account's check is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId || !state.config) throw new NotFoundError('Check not found');
  return state.config;
}

const sameConfig = (a: CheckConfig, b: CheckConfig) => JSON.stringify(a) === JSON.stringify(b);

export const heartbeatCheckDecider: Decider<HeartbeatCheckState, HeartbeatCheckCommand, HeartbeatCheckEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, config: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateHeartbeatCheck':
        if (state.status !== 'absent') throw new ConflictError('Check already exists');
        checkTiming(command.config.heartbeat);
        return [{ type: 'HeartbeatCheckCreated', data: { id: command.id, accountId: command.accountId, config: command.config } }];
      case 'UpdateHeartbeatCheck': {
        const current = requireOwned(state, command.accountId);
        checkTiming(command.config.heartbeat);
        if (sameConfig(current, command.config)) return [];
        return [{ type: 'HeartbeatCheckUpdated', data: { id: command.id, config: command.config } }];
      }
      case 'DeleteHeartbeatCheck':
        requireOwned(state, command.accountId);
        return [{ type: 'HeartbeatCheckDeleted', data: { id: command.id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'HeartbeatCheckCreated':
        return { status: 'active', accountId: event.data.accountId, config: event.data.config };
      case 'HeartbeatCheckUpdated':
        return { ...state, config: event.data.config };
      case 'HeartbeatCheckDeleted':
        return { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

export const checkStream = (id: string) => `check-${id}`;

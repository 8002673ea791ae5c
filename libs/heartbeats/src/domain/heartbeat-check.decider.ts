import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { parseSchedule } from './schedule';

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
export const SEVERITIES = ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'] as const;
export type Severity = (typeof SEVERITIES)[number];

const UNIT_MS: Record<TimeUnit, number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
export const MIN_PERIOD_MS = 30_000;
export const MAX_SPAN_MS = 365 * 86_400_000;

/** A schedule check has no period; its timer's deadline comes from the schedule (`nextDueAt`), not from this span. */
export const NO_PERIOD_MS = 100 * 365 * 86_400_000;

export const toMs = (amount: number | null | undefined, unit: TimeUnit | null | undefined): number =>
  amount === null || amount === undefined || !unit ? NO_PERIOD_MS : amount * UNIT_MS[unit];

/** Optional per-check name in slug URLs (contract §4.1). */
export const SLUG_PATTERN = /^[a-z0-9_-]{1,100}$/;

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
  /** Either `period`+`periodUnit` or `schedule` (5-field cron or nickname) with its IANA `timezone`. */
  heartbeat: {
    period: number | null;
    periodUnit: TimeUnit | null;
    schedule?: string | null;
    timezone?: string | null;
    grace: number;
    graceUnit: TimeUnit;
    pingToken: string;
  };
  /** Unique per account; absent on checks created before slugs existed. */
  slug?: string | null;
  triggerIncident: TriggerIncident | null;
  alertSettings: Record<string, unknown> | null;
  alertChannelSubscriptions: AlertChannelSubscription[];
}

/** A check's side of its alert channel subscriptions; channels show the same data (libs/alerting). */
export interface AlertChannelSubscription {
  alertChannelId: string;
  activated: boolean;
}

export type HeartbeatCheckEvent =
  | { type: 'HeartbeatCheckCreated'; data: { id: string; accountId: string; config: CheckConfig } }
  | { type: 'HeartbeatCheckUpdated'; data: { id: string; config: CheckConfig } }
  | { type: 'HeartbeatCheckDeleted'; data: { id: string } };

/** A configuration as a client sends it: a missing ping token is generated (create) or kept (update). */
export type CheckInput = Omit<CheckConfig, 'heartbeat'> & {
  heartbeat: Omit<CheckConfig['heartbeat'], 'pingToken'> & { pingToken: string | null };
};

export type HeartbeatCheckCommand =
  | { type: 'CreateHeartbeatCheck'; id: string; accountId: string; config: CheckInput }
  | { type: 'UpdateHeartbeatCheck'; id: string; accountId: string; config: CheckInput }
  | { type: 'DeleteHeartbeatCheck'; id: string; accountId: string }
  /** From the channel's side: `activated` null removes the subscription. */
  | { type: 'SetAlertChannelSubscription'; id: string; accountId: string; alertChannelId: string; activated: boolean | null };

export interface HeartbeatCheckState {
  status: 'absent' | 'active' | 'deleted';
  accountId: string | null;
  config: CheckConfig | null;
}

/** Either a period (30 s to 365 d) or a valid schedule in a valid zone, never both; grace 0 to 365 d. */
function checkTiming(heartbeat: CheckInput['heartbeat'], slug?: string | null): void {
  const details: ViolationDetail[] = [];
  const hasPeriod = heartbeat.period !== null && heartbeat.period !== undefined;
  const hasSchedule = heartbeat.schedule !== null && heartbeat.schedule !== undefined;
  if (hasPeriod && hasSchedule) {
    details.push({ path: 'heartbeat.schedule', message: 'give either period and periodUnit or schedule, not both' });
  } else if (!hasPeriod && !hasSchedule) {
    details.push({ path: 'heartbeat.period', message: 'period and periodUnit, or schedule, are required' });
  } else if (hasPeriod) {
    if (!heartbeat.periodUnit) details.push({ path: 'heartbeat.periodUnit', message: 'periodUnit is required with period' });
    const period = toMs(heartbeat.period, heartbeat.periodUnit);
    if (heartbeat.periodUnit && (period < MIN_PERIOD_MS || period > MAX_SPAN_MS)) {
      details.push({ path: 'heartbeat.period', message: 'period must be between 30 seconds and 365 days' });
    }
    if (heartbeat.timezone) details.push({ path: 'heartbeat.timezone', message: 'timezone applies to a schedule only' });
  } else {
    if (heartbeat.periodUnit) details.push({ path: 'heartbeat.periodUnit', message: 'periodUnit applies to a period only' });
    details.push(...parseSchedule(heartbeat.schedule, heartbeat.timezone).details);
  }
  if (slug !== null && slug !== undefined && !SLUG_PATTERN.test(slug)) {
    details.push({ path: 'slug', message: 'slug must be 1–100 lowercase letters, digits, hyphens or underscores' });
  }
  const grace = toMs(heartbeat.grace, heartbeat.graceUnit);
  if (grace < 0 || grace > MAX_SPAN_MS) {
    details.push({ path: 'heartbeat.grace', message: 'grace must be between 0 seconds and 365 days' });
  }
  if (details.length > 0) throw ValidationError.of(details);
}

/** The valid configuration with the token sent, or else `currentToken`; a 400 when there is no token at all. */
function validConfig(input: CheckInput, currentToken: string | null): CheckConfig {
  const pingToken = input.heartbeat.pingToken ?? currentToken;
  if (pingToken === null) throw ValidationError.of([{ path: 'heartbeat.pingToken', message: 'pingToken is required' }]);
  checkTiming(input.heartbeat, input.slug);
  return input.heartbeat.pingToken === pingToken ? (input as CheckConfig) : { ...input, heartbeat: { ...input.heartbeat, pingToken } };
}

export function requireOwned(state: HeartbeatCheckState, accountId: string): CheckConfig {
  // Another account's check is indistinguishable from a missing one.
  if (state.status !== 'active' || state.accountId !== accountId || !state.config) throw new NotFoundError('Check not found');
  return state.config;
}

/** Keys in sorted order at every level: the same config compares equal whatever order its keys arrived in. */
const sortedKeys = (_key: string, value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/** Every optional field present, so a config stored before the field existed equals one that sends it as null. */
function comparable(c: CheckConfig): string {
  const heartbeat = { ...c.heartbeat, schedule: c.heartbeat.schedule ?? null, timezone: c.heartbeat.timezone ?? null };
  return JSON.stringify({ ...c, slug: c.slug ?? null, heartbeat }, sortedKeys);
}

const sameConfig = (a: CheckConfig, b: CheckConfig) => comparable(a) === comparable(b);

export const heartbeatCheckDecider: Decider<HeartbeatCheckState, HeartbeatCheckCommand, HeartbeatCheckEvent> = {
  initialState: () => ({ status: 'absent', accountId: null, config: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateHeartbeatCheck': {
        if (state.status !== 'absent') throw new ConflictError('Check already exists');
        const config = validConfig(command.config, null);
        return [{ type: 'HeartbeatCheckCreated', data: { id: command.id, accountId: command.accountId, config } }];
      }
      case 'UpdateHeartbeatCheck': {
        const current = requireOwned(state, command.accountId);
        const config = validConfig(command.config, current.heartbeat.pingToken);
        return sameConfig(current, config) ? [] : [{ type: 'HeartbeatCheckUpdated', data: { id: command.id, config } }];
      }
      case 'DeleteHeartbeatCheck':
        requireOwned(state, command.accountId);
        return [{ type: 'HeartbeatCheckDeleted', data: { id: command.id } }];
      case 'SetAlertChannelSubscription': {
        const current = requireOwned(state, command.accountId);
        const others = (current.alertChannelSubscriptions ?? []).filter((s) => s.alertChannelId !== command.alertChannelId);
        const subscriptions = command.activated === null ? others : [...others, { alertChannelId: command.alertChannelId, activated: command.activated }];
        const config = { ...current, alertChannelSubscriptions: subscriptions };
        return sameConfig(current, config) ? [] : [{ type: 'HeartbeatCheckUpdated', data: { id: command.id, config } }];
      }
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

import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { intervalSeconds, MonitorConfig, RESPONSE_TIME_LIMITS, SUB_MINUTE_SECONDS } from './monitor-config';
import { evolveRounds, MonitorOutage, MonitorRounds, recordRun } from './monitor-rounds.decider';
import { MonitorRun, MonitorStatus, RunOutcome } from './round';
import { RunRecordedData } from './run-codec';

export const monitorStream = (id: string): string => `monitor-${id}`;

export type MonitorCommand =
  | { type: 'CreateMonitor'; id: string; accountId: string; config: MonitorConfig }
  | { type: 'UpdateMonitor'; id: string; accountId: string; config: MonitorConfig }
  | { type: 'DeleteMonitor'; id: string; accountId: string }
  | { type: 'SetMonitorActivated'; id: string; accountId: string; activated: boolean }
  | { type: 'SetMonitorMuted'; id: string; accountId: string; muted: boolean }
  | { type: 'RecordMonitorRun'; id: string; run: MonitorRun; failThreshold: number };

export type MonitorEvent =
  | { type: 'MonitorCreated'; data: { id: string; accountId: string; config: MonitorConfig } }
  | { type: 'MonitorUpdated'; data: { id: string; config: MonitorConfig } }
  | { type: 'MonitorDeleted'; data: { id: string } }
  | { type: 'MonitorActivationChanged'; data: { id: string; activated: boolean } }
  | { type: 'MonitorMuteChanged'; data: { id: string; muted: boolean } }
  /** Compact (run-codec.ts): nearly every event of a monitor is one. */
  | { type: 'MonitorRunRecorded'; data: RunRecordedData }
  | {
      type: 'MonitorStateChanged';
      /** `outage`: to FAILING the outage it begins, from FAILING the one it ends (absent on events written before they carried it). */
      data: { id: string; from: MonitorStatus | null; to: MonitorStatus; roundAt: string; failedLocations: string[]; downtimeMs: number | null; outage?: MonitorOutage };
    }
  /** Another FAILING round of the same outage, up to the last that escalation can wait for (runs 2 to 5). */
  | { type: 'MonitorStillFailing'; data: { id: string; roundAt: string; failingRounds: number; failedLocations: string[]; outage?: MonitorOutage } };

export { MAX_ESCALATION_ROUNDS } from './monitor-rounds.decider';
export type { MonitorOutage } from './monitor-rounds.decider';

export interface MonitorState {
  id: string | null;
  accountId: string | null;
  deleted: boolean;
  config: MonitorConfig | null;
  status: MonitorStatus | null;
  /** When the current status began (the round that brought it). */
  statusSince: string | null;
  /** The newest round seen and its locations' final outcomes so far. */
  round: { at: string; outcomes: Record<string, RunOutcome>; decided: boolean; expiring?: string[] } | null;
  /** The current outage while FAILING; absent on a state kept before it knew its outage. */
  outage?: MonitorOutage | null;
}

/** The part of a monitor's state its runs are decided on. */
export const roundsOf = (state: MonitorState): MonitorRounds => ({
  id: state.id,
  accountId: state.accountId,
  deleted: state.deleted,
  checkType: state.config?.checkType ?? null,
  locations: state.config?.locations ?? [],
  status: state.status,
  statusSince: state.statusSince,
  round: state.round,
  outage: state.outage,
});

const initialState = (): MonitorState => ({ id: null, accountId: null, deleted: false, config: null, status: null, statusSince: null, round: null, outage: null });

/** Invariants a config must hold whoever built it (the HTTP body parser checks the same, field by field). */
function checkConfig(config: MonitorConfig): void {
  const seconds = intervalSeconds(config);
  const problems = [];
  if (config.frequency === 0 && !(SUB_MINUTE_SECONDS as readonly number[]).includes(config.frequencyOffset)) problems.push({ path: 'frequencyOffset', message: 'must be 10, 20 or 30' });
  if (seconds < 10 || seconds > 86_400) problems.push({ path: 'frequency', message: 'must be between 10 seconds and 24 hours' });
  if (config.degradedResponseTime > config.maxResponseTime) problems.push({ path: 'degradedResponseTime', message: 'must not exceed maxResponseTime' });
  if (config.maxResponseTime > RESPONSE_TIME_LIMITS[config.checkType].bound) problems.push({ path: 'maxResponseTime', message: 'is above the limit of this type' });
  if (config.locations.length === 0) problems.push({ path: 'locations', message: 'must name at least one location' });
  if (problems.length > 0) throw ValidationError.of(problems);
}

function owned(state: MonitorState, accountId: string): MonitorConfig {
  // Another account's monitor is as unknown as a missing one.
  if (state.config === null || state.deleted || state.accountId !== accountId) throw new NotFoundError('Monitor not found');
  return state.config;
}

/** A probed monitor: its configuration, and the state its rounds of runs bring. */
export const monitorDecider: Decider<MonitorState, MonitorCommand, MonitorEvent> = {
  initialState,
  decide(command, state) {
    switch (command.type) {
      case 'CreateMonitor':
        if (state.id !== null) throw new ConflictError('Monitor already exists');
        checkConfig(command.config);
        return [{ type: 'MonitorCreated', data: { id: command.id, accountId: command.accountId, config: command.config } }];
      case 'UpdateMonitor': {
        const config = owned(state, command.accountId);
        if (command.config.checkType !== config.checkType) throw ValidationError.of([{ path: 'checkType', message: `must stay ${config.checkType}` }]);
        checkConfig(command.config);
        if (JSON.stringify(command.config) === JSON.stringify(config)) return [];
        return [{ type: 'MonitorUpdated', data: { id: command.id, config: command.config } }];
      }
      case 'DeleteMonitor':
        owned(state, command.accountId);
        return [{ type: 'MonitorDeleted', data: { id: command.id } }];
      case 'SetMonitorActivated':
        return owned(state, command.accountId).activated === command.activated ? [] : [{ type: 'MonitorActivationChanged', data: { id: command.id, activated: command.activated } }];
      case 'SetMonitorMuted':
        return owned(state, command.accountId).muted === command.muted ? [] : [{ type: 'MonitorMuteChanged', data: { id: command.id, muted: command.muted } }];
      case 'RecordMonitorRun':
        return recordRun(roundsOf(state), command.id, command.run, command.failThreshold);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'MonitorCreated':
        return { ...state, id: event.data.id, accountId: event.data.accountId, config: event.data.config };
      case 'MonitorUpdated':
        return { ...state, config: event.data.config };
      case 'MonitorDeleted':
        return { ...state, deleted: true };
      case 'MonitorActivationChanged':
        return state.config ? { ...state, config: { ...state.config, activated: event.data.activated } } : state;
      case 'MonitorMuteChanged':
        return state.config ? { ...state, config: { ...state.config, muted: event.data.muted } } : state;
      default: {
        const { status, statusSince, round, outage } = evolveRounds(roundsOf(state), event);
        return { ...state, status, statusSince, round, outage };
      }
    }
  },
};

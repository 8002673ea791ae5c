import { Decider } from '../../../core/src/decider';
import { EventOf } from '../../../core/src/event';
import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { expiringDays } from './certificate-expiry';
import { intervalSeconds, MonitorConfig, RESPONSE_TIME_LIMITS, SUB_MINUTE_SECONDS } from './monitor-config';
import { decideRound, MonitorRun, MonitorStatus, RunOutcome } from './round';
import { encodeRun, RunRecordedData, runOf } from './run-codec';

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

/** A monitor's outage, from the round that made it FAILING to the one that ends it. */
export interface MonitorOutage {
  /** The round that began it. */
  startedAt: string;
  /** Its FAILING rounds so far, counted up to MAX_ESCALATION_ROUNDS. */
  failingRounds: number;
  /** Every failed location's certificate expires soon: the certificate-expiry alert takes the failure's place. */
  sslExpiry: boolean;
}

/** RUN_BASED escalation waits for at most this many failing rounds, so an outage adds at most this many events. */
export const MAX_ESCALATION_ROUNDS = 5;

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

const initialState = (): MonitorState => ({ id: null, accountId: null, deleted: false, config: null, status: null, statusSince: null, round: null, outage: null });

/** The round's locations whose final run failed only because the certificate expires soon. */
function expiringAfter(round: { expiring?: string[] }, run: MonitorRun): string[] {
  const others = (round.expiring ?? []).filter((l) => l !== run.location);
  return run.outcome === 'FAIL' && expiringDays(run.error) !== null ? [...others, run.location] : others;
}

/** The outage a round making the monitor FAILING begins. */
function outageBegun(config: MonitorConfig | null, roundAt: string, failedLocations: string[], expiring: string[]): MonitorOutage {
  const sslExpiry = config?.checkType === 'SSL' && failedLocations.length > 0 && failedLocations.every((l) => expiring.includes(l));
  return { startedAt: roundAt, failingRounds: 1, sslExpiry };
}

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

function recordRun(state: MonitorState, id: string, run: MonitorRun, threshold: number): MonitorEvent[] {
  if (state.config === null || state.deleted) throw new NotFoundError('Monitor not found');
  const events: MonitorEvent[] = [{ type: 'MonitorRunRecorded', data: { r: encodeRun(run) } }];
  const config = state.config;
  // A late run of an older round, a run from a location the monitor left, or a retry to come: recorded, not decisive.
  if (!run.final || !config.locations.includes(run.location)) return events;
  if (state.round !== null && run.roundAt < state.round.at) return events;
  const current = state.round !== null && state.round.at === run.roundAt ? state.round : { at: run.roundAt, outcomes: {}, decided: false };
  if (current.decided) return events;
  const outcomes = { ...current.outcomes, [run.location]: run.outcome };
  if (!config.locations.every((l) => l in outcomes)) return events;
  const to = decideRound(config.locations.map((l) => outcomes[l]), threshold);
  const failedLocations = config.locations.filter((l) => outcomes[l] === 'FAIL');
  // A state kept before it knew its outage counts no more rounds and carries no outage.
  const ongoing = state.status === 'FAILING' ? (state.outage ?? null) : null;
  if (to === state.status) {
    if (ongoing !== null && ongoing.failingRounds < MAX_ESCALATION_ROUNDS) {
      const outage = { ...ongoing, failingRounds: ongoing.failingRounds + 1 };
      events.push({ type: 'MonitorStillFailing', data: { id, roundAt: run.roundAt, failingRounds: outage.failingRounds, failedLocations, outage } });
    }
    return events;
  }
  const downtimeMs = state.status === 'FAILING' && state.statusSince !== null ? Date.parse(run.roundAt) - Date.parse(state.statusSince) : null;
  const data: EventOf<MonitorEvent, 'MonitorStateChanged'>['data'] = { id, from: state.status, to, roundAt: run.roundAt, failedLocations, downtimeMs };
  if (to === 'FAILING') data.outage = outageBegun(config, run.roundAt, failedLocations, expiringAfter(current, run));
  else if (ongoing !== null) data.outage = ongoing;
  events.push({ type: 'MonitorStateChanged', data });
  return events;
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
        return recordRun(state, command.id, command.run, command.failThreshold);
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
      case 'MonitorRunRecorded': {
        const run = runOf(event.data);
        if (!run.final || (state.round !== null && run.roundAt < state.round.at)) return state;
        const round = state.round !== null && state.round.at === run.roundAt ? state.round : { at: run.roundAt, outcomes: {}, decided: false };
        const outcomes = { ...round.outcomes, [run.location]: run.outcome };
        const decided = state.config !== null && state.config.locations.every((l) => l in outcomes);
        const expiring = expiringAfter(round, run);
        return { ...state, round: { at: round.at, outcomes, decided, ...(expiring.length > 0 ? { expiring } : {}) } };
      }
      case 'MonitorStateChanged': {
        const { to, roundAt, failedLocations, outage } = event.data;
        // Events written before they carried the outage give the same state: the round's runs tell the rest.
        const begun = to === 'FAILING' ? (outage ?? outageBegun(state.config, roundAt, failedLocations, state.round?.expiring ?? [])) : null;
        return { ...state, status: to, statusSince: roundAt, outage: begun };
      }
      case 'MonitorStillFailing': {
        const { outage, failingRounds } = event.data;
        return { ...state, outage: outage ?? (state.outage ? { ...state.outage, failingRounds } : state.outage) };
      }
    }
  },
};

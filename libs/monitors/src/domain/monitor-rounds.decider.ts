import { Decider } from '../../../core/src/decider';
import { EventOf } from '../../../core/src/event';
import { NotFoundError } from '../../../core/src/errors';
import { expiringDays } from './certificate-expiry';
import type { MonitorCommand, MonitorEvent } from './monitor.decider';
import { CheckType } from './monitor-config';
import { decideRound, MonitorRun, MonitorStatus, RunOutcome } from './round';
import { encodeRun, runOf } from './run-codec';

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

/**
 * What a monitor's runs are decided on: who it is, where it runs and its rounds, without the rest of its
 * configuration. Folded from the same stream as the whole monitor, so a run's snapshot stays small.
 */
export interface MonitorRounds {
  id: string | null;
  accountId: string | null;
  deleted: boolean;
  checkType: CheckType | null;
  locations: string[];
  status: MonitorStatus | null;
  /** When the current status began (the round that brought it). */
  statusSince: string | null;
  /** The newest round seen and its locations' final outcomes so far. */
  round: { at: string; outcomes: Record<string, RunOutcome>; decided: boolean; expiring?: string[] } | null;
  /** The current outage while FAILING; absent on a state kept before it knew its outage. */
  outage?: MonitorOutage | null;
}

export type RecordMonitorRun = Extract<MonitorCommand, { type: 'RecordMonitorRun' }>;

/** The round's locations whose final run failed only because the certificate expires soon. */
function expiringAfter(round: { expiring?: string[] }, run: MonitorRun): string[] {
  const others = (round.expiring ?? []).filter((l) => l !== run.location);
  return run.outcome === 'FAIL' && expiringDays(run.error) !== null ? [...others, run.location] : others;
}

/** The outage a round making the monitor FAILING begins. */
function outageBegun(checkType: CheckType | null, roundAt: string, failedLocations: string[], expiring: string[]): MonitorOutage {
  const sslExpiry = checkType === 'SSL' && failedLocations.length > 0 && failedLocations.every((l) => expiring.includes(l));
  return { startedAt: roundAt, failingRounds: 1, sslExpiry };
}

/** The events a run brings: itself, and the state change or further failing round its round decides. */
export function recordRun(state: MonitorRounds, id: string, run: MonitorRun, threshold: number): MonitorEvent[] {
  if (state.id === null || state.deleted) throw new NotFoundError('Monitor not found');
  const events: MonitorEvent[] = [{ type: 'MonitorRunRecorded', data: { r: encodeRun(run) } }];
  const locations = state.locations;
  // A late run of an older round, a run from a location the monitor left, or a retry to come: recorded, not decisive.
  if (!run.final || !locations.includes(run.location)) return events;
  if (state.round !== null && run.roundAt < state.round.at) return events;
  const current = state.round !== null && state.round.at === run.roundAt ? state.round : { at: run.roundAt, outcomes: {}, decided: false };
  if (current.decided) return events;
  const outcomes = { ...current.outcomes, [run.location]: run.outcome };
  if (!locations.every((l) => l in outcomes)) return events;
  const to = decideRound(locations.map((l) => outcomes[l]), threshold);
  const failedLocations = locations.filter((l) => outcomes[l] === 'FAIL');
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
  if (to === 'FAILING') data.outage = outageBegun(state.checkType, run.roundAt, failedLocations, expiringAfter(current, run));
  else if (ongoing !== null) data.outage = ongoing;
  events.push({ type: 'MonitorStateChanged', data });
  return events;
}

/** The rounds after an event; configuration events change only who the monitor is and where it runs. */
export function evolveRounds(state: MonitorRounds, event: MonitorEvent): MonitorRounds {
  switch (event.type) {
    case 'MonitorCreated': {
      const { id, accountId, config } = event.data;
      return { ...state, id, accountId, checkType: config.checkType, locations: config.locations };
    }
    case 'MonitorUpdated':
      return { ...state, checkType: event.data.config.checkType, locations: event.data.config.locations };
    case 'MonitorDeleted':
      return { ...state, deleted: true };
    case 'MonitorActivationChanged':
    case 'MonitorMuteChanged':
      return state;
    case 'MonitorRunRecorded': {
      const run = runOf(event.data);
      if (!run.final || (state.round !== null && run.roundAt < state.round.at)) return state;
      const round = state.round !== null && state.round.at === run.roundAt ? state.round : { at: run.roundAt, outcomes: {}, decided: false };
      const outcomes = { ...round.outcomes, [run.location]: run.outcome };
      const decided = state.id !== null && state.locations.every((l) => l in outcomes);
      const expiring = expiringAfter(round, run);
      return { ...state, round: { at: round.at, outcomes, decided, ...(expiring.length > 0 ? { expiring } : {}) } };
    }
    case 'MonitorStateChanged': {
      const { to, roundAt, failedLocations, outage } = event.data;
      // Events written before they carried the outage give the same state: the round's runs tell the rest.
      const begun = to === 'FAILING' ? (outage ?? outageBegun(state.checkType, roundAt, failedLocations, state.round?.expiring ?? [])) : null;
      return { ...state, status: to, statusSince: roundAt, outage: begun };
    }
    case 'MonitorStillFailing': {
      const { outage, failingRounds } = event.data;
      return { ...state, outage: outage ?? (state.outage ? { ...state.outage, failingRounds } : state.outage) };
    }
  }
}

export const initialRounds = (): MonitorRounds => ({ id: null, accountId: null, deleted: false, checkType: null, locations: [], status: null, statusSince: null, round: null, outage: null });

/** A monitor's runs alone: what the runs' command handler folds and decides, from the small snapshot their read model keeps. */
export const monitorRoundsDecider: Decider<MonitorRounds, RecordMonitorRun, MonitorEvent> = {
  initialState: initialRounds,
  decide: (command, state) => recordRun(state, command.id, command.run, command.failThreshold),
  evolve: evolveRounds,
};

import { CheckConfig, toMs } from './heartbeat-check.decider';

/** States a heartbeat event can have; FAILING is written by the watchdog, the others by pings. */
export const PING_STATES = ['EARLY', 'RECEIVED', 'GRACE', 'LATE'] as const;
export type PingState = (typeof PING_STATES)[number];
export const EVENT_STATES = [...PING_STATES, 'FAILING'] as const;
export type HeartbeatState = (typeof EVENT_STATES)[number];

/**
 * Events of `heartbeat-<checkId>`: the timer's own log. The schedule (period, grace, activation,
 * token) is copied here from the check's configuration, so the timer, its deadline and the ping
 * states all follow from this one stream, and a watchdog's expected-revision append conflicts with
 * a ping or a reconfiguration alike.
 */
export type HeartbeatEvent =
  | { type: 'HeartbeatScheduleChanged'; data: ScheduleChangedData }
  | { type: 'HeartbeatPingReceived'; data: PingReceivedData }
  | { type: 'HeartbeatFailed'; data: FailedData };

const HEARTBEAT_EVENT_TYPES: readonly string[] = ['HeartbeatScheduleChanged', 'HeartbeatPingReceived', 'HeartbeatFailed'];

/** Events of a heartbeat stream are what the heartbeat decider wrote: the type names the shape. */
export function isHeartbeatEvent(event: { type: string; data: unknown }): event is HeartbeatEvent {
  return HEARTBEAT_EVENT_TYPES.includes(event.type);
}

export interface ScheduleChangedData {
  checkId: string;
  pingToken: string;
  periodMs: number;
  graceMs: number;
  activated: boolean;
  deleted: boolean;
  /** Set when this change (re)starts the timer: re-activation or a new period. */
  restartAt: string | null;
  /** Revision of `check-<id>` this schedule reflects. */
  checkRevision: number;
}

export interface PingReceivedData {
  eventId: string;
  checkId: string;
  state: PingState;
  at: string;
  source: string | null;
  userAgent: string | null;
  /** Set on the first ping after a FAILING: the eventId of the FAILING that began the outage. */
  recoveredFrom?: string | null;
}

export interface FailedData {
  eventId: string;
  checkId: string;
  /** The deadline that passed; also the event's timestamp and the timer's new start. */
  deadline: string;
  /** First FAILING after a success: opens the incident. */
  first: boolean;
}

/** A ping or a failure as the check's history shows it: endpoint 9's event, counted by the rollups. */
export interface Occurrence {
  eventId: string;
  checkId: string;
  state: HeartbeatState;
  /** The ping's `at`, a failure's deadline. */
  timestamp: string;
  ms: number;
  source: string | null;
  userAgent: string | null;
}

/** The occurrence an event records; null for a schedule change. */
export function occurrenceOf(event: { type: string; data: unknown }): Occurrence | null {
  if (!isHeartbeatEvent(event) || event.type === 'HeartbeatScheduleChanged') return null;
  if (event.type === 'HeartbeatFailed') {
    const { eventId, checkId, deadline } = event.data;
    return { eventId, checkId, state: 'FAILING', timestamp: deadline, ms: Date.parse(deadline), source: 'watchdog', userAgent: null };
  }
  const { eventId, checkId, state, at, source, userAgent } = event.data;
  return { eventId, checkId, state, timestamp: at, ms: Date.parse(at), source, userAgent };
}

export interface TimerState {
  checkId: string | null;
  pingToken: string | null;
  periodMs: number;
  graceMs: number;
  activated: boolean;
  deleted: boolean;
  checkRevision: number;
  /** ms since epoch; null while no timer runs (never pinged, deactivated). */
  timerStart: number | null;
  everPinged: boolean;
  /** The last ping or failure was a FAILING. */
  failing: boolean;
  /** eventId of the first FAILING of the current outage. */
  failingSince: string | null;
  lastPingAt: number | null;
}

export const initialTimer = (): TimerState => ({
  checkId: null,
  pingToken: null,
  periodMs: 0,
  graceMs: 0,
  activated: false,
  deleted: false,
  checkRevision: -1,
  timerStart: null,
  everPinged: false,
  failing: false,
  failingSince: null,
  lastPingAt: null,
});

/** 10% of the period, at least 1 s, at most 5 min. */
export const tolerance = (periodMs: number): number => Math.min(300_000, Math.max(1000, periodMs / 10));

export function expectedAt(timer: TimerState): number | null {
  return timer.timerStart === null ? null : timer.timerStart + timer.periodMs;
}

/** When the watchdog must fail the check; null when no timer runs or the check is off. */
export function deadlineOf(timer: TimerState): number | null {
  if (!timer.activated || timer.deleted || timer.timerStart === null) return null;
  return timer.timerStart + timer.periodMs + timer.graceMs;
}

/** The state of a ping arriving at `now`, by the timing rules of contract §4. */
export function pingState(timer: TimerState, now: number): PingState {
  const expected = expectedAt(timer);
  if (!timer.everPinged || timer.failing || expected === null) return 'RECEIVED';
  const tol = tolerance(timer.periodMs);
  if (now < expected - tol) return 'EARLY';
  if (now <= expected + tol) return 'RECEIVED';
  if (now <= expected + timer.graceMs) return 'GRACE';
  return 'LATE';
}

/** True when the watchdog owes a FAILING at `now`: the deadline has passed with no ping. */
export function isDue(timer: TimerState, now: number): boolean {
  const deadline = deadlineOf(timer);
  return deadline !== null && now > deadline;
}

/**
 * The timer after a ping at `atMs`: evolveTimer's ping case, for callers that hold the time as a number.
 * A literal rather than a spread: one allocation and no slow path, on every ping.
 */
export function pingedTimer(timer: TimerState, atMs: number): TimerState {
  return {
    checkId: timer.checkId,
    pingToken: timer.pingToken,
    periodMs: timer.periodMs,
    graceMs: timer.graceMs,
    activated: timer.activated,
    deleted: timer.deleted,
    checkRevision: timer.checkRevision,
    timerStart: atMs,
    everPinged: true,
    failing: false,
    failingSince: null,
    lastPingAt: atMs,
  };
}

export function evolveTimer(timer: TimerState, e: { type: string; data: unknown }): TimerState {
  if (!isHeartbeatEvent(e)) return timer;
  switch (e.type) {
    case 'HeartbeatScheduleChanged': {
      const d = e.data;
      const running = d.activated && !d.deleted;
      let timerStart = running ? timer.timerStart : null;
      if (running && d.restartAt) timerStart = Date.parse(d.restartAt);
      return {
        ...timer,
        checkId: d.checkId,
        pingToken: d.pingToken,
        periodMs: d.periodMs,
        graceMs: d.graceMs,
        activated: d.activated,
        deleted: d.deleted,
        checkRevision: d.checkRevision,
        timerStart,
      };
    }
    case 'HeartbeatPingReceived':
      return pingedTimer(timer, Date.parse(e.data.at));
    case 'HeartbeatFailed':
      return {
        ...timer,
        timerStart: Date.parse(e.data.deadline),
        failing: true,
        failingSince: timer.failing ? timer.failingSince : e.data.eventId,
      };
    default:
      return timer;
  }
}

/**
 * The schedule event that brings the timer in line with the check's configuration at `checkRevision`
 * (null config: the check is deleted), or null when the timer already reflects it. The timer restarts
 * on re-activation and on a new period, once the check has been pinged at least once.
 */
export function scheduleChange(
  checkId: string,
  config: CheckConfig | null,
  checkRevision: number,
  timer: TimerState,
  now: Date,
): ScheduleChangedData | null {
  if (timer.checkRevision >= checkRevision) return null;
  const deleted = config === null;
  const periodMs = config ? toMs(config.heartbeat.period, config.heartbeat.periodUnit) : timer.periodMs;
  const graceMs = config ? toMs(config.heartbeat.grace, config.heartbeat.graceUnit) : timer.graceMs;
  const activated = config ? config.activated : false;
  const reactivated = activated && !timer.activated && timer.everPinged;
  const newPeriod = activated && timer.timerStart !== null && timer.periodMs !== periodMs;
  return {
    checkId,
    pingToken: config ? config.heartbeat.pingToken : (timer.pingToken ?? ''),
    periodMs,
    graceMs,
    activated,
    deleted,
    restartAt: !deleted && (reactivated || newPeriod) ? now.toISOString() : null,
    checkRevision,
  };
}

export const heartbeatStream = (checkId: string) => `heartbeat-${checkId}`;
export const pingTokenStream = (token: string) => `pingtoken-${token}`;

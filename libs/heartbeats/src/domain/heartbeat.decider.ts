import { Decider } from '../../../core/src/decider';
import { CheckConfig, toMs } from './heartbeat-check.decider';
import { DEFAULT_TIME_ZONE, SCHEDULE_TOLERANCE_MS, scheduleTiming } from './schedule';

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
  | { type: 'HeartbeatFailed'; data: FailedData }
  | { type: 'HeartbeatRunStarted'; data: SignalData }
  | { type: 'HeartbeatLogged'; data: SignalData }
  | { type: 'HeartbeatPaused'; data: { checkId: string; at: string } }
  | { type: 'HeartbeatMaintenanceDeferred'; data: MaintenanceDeferredData };

/** A deadline that fell in a maintenance window: no FAILING, the timer restarts at the window's end. */
export interface MaintenanceDeferredData {
  checkId: string;
  /** The deadline that passed inside the window. */
  deadline: string;
  /** The end of the maintenance (chained windows): the timer's new start. */
  until: string;
  /** A schedule check's first occurrence after `until`. */
  nextDueAt?: string | null;
}

export const HEARTBEAT_EVENT_TYPES = [
  'HeartbeatScheduleChanged',
  'HeartbeatPingReceived',
  'HeartbeatFailed',
  'HeartbeatRunStarted',
  'HeartbeatLogged',
  'HeartbeatPaused',
  'HeartbeatMaintenanceDeferred',
] as const;

/** What a run signal may carry beside the ping's own fields; set only when present, to keep events lean. */
export interface SignalExtras {
  /** `?rid=` of the request: pairs a start with its finish. */
  rid?: string;
  /** ms from the paired start to this finish. */
  duration?: number;
  /** 1–255 on a FAILING from `/{exitCode}`; 0 on a success from `/0`. */
  exitCode?: number;
  /** The first 10,000 bytes of a POST body (UTF-8), and whether there was more. */
  body?: string;
  truncated?: boolean;
}

/** `/start` and `/log`: a STARTED or LOG event. */
export interface SignalData extends SignalExtras {
  eventId: string;
  checkId: string;
  at: string;
  source: string | null;
  userAgent: string | null;
}

/** Events of a heartbeat stream are what the heartbeat decider wrote: the type names the shape. */
export function isHeartbeatEvent(event: { type: string; data: unknown }): event is HeartbeatEvent {
  return (HEARTBEAT_EVENT_TYPES as readonly string[]).includes(event.type);
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
  /** Cron schedule and zone of a schedule check (absent on period checks and older events). */
  schedule?: string | null;
  timezone?: string | null;
  /** A schedule check's next expected occurrence, decided with this change. */
  nextDueAt?: string | null;
}

export interface PingReceivedData extends SignalExtras {
  eventId: string;
  checkId: string;
  state: PingState;
  at: string;
  source: string | null;
  userAgent: string | null;
  /** Set on the first ping after a FAILING: the eventId of the FAILING that began the outage. */
  recoveredFrom?: string | null;
  /** A schedule check's next expected occurrence after this ping (absent on period checks). */
  nextDueAt?: string | null;
}

export interface FailedData extends SignalExtras {
  eventId: string;
  checkId: string;
  /** The deadline that passed; also the event's timestamp and the timer's new start. */
  deadline: string;
  /** First FAILING after a success: opens the incident. */
  first: boolean;
  /** A schedule check's next expected occurrence after the deadline (absent on period checks). */
  nextDueAt?: string | null;
  /** Set on a FAILING a ping signalled (`/fail`, `/{1–255}`): the request's, not "watchdog". */
  signal?: true;
  /** Set when the deadline that passed was a started run's: when that run started (a start with no finish). */
  runStartedAt?: string;
  source?: string | null;
  userAgent?: string | null;
}

/** A ping or a failure as the check's history shows it: endpoint 9's event, counted by the rollups. */
export interface Occurrence extends SignalExtras {
  eventId: string;
  checkId: string;
  /** STARTED and LOG are listed but not counted by availability or stats. */
  state: HeartbeatState | 'STARTED' | 'LOG';
  /** The ping's `at`, a failure's deadline. */
  timestamp: string;
  ms: number;
  source: string | null;
  userAgent: string | null;
}

const withExtras = (out: Occurrence, d: SignalExtras): Occurrence => {
  if (d.rid !== undefined) out.rid = d.rid;
  if (d.duration !== undefined) out.duration = d.duration;
  if (d.exitCode !== undefined) out.exitCode = d.exitCode;
  if (d.body !== undefined) out.body = d.body;
  if (d.truncated !== undefined) out.truncated = d.truncated;
  return out;
};

/** The occurrence an event records; null for a schedule change or a pause. */
export function occurrenceOf(event: { type: string; data: unknown }): Occurrence | null {
  if (!isHeartbeatEvent(event) || event.type === 'HeartbeatScheduleChanged' || event.type === 'HeartbeatPaused' || event.type === 'HeartbeatMaintenanceDeferred') return null;
  if (event.type === 'HeartbeatFailed') {
    const d = event.data;
    const occurrence: Occurrence = { eventId: d.eventId, checkId: d.checkId, state: 'FAILING', timestamp: d.deadline, ms: Date.parse(d.deadline), source: 'watchdog', userAgent: null };
    if (!d.signal) return occurrence;
    return withExtras({ ...occurrence, source: d.source ?? null, userAgent: d.userAgent ?? null }, d);
  }
  const { eventId, checkId, at, source, userAgent } = event.data;
  const state = event.type === 'HeartbeatRunStarted' ? 'STARTED' : event.type === 'HeartbeatLogged' ? 'LOG' : event.data.state;
  const occurrence: Occurrence = { eventId, checkId, state, timestamp: at, ms: Date.parse(at), source, userAgent };
  return event.data.rid === undefined && event.data.body === undefined && event.data.exitCode === undefined && event.data.duration === undefined
    ? occurrence
    : withExtras(occurrence, event.data);
}

/** Availability and stats count pings and FAILINGs, not STARTED or LOG. */
export const isCounted = (state: Occurrence['state']): state is HeartbeatState => state !== 'STARTED' && state !== 'LOG';

/** A started run not yet finished: `at` + grace is its deadline. */
export interface OpenRun {
  rid: string | null;
  at: number;
}
/** Runs kept open per check: a job that starts and never finishes cannot grow the timer without bound. */
export const MAX_OPEN_RUNS = 10;

/** The start a finish with `rid` pairs with: that rid's, else (no rid) the latest start; index or -1. */
export function pairedRun(runs: readonly OpenRun[], rid: string | null | undefined): number {
  if (rid) return runs.findIndex((run) => run.rid === rid);
  return runs.length - 1;
}

const withoutRun = (runs: OpenRun[], rid: string | null | undefined): OpenRun[] => {
  const i = pairedRun(runs, rid);
  return i < 0 ? runs : [...runs.slice(0, i), ...runs.slice(i + 1)];
};

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
  /** A schedule check's cron expression and zone; null for a period check. */
  schedule: string | null;
  timezone: string | null;
  /** ms since epoch: a schedule check's expected occurrence (its deadline is this + grace). */
  nextDueAt: number | null;
  /** `POST …/pause`: no deadline until the next ping. */
  paused: boolean;
  /** Started runs not yet finished, oldest first (each fails at its start + grace). */
  runs: OpenRun[];
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
  schedule: null,
  timezone: null,
  nextDueAt: null,
  paused: false,
  runs: [],
});

/** 10% of the period, at least 1 s, at most 5 min. */
export const tolerance = (periodMs: number): number => Math.min(300_000, Math.max(1000, periodMs / 10));

export function expectedAt(timer: TimerState): number | null {
  if (timer.schedule !== null) return timer.nextDueAt;
  return timer.timerStart === null ? null : timer.timerStart + timer.periodMs;
}

/** When the watchdog must fail the check; null when no timer runs or the check is off. */
export function deadlineOf(timer: TimerState): number | null {
  if (!timer.activated || timer.deleted) return null;
  const expected = timer.paused ? null : expectedAt(timer);
  let deadline = expected === null ? null : expected + timer.graceMs;
  // A started run fails at its start + grace unless a finish comes first.
  for (const run of timer.runs) if (deadline === null || run.at + timer.graceMs < deadline) deadline = run.at + timer.graceMs;
  return deadline;
}

/** The state of a ping arriving at `now`, by the timing rules of contract §4 (§4.1 for schedules). */
export function pingState(timer: TimerState, now: number): PingState {
  const expected = expectedAt(timer);
  if (!timer.everPinged || timer.failing || timer.paused || expected === null) return 'RECEIVED';
  const tol = timer.schedule !== null ? SCHEDULE_TOLERANCE_MS : tolerance(timer.periodMs);
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

/** The timer after a ping at `atMs`: evolveTimer's ping case, for callers that hold the time as a number. */
export function pingedTimer(timer: TimerState, atMs: number, nextDueAt: number | null = null, runs: OpenRun[] = timer.runs): TimerState {
  return {
    ...timer,
    timerStart: atMs,
    everPinged: true,
    failing: false,
    failingSince: null,
    lastPingAt: atMs,
    nextDueAt: timer.schedule !== null ? nextDueAt : null,
    paused: false,
    runs,
  };
}

const parseOrNull = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/**
 * A schedule check's next expected occurrence after `since` (a ping, or a restart: creation,
 * re-activation, a FAILING's deadline) as the events store it; undefined for a period check.
 */
export function nextDueAfter(timer: Pick<TimerState, 'schedule' | 'timezone' | 'graceMs'>, since: number, sinceIsPing: boolean): string | null | undefined {
  if (timer.schedule === null) return undefined;
  const schedule = { expression: timer.schedule, timezone: timer.timezone ?? DEFAULT_TIME_ZONE };
  return scheduleTiming(schedule, timer.graceMs, new Date(since), sinceIsPing)?.expectedAt.toISOString() ?? null;
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
        schedule: d.schedule ?? null,
        timezone: d.schedule ? (d.timezone ?? DEFAULT_TIME_ZONE) : null,
        nextDueAt: d.schedule && running ? parseOrNull(d.nextDueAt) : null,
      };
    }
    case 'HeartbeatPingReceived': {
      const runs = timer.runs.length === 0 ? timer.runs : withoutRun(timer.runs, e.data.rid);
      return pingedTimer(timer, Date.parse(e.data.at), parseOrNull(e.data.nextDueAt), runs);
    }
    case 'HeartbeatFailed': {
      const at = Date.parse(e.data.deadline);
      const failed = {
        ...timer,
        timerStart: at,
        failing: true,
        failingSince: timer.failing ? timer.failingSince : e.data.eventId,
        nextDueAt: timer.schedule !== null ? parseOrNull(e.data.nextDueAt) : null,
      };
      // The watchdog's FAILING ends every open run; a signalled one is a finished run, like a ping.
      if (!e.data.signal) return { ...failed, runs: [] };
      return { ...failed, everPinged: true, lastPingAt: at, paused: false, runs: withoutRun(timer.runs, e.data.rid) };
    }
    case 'HeartbeatRunStarted': {
      const runs = [...timer.runs, { rid: e.data.rid ?? null, at: Date.parse(e.data.at) }];
      return { ...timer, runs: runs.length > MAX_OPEN_RUNS ? runs.slice(runs.length - MAX_OPEN_RUNS) : runs };
    }
    case 'HeartbeatLogged':
      return timer;
    case 'HeartbeatPaused':
      return { ...timer, paused: true, runs: [] };
    case 'HeartbeatMaintenanceDeferred':
      return {
        ...timer,
        timerStart: Date.parse(e.data.until),
        nextDueAt: timer.schedule !== null ? parseOrNull(e.data.nextDueAt) : null,
        runs: [],
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
  const change: ScheduleChangedData = {
    checkId,
    pingToken: config ? config.heartbeat.pingToken : (timer.pingToken ?? ''),
    periodMs,
    graceMs,
    activated,
    deleted,
    restartAt: !deleted && (reactivated || newPeriod) ? now.toISOString() : null,
    checkRevision,
  };
  const schedule = config ? (config.heartbeat.schedule ?? null) : timer.schedule;
  if (schedule === null) return change;
  const timezone = (config ? config.heartbeat.timezone : timer.timezone) ?? DEFAULT_TIME_ZONE;
  let nextDueAt = timer.nextDueAt === null ? null : new Date(timer.nextDueAt).toISOString();
  const retimed = schedule !== timer.schedule || timezone !== timer.timezone || graceMs !== timer.graceMs;
  if (activated && !deleted && (retimed || !timer.activated || timer.nextDueAt === null)) {
    // The last ping sets the next occurrence; before any ping, after a FAILING or on re-activation, now does.
    const fromPing = timer.activated && !timer.failing && timer.lastPingAt !== null;
    nextDueAt = nextDueAfter({ schedule, timezone, graceMs }, fromPing ? timer.lastPingAt! : now.getTime(), fromPing) ?? null;
  }
  return { ...change, schedule, timezone, nextDueAt: activated && !deleted ? nextDueAt : null };
}

export const heartbeatStream = (checkId: string) => `heartbeat-${checkId}`;
export const pingTokenStream = (token: string) => `pingtoken-${token}`;

/**
 * What can happen to a check's timer (`heartbeat-<id>`). Ids and times come with the command, so
 * the decider stays pure; the heartbeats-2 signals (start, fail, log, pause) join as more cases.
 */
/** What a ping URL says: `/ping/{token}` is a success, `/start`, `/fail`, `/log`, `/{exitCode}` the run signals. */
export type PingSignal = 'success' | 'start' | 'fail' | 'log';

export type HeartbeatCommand =
  | {
      type: 'Ping';
      eventId: string;
      at: string;
      source: string | null;
      userAgent: string | null;
      /** Default `success`; `/{exitCode}` is a success for 0 and a fail for 1–255. */
      signal?: PingSignal;
      exitCode?: number;
      rid?: string | null;
      body?: string;
      truncated?: boolean;
    }
  /** `POST …/pause`: no deadline until the next ping. */
  | { type: 'Pause'; at: string }
  /** The watchdog found `deadline` inside maintenance ending at `until`: restart there instead of failing. */
  | { type: 'DeferForMaintenance'; deadline: number; until: number }
  /** The watchdog saw `deadline` pass; fails only while the timer still has that deadline. */
  | { type: 'Fail'; eventId: string; deadline: number }
  /** Copies the check's configuration at `checkRevision` (null: deleted) onto the timer. */
  | { type: 'Reschedule'; checkId: string; config: CheckConfig | null; checkRevision: number; at: Date };

/**
 * Pings of an inactive or deleted check are not recorded; a Fail whose deadline a ping (or another
 * watchdog) already moved decides nothing, so each deadline fails once; a Reschedule is idempotent by
 * check revision.
 */
export const heartbeatDecider: Decider<TimerState, HeartbeatCommand, HeartbeatEvent> = {
  initialState: initialTimer,
  evolve: evolveTimer,
  decide(command, timer) {
    switch (command.type) {
      case 'Ping': {
        if (!timer.activated || timer.deleted || timer.checkId === null) return [];
        const atMs = Date.parse(command.at);
        const { eventId, at, source, userAgent } = command;
        const checkId = timer.checkId;
        const extras: SignalExtras = {};
        if (command.rid) extras.rid = command.rid;
        if (command.exitCode !== undefined) extras.exitCode = command.exitCode;
        if (command.body !== undefined) extras.body = command.body;
        if (command.truncated) extras.truncated = true;
        const signal = command.signal ?? (command.exitCode ? 'fail' : 'success');
        if (signal === 'start') return [{ type: 'HeartbeatRunStarted', data: { eventId, checkId, at, source, userAgent, ...extras } }];
        if (signal === 'log') return [{ type: 'HeartbeatLogged', data: { eventId, checkId, at, source, userAgent, ...extras } }];
        // A finish after a start carries the run's duration.
        const run = timer.runs[pairedRun(timer.runs, command.rid)];
        if (run) extras.duration = Math.max(0, atMs - run.at);
        if (signal === 'fail') {
          const data: FailedData = { eventId, checkId, deadline: at, first: !timer.failing, signal: true, source, userAgent, ...extras };
          if (timer.schedule !== null) data.nextDueAt = nextDueAfter(timer, atMs, true);
          return [{ type: 'HeartbeatFailed', data }];
        }
        const state = pingState(timer, atMs);
        const data: PingReceivedData = { eventId, checkId, state, at, source, userAgent, ...extras };
        if (timer.failing) data.recoveredFrom = timer.failingSince;
        if (timer.schedule !== null) data.nextDueAt = nextDueAfter(timer, atMs, true);
        return [{ type: 'HeartbeatPingReceived', data }];
      }
      case 'DeferForMaintenance': {
        if (timer.checkId === null || deadlineOf(timer) !== command.deadline) return [];
        const data: MaintenanceDeferredData = { checkId: timer.checkId, deadline: new Date(command.deadline).toISOString(), until: new Date(command.until).toISOString() };
        if (timer.schedule !== null) data.nextDueAt = nextDueAfter(timer, command.until, false);
        return [{ type: 'HeartbeatMaintenanceDeferred', data }];
      }
      case 'Pause': {
        if (!timer.activated || timer.deleted || timer.checkId === null || (timer.paused && timer.runs.length === 0)) return [];
        return [{ type: 'HeartbeatPaused', data: { checkId: timer.checkId, at: command.at } }];
      }
      case 'Fail': {
        if (timer.checkId === null || deadlineOf(timer) !== command.deadline) return [];
        const deadline = new Date(command.deadline).toISOString();
        const data: FailedData = { eventId: command.eventId, checkId: timer.checkId, deadline, first: !timer.failing };
        const run = timer.runs.find((r) => r.at + timer.graceMs === command.deadline);
        if (run) data.runStartedAt = new Date(run.at).toISOString();
        // A schedule check then waits for the first occurrence after the deadline.
        if (timer.schedule !== null) data.nextDueAt = nextDueAfter(timer, command.deadline, false);
        return [{ type: 'HeartbeatFailed', data }];
      }
      case 'Reschedule': {
        const change = scheduleChange(command.checkId, command.config, command.checkRevision, timer, command.at);
        return change ? [{ type: 'HeartbeatScheduleChanged', data: change }] : [];
      }
    }
  },
};

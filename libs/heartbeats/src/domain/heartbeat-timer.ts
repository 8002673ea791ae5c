import { CheckConfig, toMs } from './heartbeat-check.decider';
import { isHeartbeatEvent, Outage, PingState, ScheduleChangedData } from './heartbeat.events';
import { FLAP_WINDOW_MS } from './incident-wording';
import { DEFAULT_TIME_ZONE, SCHEDULE_TOLERANCE_MS, scheduleTiming } from './schedule';

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
  /** The rest of what is known of that outage; null when it began before timers kept it. */
  outage: Omit<Outage, 'id'> | null;
  /** The last outage's recovery, and the outage whose incident it had (a flapping check reopens that one). */
  recovered: { incident: string; at: number } | null;
  lastPingAt: number | null;
  /** When the check last failed (a missed deadline, a reported failure); null when it never did. */
  lastFailedAt: number | null;
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
  outage: null,
  recovered: null,
  lastPingAt: null,
  lastFailedAt: null,
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
  const ended = timer.failing ? timer.failingSince : null;
  return {
    ...timer,
    timerStart: atMs,
    everPinged: true,
    failing: false,
    failingSince: null,
    outage: null,
    recovered: ended === null ? timer.recovered : { incident: timer.outage?.reopens ?? ended, at: atMs },
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

/** An outage starting at `deadline`: it reopens the last one's incident when it comes within the flap window of that recovery. */
export function startOutage(timer: TimerState, deadline: string): Omit<Outage, 'id'> {
  const outage: Omit<Outage, 'id'> = { startedAt: deadline, failedRuns: 1 };
  const gap = timer.recovered === null ? -1 : Date.parse(deadline) - timer.recovered.at;
  if (timer.recovered !== null && gap >= 0 && gap <= FLAP_WINDOW_MS) outage.reopens = timer.recovered.incident;
  return outage;
}

/** The outage the timer is in, as a later FAILING or the ping ending it carries it; null when not failing or not known. */
export function currentOutage(timer: TimerState): Outage | null {
  return timer.failing && timer.failingSince !== null && timer.outage !== null ? { id: timer.failingSince, ...timer.outage } : null;
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
        outage: timer.failing ? timer.outage && { ...timer.outage, failedRuns: timer.outage.failedRuns + 1 } : startOutage(timer, e.data.deadline),
        lastFailedAt: at,
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


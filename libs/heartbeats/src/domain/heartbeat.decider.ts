import { Decider } from '../../../core/src/decider';
import { CheckConfig, HeartbeatCheckState } from './heartbeat-check.decider';
import { FailedData, HeartbeatEvent, MaintenanceDeferredData, PingReceivedData, SignalExtras } from './heartbeat.events';
import { currentOutage, deadlineOf, evolveTimer, initialTimer, nextDueAfter, pairedRun, pingState, scheduleChange, startOutage, TimerState } from './heartbeat-timer';

export const heartbeatStream = (checkId: string) => `heartbeat-${checkId}`;

/** The Reschedule that copies a check's state at `revision` onto its timer; null while the check does not exist. */
export function rescheduleOf(checkId: string, check: HeartbeatCheckState, revision: bigint | null, at: Date): HeartbeatCommand | null {
  if (revision === null || !check.accountId) return null;
  return { type: 'Reschedule', checkId, config: check.status === 'active' ? check.config : null, checkRevision: Number(revision), at };
}

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

/** A FAILING carries its outage: a first one the incident it reopens, if any; a later one its outage with this run counted. */
function withOutage(data: FailedData, timer: TimerState): FailedData {
  if (data.first) {
    const { reopens } = startOutage(timer, data.deadline);
    if (reopens) data.reopens = reopens;
    return data;
  }
  const outage = currentOutage(timer);
  if (outage) data.outage = { ...outage, failedRuns: outage.failedRuns + 1 };
  return data;
}

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
          return [{ type: 'HeartbeatFailed', data: withOutage(data, timer) }];
        }
        const state = pingState(timer, atMs);
        const data: PingReceivedData = { eventId, checkId, state, at, source, userAgent, ...extras };
        if (timer.failing) {
          data.recoveredFrom = timer.failingSince;
          const outage = currentOutage(timer);
          if (outage) data.outage = outage;
        }
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
        return [{ type: 'HeartbeatFailed', data: withOutage(data, timer) }];
      }
      case 'Reschedule': {
        const change = scheduleChange(command.checkId, command.config, command.checkRevision, timer, command.at);
        return change ? [{ type: 'HeartbeatScheduleChanged', data: change }] : [];
      }
    }
  },
};

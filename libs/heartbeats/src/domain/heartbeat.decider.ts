import { Decider } from '../../../core/src/decider';
import { CheckConfig } from './heartbeat-check.decider';
import { deadlineOf, evolveTimer, FailedData, HeartbeatEvent, initialTimer, nextDueAfter, PingReceivedData, pingState, scheduleChange, TimerState } from './heartbeat-timer';

/**
 * What can happen to a check's timer (`heartbeat-<id>`). Ids and times come with the command, so
 * the decider stays pure; the heartbeats-2 signals (start, fail, log, pause) join as more cases.
 */
export type HeartbeatCommand =
  | { type: 'Ping'; eventId: string; at: string; source: string | null; userAgent: string | null }
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
        const state = pingState(timer, atMs);
        const { eventId, at, source, userAgent } = command;
        const data: PingReceivedData = { eventId, checkId: timer.checkId, state, at, source, userAgent };
        if (timer.failing) data.recoveredFrom = timer.failingSince;
        if (timer.schedule !== null) data.nextDueAt = nextDueAfter(timer, atMs, true);
        return [{ type: 'HeartbeatPingReceived', data }];
      }
      case 'Fail': {
        if (timer.checkId === null || deadlineOf(timer) !== command.deadline) return [];
        const deadline = new Date(command.deadline).toISOString();
        const data: FailedData = { eventId: command.eventId, checkId: timer.checkId, deadline, first: !timer.failing };
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

import { deadlineOf, expectedAt, TimerState, tolerance } from '../domain/heartbeat-timer';
import { SCHEDULE_TOLERANCE_MS } from '../domain/schedule';
import { TimerDoc, toTimerState } from './heartbeat.projections';

/**
 * A check's state, in Healthchecks' words: NEW (never pinged), UP, LATE (past its expected time, within its
 * grace), FAILING (its deadline passed, or the job reported a failure), PAUSED (paused or deactivated).
 */
export const CHECK_STATES = ['NEW', 'UP', 'LATE', 'FAILING', 'PAUSED'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** The timer a check's state is read from: none once the check is deleted. */
export const liveTimer = (doc: TimerDoc | null): TimerState | null => (doc && !doc.deleted ? toTimerState(doc) : null);

/** What a check's timer says at `now`; a missing timer (a check just created) is NEW. */
export function checkState(activated: boolean, timer: TimerState | null, now: number): CheckState {
  if (!activated || timer?.paused) return 'PAUSED';
  if (!timer) return 'NEW';
  if (timer.failing) return 'FAILING';
  const deadline = deadlineOf(timer);
  if (deadline !== null && now > deadline) return 'FAILING';
  if (!timer.everPinged) return 'NEW';
  const expected = expectedAt(timer);
  const slack = timer.schedule !== null ? SCHEDULE_TOLERANCE_MS : tolerance(timer.periodMs);
  return expected !== null && now > expected + slack ? 'LATE' : 'UP';
}

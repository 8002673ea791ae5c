import { CheckConfig, toMs } from '../domain/heartbeat-check.decider';
import { TimerState } from '../domain/heartbeat-timer';
import { scheduleTiming } from '../domain/schedule';

/** What the next due time depends on; timers that know their schedule also store its next occurrence. */
export type TimerFacts = Pick<TimerState, 'activated' | 'deleted' | 'timerStart' | 'periodMs' | 'lastPingAt'> &
  Partial<Pick<TimerState, 'schedule' | 'nextDueAt' | 'paused'>>;

/**
 * When a check's next ping is expected (contract §4 and §4.1), or null when nothing is expected.
 * 1. A deactivated or deleted check expects nothing.
 * 2. A schedule check expects the first occurrence after its last ping (the occurrence that ping
 *    stood for is done), or after its creation before any ping.
 * 3. A period check expects timer start + period; before its first ping no timer runs.
 */
export function nextDueAt(config: CheckConfig, createdAt: string, timer: TimerFacts | null): Date | null {
  if (!config.activated || timer?.deleted || timer?.paused) return null;
  const { schedule, timezone, grace, graceUnit } = config.heartbeat;
  if (schedule) {
    // The timer's stored occurrence (decided with its last ping, FAILING or restart) when it has one.
    if (timer?.schedule) return timer.nextDueAt == null ? null : new Date(timer.nextDueAt);
    const lastPing = timer?.lastPingAt ?? null;
    const timing = scheduleTiming({ expression: schedule, timezone: timezone ?? 'UTC' }, toMs(grace, graceUnit), new Date(lastPing ?? createdAt), lastPing !== null);
    return timing?.expectedAt ?? null;
  }
  if (!timer || timer.timerStart === null) return null;
  return new Date(timer.timerStart + timer.periodMs);
}

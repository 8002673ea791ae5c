import { Projection } from '../../../core/src/projection';
import { deadlineOf, evolveTimer, initialTimer, TimerState } from '../domain/heartbeat-timer';

export interface TimerDoc extends TimerState {
  id: string;
  /** Indexed: the watchdog asks for timers whose deadline has passed. */
  deadline: number | null;
  /** The stream revision the timer reflects: the watchdog appends expecting exactly this one. */
  streamRevision: number;
  [field: string]: unknown;
}

export function toTimerState(doc: TimerDoc | null): TimerState {
  if (!doc) return initialTimer();
  const { id: _id, deadline: _deadline, streamRevision: _revision, ...timer } = doc;
  return timer as TimerState;
}

/** One document per check: its timer, folded from `heartbeat-<id>`; its revision is the stream's. */
export const heartbeatTimersProjection: Projection<TimerDoc> = {
  name: 'heartbeat_timers',
  version: 1,
  handles: ['HeartbeatScheduleChanged', 'HeartbeatPingReceived', 'HeartbeatFailed'],
  indexes: [{ field: 'deadline' }],
  // Every ping changes it: written back in bulk, not in each ping's commit.
  writeBack: true,
  ids: (event) => [(event.data as { checkId: string }).checkId],
  evolve(doc, event, id) {
    const timer = evolveTimer(toTimerState(doc), event);
    return { ...timer, id, deadline: deadlineOf(timer), streamRevision: Number(event.revision) };
  },
};

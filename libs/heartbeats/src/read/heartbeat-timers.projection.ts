import { Projection } from '../../../core/src/projection';
import { deadlineOf, evolveTimer, HEARTBEAT_EVENT_TYPES, HeartbeatEvent, initialTimer, TimerState } from '../domain/heartbeat-timer';

export interface TimerDoc extends TimerState {
  id: string;
  /** The check's account (from the events' metadata), so a ping needs no other document; absent on timers written before it. */
  accountId?: string | null;
  /** Indexed: the watchdog asks for timers whose deadline has passed. */
  deadline: number | null;
  /** The stream revision the timer reflects: the watchdog appends expecting exactly this one. */
  streamRevision: number;
  [field: string]: unknown;
}

/** The timer a document holds, field by field (a rest pattern would take V8's slow path on every ping). */
export function toTimerState(doc: TimerDoc | null): TimerState {
  if (!doc) return initialTimer();
  return {
    checkId: doc.checkId,
    pingToken: doc.pingToken,
    periodMs: doc.periodMs,
    graceMs: doc.graceMs,
    activated: doc.activated,
    deleted: doc.deleted,
    checkRevision: doc.checkRevision,
    timerStart: doc.timerStart,
    everPinged: doc.everPinged,
    failing: doc.failing,
    failingSince: doc.failingSince,
    lastPingAt: doc.lastPingAt,
    schedule: doc.schedule ?? null,
    timezone: doc.timezone ?? null,
    nextDueAt: doc.nextDueAt ?? null,
    paused: doc.paused ?? false,
    runs: doc.runs ?? [],
  };
}

/** One document per check: its timer, folded from `heartbeat-<id>`; its revision is the stream's. Pings find it by token. */
export const heartbeatTimersProjection: Projection<TimerDoc, HeartbeatEvent> = {
  name: 'heartbeat_timers',
  version: 1,
  handles: [...HEARTBEAT_EVENT_TYPES],
  indexes: [{ field: 'deadline' }, { field: 'pingToken' }],
  ids: (event) => [event.data.checkId],
  evolve(doc, event, id) {
    // The document is the timer it holds (TimerDoc extends TimerState): evolved as it is, no copy first.
    // A document written before schedules and run signals lacks their fields: fill them in once.
    const timer = evolveTimer(doc && doc.runs !== undefined && doc.schedule !== undefined ? doc : toTimerState(doc), event);
    // A literal rather than a spread: all fields in the object itself, one allocation.
    return {
      checkId: timer.checkId,
      pingToken: timer.pingToken,
      periodMs: timer.periodMs,
      graceMs: timer.graceMs,
      activated: timer.activated,
      deleted: timer.deleted,
      checkRevision: timer.checkRevision,
      timerStart: timer.timerStart,
      everPinged: timer.everPinged,
      failing: timer.failing,
      failingSince: timer.failingSince,
      lastPingAt: timer.lastPingAt,
      schedule: timer.schedule,
      timezone: timer.timezone,
      nextDueAt: timer.nextDueAt,
      paused: timer.paused,
      runs: timer.runs,
      id,
      accountId: event.metadata.accountId ?? doc?.accountId ?? null,
      deadline: deadlineOf(timer),
      streamRevision: Number(event.revision),
    };
  },
};

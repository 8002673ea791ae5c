import { Projection } from '../../../core/src/projection';
import type { SnapshotLoader } from '../../../event-store/src/command-runner';
import type { ProjectionEngine } from '../../../read-store/src/projection-engine';
import type { ReadStore } from '../../../read-store/src/read-store.port';
import { ROLLUPS_KEPT, RollupsKept } from '../domain/rollup-history.decider';
import { deadlineOf, evolveTimer, initialTimer, TimerState } from '../domain/heartbeat-timer';
import { HEARTBEAT_EVENT_TYPES, HeartbeatEvent, HeartbeatState, isCounted, occurrenceOf } from '../domain/heartbeat.events';

// The read models of `heartbeat-<id>`: the timer a ping starts from, and the rollups availability reads.

export interface TimerDoc extends TimerState {
  id: string;
  /** The check's account (from the events' metadata), so a ping needs no other document; absent on timers written before it. */
  accountId?: string | null;
  /** Indexed: the watchdog asks for timers whose deadline has passed. */
  deadline: number | null;
  /** The stream revision the timer reflects: the watchdog appends expecting exactly this one. */
  streamRevision: number;
  /** The states of the check's last runs (pings, failures, signals), newest first, a letter each (`RUN_LETTERS`): a list's history bars. */
  lastRuns?: string;
  [field: string]: unknown;
}

/** Runs a timer document keeps for lists (the console's checks list shows 10). */
export const LAST_RUNS_KEPT = 10;
export type RunState = HeartbeatState | 'STARTED' | 'LOG';

// A letter per run: every ping rewrites the timer document, so its history costs 10 bytes, not 100.
const RUN_LETTERS: Record<RunState, string> = { EARLY: 'E', RECEIVED: 'R', GRACE: 'G', LATE: 'L', FAILING: 'F', STARTED: 'S', LOG: 'O' };
const RUN_STATES = new Map(Object.entries(RUN_LETTERS).map(([state, letter]) => [letter, state as RunState]));

/** A timer document's last runs, newest first. */
export const lastRunsOf = (doc: TimerDoc | null): RunState[] => [...(doc?.lastRuns ?? '')].map((letter) => RUN_STATES.get(letter)!);

/** The letter of the state an event of the stream records as a run (as its occurrence would), or null. */
function runLetter(event: HeartbeatEvent): string | null {
  switch (event.type) {
    case 'HeartbeatPingReceived':
      return RUN_LETTERS[event.data.state];
    case 'HeartbeatFailed':
      return RUN_LETTERS.FAILING;
    case 'HeartbeatRunStarted':
      return RUN_LETTERS.STARTED;
    case 'HeartbeatLogged':
      return RUN_LETTERS.LOG;
    default:
      return null;
  }
}

/** The timer document as a heartbeat command's snapshot: `first` (a copy the caller just read) once, then read afresh. */
export function timerSnapshot(store: ReadStore, engine: ProjectionEngine, checkId: string, first: TimerDoc | null = null): SnapshotLoader<TimerState> {
  let given = first;
  return async () => {
    const doc = given ?? (await store.get(engine.collection(heartbeatTimersProjection), checkId))?.doc;
    given = null;
    return doc ? { state: toTimerState(doc), revision: BigInt(doc.streamRevision) } : null;
  };
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
    outage: doc.outage ?? null,
    recovered: doc.recovered ?? null,
    lastPingAt: doc.lastPingAt,
    lastFailedAt: doc.lastFailedAt ?? null,
    schedule: doc.schedule ?? null,
    timezone: doc.timezone ?? null,
    nextDueAt: doc.nextDueAt ?? null,
    paused: doc.paused ?? false,
    runs: doc.runs ?? [],
  };
}

/** One document per check: its timer, folded from `heartbeat-<id>`; its revision is the stream's. */
export const heartbeatTimersProjection: Projection<TimerDoc, HeartbeatEvent> = {
  name: 'heartbeat_timers',
  // The timer keeps its outage (start, runs, the incident it reopens), its last recovery and its last runs' states.
  version: 4,
  handles: [...HEARTBEAT_EVENT_TYPES],
  // Not pingToken: every ping rewrites the timer, and an index entry more per ping costs a page; pings find checks by token.
  indexes: [{ field: 'deadline' }],
  ids: (event) => [event.data.checkId],
  evolve(doc, event, id) {
    // The document is the timer it holds (TimerDoc extends TimerState): evolved as it is, no copy first.
    // A document written before schedules and run signals lacks their fields: fill them in once.
    const timer = evolveTimer(doc && doc.runs !== undefined && doc.schedule !== undefined && doc.recovered !== undefined ? doc : toTimerState(doc), event);
    const run = runLetter(event);
    const lastRuns = doc?.lastRuns ?? '';
    return {
      ...timer,
      id,
      accountId: event.metadata.accountId ?? doc?.accountId ?? null,
      deadline: deadlineOf(timer),
      streamRevision: Number(event.revision),
      lastRuns: run ? run + lastRuns.slice(0, LAST_RUNS_KEPT - 1) : lastRuns,
    };
  },
};

// Rollup ids `<checkId>|<h or d>|<bucket start in ms>` (13 digits until 2286, so ids sort by time): a window's rollups are one primary-key range.
/** An hour (with its per-minute counts) or a day. */
export type Granularity = 'h' | 'd';
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const bucketStart = (ms: number, granularity: Granularity) => {
  const size = granularity === 'd' ? DAY_MS : HOUR_MS;
  return Math.floor(ms / size) * size;
};

export const rollupId = (checkId: string, granularity: Granularity, startMs: number) => `${checkId}|${granularity}|${startMs}`;

export interface RollupDoc {
  id: string;
  checkId: string;
  granularity: Granularity;
  bucket: string;
  total: number;
  counts: Record<HeartbeatState, number>;
  /**
   * Hour documents only: [total, failing, stream revision of its first event] per minute of the hour
   * ("0"–"59"), so a partial minute reads just its own events.
   */
  minutes?: Record<string, [number, number, number]>;
  [field: string]: unknown;
}

const emptyCounts = (): Record<HeartbeatState, number> => ({ EARLY: 0, RECEIVED: 0, GRACE: 0, LATE: 0, FAILING: 0 });

/**
 * Per check, hourly documents (counts per state, and per minute) and daily ones (counts per state): two
 * documents per event. The revision guard makes a replayed event count once; availability reads these
 * instead of the raw events.
 */
export const heartbeatRollupsProjection: Projection<RollupDoc, HeartbeatEvent | RollupsKept> = {
  name: 'heartbeat_rollups',
  // The hour's counts and its minutes in one document, ids with the bucket start in ms.
  version: 4,
  // A day's rollups kept before its raw events were pruned come back from HeartbeatRollupsKept (rollup-history.decider.ts).
  handles: ['HeartbeatPingReceived', 'HeartbeatFailed', ROLLUPS_KEPT],
  indexes: [],
  ids: (event) => {
    if (event.type === ROLLUPS_KEPT) return event.data.docs.map((doc) => doc.id);
    const e = occurrenceOf(event);
    if (!e) return [];
    return [rollupId(e.checkId, 'h', bucketStart(e.ms, 'h')), rollupId(e.checkId, 'd', bucketStart(e.ms, 'd'))];
  },
  evolve(doc, event, id) {
    if (event.type === ROLLUPS_KEPT) return doc ?? ((event.data.docs.find((kept) => kept.id === id) as RollupDoc | undefined) ?? null);
    const e = occurrenceOf(event);
    if (!e || !isCounted(e.state)) return doc;
    const granularity = id[id.indexOf('|') + 1] as Granularity;
    const base: RollupDoc = doc ?? {
      id,
      checkId: e.checkId,
      granularity,
      bucket: new Date(bucketStart(e.ms, granularity)).toISOString(),
      total: 0,
      counts: emptyCounts(),
    };
    const next: RollupDoc = { ...base, total: base.total + 1, counts: { ...base.counts, [e.state]: base.counts[e.state] + 1 } };
    if (granularity === 'h') {
      const minute = Math.floor((e.ms % HOUR_MS) / MINUTE_MS);
      const [total, failing, first] = base.minutes?.[minute] ?? [0, 0, Number(event.revision)];
      next.minutes = { ...base.minutes, [minute]: [total + 1, failing + (e.state === 'FAILING' ? 1 : 0), first] };
    }
    return next;
  },
};

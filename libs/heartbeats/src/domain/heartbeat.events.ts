/** The events of `heartbeat-<checkId>` and the occurrences (pings, failures) they record. */
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
  /** With `recoveredFrom`: the outage this ping ends (absent on events written before pings carried it). */
  outage?: Outage;
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
  /** A first FAILING within the flap window of the last outage's recovery: the outage whose incident it reopens. */
  reopens?: string;
  /** A later FAILING: the outage it belongs to (absent on events written before FAILINGs carried it). */
  outage?: Outage;
  /** A schedule check's next expected occurrence after the deadline (absent on period checks). */
  nextDueAt?: string | null;
  /** Set on a FAILING a ping signalled (`/fail`, `/{1–255}`): the request's, not "watchdog". */
  signal?: true;
  /** Set when the deadline that passed was a started run's: when that run started (a start with no finish). */
  runStartedAt?: string;
  source?: string | null;
  userAgent?: string | null;
}

/** A check's outage, from its first FAILING to the ping that ends it. */
export interface Outage {
  /** The eventId of its first FAILING. */
  id: string;
  /** Its first FAILING's deadline. */
  startedAt: string;
  /** Its FAILINGs so far. */
  failedRuns: number;
  /** The earlier outage whose incident it reopened (see FailedData.reopens). */
  reopens?: string;
}

/** The outage a FAILING belongs to: a first FAILING is its start; null for a later one written before FAILINGs carried it. */
export function outageOf(data: FailedData): Outage | null {
  if (!data.first) return data.outage ?? null;
  const outage: Outage = { id: data.eventId, startedAt: data.deadline, failedRuns: 1 };
  if (data.reopens) outage.reopens = data.reopens;
  return outage;
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

import { Cron } from 'croner';
import { ViolationDetail } from '../../../core/src/errors';
import { canonicalTimeZone } from '../../../core/src/time-zone';

/** The nicknames contract §4.1 allows beside 5-field expressions. */
export const SCHEDULE_NICKNAMES = ['@hourly', '@daily', '@weekly', '@monthly', '@yearly'] as const;
export const DEFAULT_TIME_ZONE = 'UTC';
/** Contract §4.1: a schedule check's ping is on time within one minute of an occurrence. */
export const SCHEDULE_TOLERANCE_MS = 60_000;
export const MAX_SCHEDULE_LENGTH = 200;

/** A validated cron schedule in its zone; `expression` and `timezone` are the stored, canonical spellings. */
export interface CronSchedule {
  expression: string;
  timezone: string;
}

const FIELD_COUNT = 5;

/**
 * Parsed schedules by zone and expression, each with its last `nextRun` answer, for the many checks of one schedule
 * failing at one deadline; a paused Cron never runs, so `nextRun(after)` depends on `after` alone.
 */
const parsed = new Map<string, Parsed>();
const MAX_PARSED = 1000;
type Parsed = { cron: Cron; after: number; next: Date | null };

/**
 * Croner, in 5-field mode, in the given zone. Croner handles daylight-saving like Vixie cron: a job
 * with one fixed time (`30 2 * * *`) runs once at the first valid time after a spring-forward gap and
 * once on a repeated autumn hour; interval jobs (`*\/15`) skip the gap and run on both repeats.
 */
function parsedOf(schedule: CronSchedule): Parsed {
  const key = `${schedule.timezone} ${schedule.expression}`;
  let entry = parsed.get(key);
  if (!entry) {
    entry = { cron: new Cron(schedule.expression, { timezone: schedule.timezone, mode: '5-part', paused: true }), after: NaN, next: null };
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(key, entry);
  }
  return entry;
}

/**
 * The first occurrence strictly after `after`, or null if the schedule never fires again; the same question
 * asked again (one deadline of many checks) is answered from the last search.
 */
export function nextDue(schedule: CronSchedule, after: Date): Date | null {
  const entry = parsedOf(schedule);
  if (entry.after !== after.getTime()) {
    entry.next = entry.cron.nextRun(after);
    entry.after = after.getTime();
  }
  return entry.next && new Date(entry.next.getTime());
}

/**
 * Checks `expression` and `timezone` as a client sent them; returns the canonical schedule (spaces
 * collapsed, nickname lower-cased, zone as Intl spells it) or the violations, each naming its field
 * under `prefix` (e.g. `heartbeat.schedule`).
 */
export function parseSchedule(
  expression: unknown,
  timezone: unknown,
  prefix = 'heartbeat',
): { schedule: CronSchedule; details: [] } | { schedule: null; details: ViolationDetail[] } {
  const details: ViolationDetail[] = [];
  const zone = timezone === undefined || timezone === null ? DEFAULT_TIME_ZONE : canonicalTimeZone(timezone);
  if (!zone) details.push({ path: `${prefix}.timezone`, message: 'timezone must be an IANA time zone name such as Europe/Berlin' });
  const normalized = normalizeExpression(expression);
  if (typeof normalized !== 'string') {
    details.push({ path: `${prefix}.schedule`, message: normalized.error });
  } else {
    let cron: Cron | null = null;
    try {
      cron = parsedOf({ expression: normalized, timezone: zone ?? DEFAULT_TIME_ZONE }).cron;
    } catch (error) {
      details.push({ path: `${prefix}.schedule`, message: `schedule is not a valid cron expression: ${cronMessage(error)}` });
    }
    // An expression such as `0 0 30 2 *` parses but never fires: nothing could ever be on time.
    if (cron?.nextRun(new Date(0)) === null) details.push({ path: `${prefix}.schedule`, message: 'schedule never fires' });
  }
  if (details.length > 0 || !zone || typeof normalized !== 'string') return { schedule: null, details };
  return { schedule: { expression: normalized, timezone: zone }, details: [] };
}

function normalizeExpression(expression: unknown): string | { error: string } {
  if (typeof expression !== 'string') return { error: 'schedule must be a string' };
  const trimmed = expression.trim().replace(/\s+/g, ' ');
  if (trimmed.length === 0) return { error: 'schedule must not be empty' };
  if (trimmed.length > MAX_SCHEDULE_LENGTH) return { error: `schedule must be at most ${MAX_SCHEDULE_LENGTH} characters` };
  if (trimmed.startsWith('@')) {
    const nickname = trimmed.toLowerCase();
    if (!(SCHEDULE_NICKNAMES as readonly string[]).includes(nickname)) {
      return { error: `schedule nickname must be one of ${SCHEDULE_NICKNAMES.join(', ')}` };
    }
    return nickname;
  }
  if (trimmed.split(' ').length !== FIELD_COUNT) {
    return { error: 'schedule must have 5 fields (minute hour day-of-month month day-of-week) or be a nickname such as @daily' };
  }
  return trimmed;
}

// Croner's messages name the field ("Invalid value for minute: 61"); keep them, without its class prefix.
const cronMessage = (error: unknown) => (error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : 'invalid');

/** Up to `count` occurrences strictly after `after`, in order. */
export function nextOccurrences(schedule: CronSchedule, after: Date, count: number): Date[] {
  return parsedOf(schedule).cron.nextRuns(count, after);
}

/**
 * The occurrence a ping at `at` stands for: the one nearest to it within ±tolerance (a job that pings
 * a few seconds before its minute, or a little after, ran for that occurrence), or null when the ping
 * is not near any.
 */
export function coveredOccurrence(schedule: CronSchedule, at: Date): Date | null {
  return nearby(parsedOf(schedule).cron, at).covered;
}

/**
 * The occurrence a ping covers and the first occurrence after that one (or after the ping when it
 * covers none), with as few of croner's searches as possible: `nextRun` is the costly part.
 */
function nearby(cron: Cron, at: Date): { covered: Date | null; next: Date | null } {
  const t = at.getTime();
  // Occurrences from `at − tolerance` up to the first one past `at + tolerance` (null when none is left).
  const seen: (Date | null)[] = [];
  let candidate = cron.nextRun(new Date(t - SCHEDULE_TOLERANCE_MS - 1));
  while (candidate && candidate.getTime() <= t + SCHEDULE_TOLERANCE_MS) {
    seen.push(candidate);
    candidate = cron.nextRun(candidate);
  }
  seen.push(candidate);
  let best = -1;
  for (let i = 0; i < seen.length - 1; i++) {
    if (best < 0 || Math.abs(seen[i]!.getTime() - t) < Math.abs(seen[best]!.getTime() - t)) best = i;
  }
  // Without a covered occurrence, the first one past the window is the first after the ping.
  return best < 0 ? { covered: null, next: candidate } : { covered: seen[best], next: seen[best + 1] };
}

/** When a schedule check is next expected and when it fails, by the timing rules of contract §4.1. */
export interface ScheduleTiming {
  expectedAt: Date;
  /** `expectedAt` + grace: the watchdog's FAILING time. */
  deadline: Date;
  toleranceMs: number;
}

/**
 * The timing after the timer (re)started at `since`: the last ping, or the check's creation before
 * any ping, or whatever restarts the timer (a FAILING's deadline, the end of a maintenance window).
 *
 * 1. With `lastPing` set, `since` is that ping: the occurrence the ping covered (see
 *    coveredOccurrence) is done, so the next one is expected; a ping near no occurrence expects the
 *    first occurrence after it.
 * 2. Otherwise the first occurrence strictly after `since` is expected.
 * 3. The deadline is that occurrence plus grace. Null when the schedule never fires again.
 */
export function scheduleTiming(schedule: CronSchedule, graceMs: number, since: Date, sinceIsPing: boolean): ScheduleTiming | null {
  const expectedAt = sinceIsPing ? nearby(parsedOf(schedule).cron, since).next : nextDue(schedule, since);
  if (!expectedAt) return null;
  return { expectedAt, deadline: new Date(expectedAt.getTime() + graceMs), toleranceMs: SCHEDULE_TOLERANCE_MS };
}

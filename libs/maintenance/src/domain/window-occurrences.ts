import { LocalDateTime, localTime, zonedInstant } from '../../../core/src/time-zone';
import { WindowConfig } from './maintenance-window.decider';

/** One occurrence of a maintenance window: from `start` (inclusive) to `end` (exclusive). */
export interface Occurrence {
  start: Date;
  end: Date;
}

/** What the occurrence maths needs of a window. */
export type WindowTiming = Pick<WindowConfig, 'startsAt' | 'endsAt' | 'repeatInterval' | 'repeatUnit' | 'repeatEndsAt' | 'timezone'>;

const MAX_LISTED = 1000;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `local` moved by `steps` repeat units, the day clamped to the month's last for MONTH (31 Jan + 1 month = 28/29 Feb). */
function shifted(local: LocalDateTime, unit: NonNullable<WindowTiming['repeatUnit']>, steps: number): LocalDateTime {
  if (unit === 'MONTH') {
    const months = local.month - 1 + steps;
    const year = local.year + Math.floor(months / 12);
    const month = (((months % 12) + 12) % 12) + 1;
    return { ...local, year, month, day: Math.min(local.day, daysInMonth(year, month)) };
  }
  // Date.UTC rolls day overflow into the next month; zonedInstant takes the fields as they are.
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + steps * (unit === 'WEEK' ? 7 : 1)));
  return { ...local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** A window with its anchors read once: the wall-clock times of its first start and end. */
interface Anchored {
  window: WindowTiming;
  start: number;
  end: number;
  localStart: LocalDateTime;
  localEnd: LocalDateTime;
}

function anchored(window: WindowTiming): Anchored {
  const start = Date.parse(window.startsAt);
  const end = Date.parse(window.endsAt);
  return { window, start, end, localStart: localTime(start, window.timezone), localEnd: localTime(end, window.timezone) };
}

/** When the k-th repeat (k ≥ 1) starts, ignoring repeatEndsAt. */
function repeatStart(a: Anchored, k: number): number {
  return zonedInstant(shifted(a.localStart, a.window.repeatUnit!, k * a.window.repeatInterval!), a.window.timezone);
}

/**
 * The k-th occurrence (k = 0 is the window as given), or null when there is none. A repeat keeps the
 * wall-clock times of `startsAt` and `endsAt` in the window's zone, so a 02:00–04:00 window stays
 * 02:00–04:00 local across daylight-saving changes (a start in a spring-forward gap moves forward by
 * the gap, a time that occurs twice is its first occurrence).
 */
function occurrenceOf(a: Anchored, k: number): Occurrence | null {
  const { window } = a;
  if (k === 0) return { start: new Date(a.start), end: new Date(a.end) };
  if (k < 0 || window.repeatInterval === null || window.repeatUnit === null) return null;
  const from = repeatStart(a, k);
  if (window.repeatEndsAt !== null && from > Date.parse(window.repeatEndsAt)) return null;
  let until = zonedInstant(shifted(a.localEnd, window.repeatUnit, k * window.repeatInterval), window.timezone);
  // Month-end clamping can fold a window onto itself (30th–31st in February): keep its length then.
  if (until <= from) until = from + (a.end - a.start);
  return { start: new Date(from), end: new Date(until) };
}

/** The index of the last occurrence starting at or before `instant`, ignoring repeatEndsAt; -1 before the first. */
function indexAtOrBefore(a: Anchored, instant: number): number {
  const { window } = a;
  if (instant < a.start) return -1;
  if (window.repeatInterval === null || window.repeatUnit === null) return 0;
  const from = a.localStart;
  const to = localTime(instant, window.timezone);
  const units =
    window.repeatUnit === 'MONTH'
      ? (to.year - from.year) * 12 + (to.month - from.month)
      : (Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / (window.repeatUnit === 'WEEK' ? 7 * 86_400_000 : 86_400_000);
  let k = Math.max(0, Math.floor(units / window.repeatInterval));
  // The estimate is off by at most one either way (time of day, month clamping, DST): settle it.
  while (k > 0 && repeatStart(a, k) > instant) k--;
  while (repeatStart(a, k + 1) <= instant) k++;
  return k;
}

/** The last occurrence index repeatEndsAt allows (Infinity when the repeat never ends). */
function lastIndex(a: Anchored): number {
  const { window } = a;
  if (window.repeatInterval === null || window.repeatUnit === null) return 0;
  return window.repeatEndsAt === null ? Infinity : indexAtOrBefore(a, Date.parse(window.repeatEndsAt));
}

/** The occurrence `instant` falls in, or null when the window is not active then. */
export function activeAt(window: WindowTiming, instant: Date): Occurrence | null {
  const a = anchored(window);
  const k = Math.min(indexAtOrBefore(a, instant.getTime()), lastIndex(a));
  if (k < 0) return null;
  const found = occurrenceOf(a, k);
  return found && found.end.getTime() > instant.getTime() ? found : null;
}

/** Occurrences not yet over at `from` (the active one first), in order, lazily. */
function* occurrencesFrom(window: WindowTiming, from: Date): Generator<Occurrence> {
  const a = anchored(window);
  const last = lastIndex(a);
  for (let k = Math.max(0, indexAtOrBefore(a, from.getTime())); k <= last; k++) {
    const found = occurrenceOf(a, k);
    if (!found) return;
    if (found.end.getTime() > from.getTime()) yield found;
  }
}

/** Up to `count` (at most 1000) occurrences not yet over at `from` — the active one first — in order. */
export function nextOccurrences(window: WindowTiming, from: Date, count: number): Occurrence[] {
  const out: Occurrence[] = [];
  if (count <= 0) return out;
  for (const found of occurrencesFrom(window, from)) {
    out.push(found);
    if (out.length >= Math.min(count, MAX_LISTED)) break;
  }
  return out;
}

/** Occurrences overlapping [from, until), in order, at most 1000. */
export function occurrencesBetween(window: WindowTiming, from: Date, until: Date): Occurrence[] {
  const out: Occurrence[] = [];
  for (const found of occurrencesFrom(window, from)) {
    if (found.start.getTime() >= until.getTime() || out.length >= MAX_LISTED) break;
    out.push(found);
  }
  return out;
}

const MAX_CHAINED = 100;

/**
 * When maintenance that covers `instant` ends, over several windows: the end of the active occurrence
 * that ends last, then again from there while another window is active at that moment (back-to-back or
 * overlapping windows chain). Null when no window is active at `instant`. This is where a suppressed
 * deadline restarts (contract §4.1).
 */
export function maintenanceEnd(windows: WindowTiming[], instant: Date): Date | null {
  let until: Date | null = null;
  let at = instant;
  for (let step = 0; step < MAX_CHAINED; step++) {
    let latest: Date | null = null;
    for (const window of windows) {
      const found = activeAt(window, at);
      if (found && (!latest || found.end > latest)) latest = found.end;
    }
    if (!latest) return until;
    until = latest;
    at = latest;
  }
  return until;
}

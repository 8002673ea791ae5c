import { DAY_MS, HOUR_MS } from './agent-tool-inputs';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A window of time a question names, with the words the answer uses for it. */
export interface TimeSpan {
  start: number;
  end: number;
  /** "yesterday (Mon, 9 Mar 2026, UTC)", "the last 7 days". */
  label: string;
  /** Counted back from now (hours fit the tools' `hours` input); false for calendar days and months. */
  rolling: boolean;
  hours: number;
}

/** What a question says about time: nothing, a window understood, or words about time not understood. */
export type TimeReference = { kind: 'none' } | { kind: 'span'; span: TimeSpan } | { kind: 'unknown'; words: string };

const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayName = (ms: number) => DAY_FORMAT.format(new Date(ms));

const utcMidnight = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

function calendarDay(start: number, label: string): TimeSpan {
  return { start, end: start + DAY_MS - 1, label: `${label} (${dayName(start)}, UTC)`, rolling: false, hours: 24 };
}

/** The amounts and units of a rolling window: "last 7 days", "past two weeks", "24h". */
const AMOUNT = '\\d+|a|an|one|two|three|four|five|six|seven|ten|fourteen|thirty|ninety';
const UNIT = 'm|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|months?|y|years?';
const WORD_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10, fourteen: 14, thirty: 30, ninety: 90 };
const ROLLING = new RegExp(`\\b(?:(?:last|past|previous|over|in|for|within)\\s+(?:the\\s+)?(?:${AMOUNT})?\\s*(?:${UNIT})|\\d+\\s?[mhdwy])\\b`);
const COUNTED = new RegExp(`\\b(?:last|past|previous|over|in|for)\\s+(?:the\\s+)?(${AMOUNT})?\\s*(${UNIT})\\b`);

/** Time words the builtin assistant does not turn into a window: it says so rather than guess. */
const UNKNOWN_TIME =
  /\b(quarter|q[1-4]|weekend|tonight|last night|overnight|this morning|this afternoon|this evening|since|until|between|before|after|ago|monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:19|20)\d\d|\d{1,2}(?:st|nd|rd|th)|\d{4}-\d{2}-\d{2})\b/;

/** A rolling window counted back from now, with the words the answer uses for it. */
export interface TimeWindowHint {
  hours: number;
  /** How the answer names it: "the last 7 days". */
  label: string;
}

const DEFAULT_WINDOW: TimeWindowHint = { hours: 24, label: 'the last 24 hours' };
const MAX_HOURS = 400 * 24;

const UNIT_HOURS: [RegExp, number, string][] = [
  [/^(m|mins?|minutes?)$/, 1 / 60, 'minute'],
  [/^(h|hrs?|hours?)$/, 1, 'hour'],
  [/^(d|days?)$/, 24, 'day'],
  [/^(w|wks?|weeks?)$/, 24 * 7, 'week'],
  [/^(months?)$/, 24 * 30, 'month'],
  [/^(y|years?)$/, 24 * 365, 'year'],
];

/** "last 7 days", "past 24h", "over the last week", "7d", "today", "this month"; the last 24 hours otherwise. */
export function parseWindow(text: string, now: Date): TimeWindowHint {
  const match = COUNTED.exec(text) ?? /\b(\d+)\s?(m|h|d|w|y)\b/.exec(text);
  if (match) {
    const amount = match[1] === undefined ? 1 : (WORD_NUMBERS[match[1]] ?? Number(match[1]));
    const unit = UNIT_HOURS.find(([pattern]) => pattern.test(match[2]));
    if (unit && amount > 0) {
      const hours = Math.min(Math.max(Math.ceil(amount * unit[1]), 1), MAX_HOURS);
      const label = amount === 1 ? `the last ${unit[2]}` : `the last ${amount} ${unit[2]}s`;
      return { hours, label: hours === MAX_HOURS ? 'the last 400 days' : label };
    }
  }
  if (/\btoday\b/.test(text)) return { hours: Math.max(1, Math.ceil((now.getTime() - utcMidnight(now)) / HOUR_MS)), label: 'today (UTC)' };
  if (/\bthis week\b/.test(text)) return { hours: 24 * 7, label: 'the last 7 days' };
  if (/\bthis month\b/.test(text)) return { hours: 24 * 30, label: 'the last 30 days' };
  if (/\bthis year\b/.test(text)) return { hours: 24 * 365, label: 'the last 365 days' };
  return DEFAULT_WINDOW;
}

/**
 * The window a question names, from the injected clock: rolling ("last 7 days", "past 24h", "last week"),
 * calendar days ("today", "yesterday", "3 days ago") and months ("in February", "last month" is rolling).
 */
export function timeReference(text: string, now: Date): TimeReference {
  const nowMs = now.getTime();
  const midnight = utcMidnight(now);
  if (/\byesterday\b/.test(text)) return { kind: 'span', span: calendarDay(midnight - DAY_MS, 'yesterday') };
  const ago = /\b(\d+|one|two|three|four|five|six|seven) days? ago\b/.exec(text);
  if (ago) {
    const days = WORD_NUMBERS[ago[1]] ?? Number(ago[1]);
    if (days >= 1 && days <= 400) return { kind: 'span', span: calendarDay(midnight - days * DAY_MS, ago[0]) };
  }
  const month = new RegExp(`\\b(?:in|during|for|of|over)\\s+(${MONTHS.join('|')})\\b`).exec(text);
  if (month) {
    const index = MONTHS.indexOf(month[1]);
    // A month not yet reached this year is last year's.
    const year = index > now.getUTCMonth() ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
    const start = Date.UTC(year, index, 1);
    const end = Math.min(Date.UTC(year, index + 1, 1) - 1, nowMs);
    const name = `${month[1][0].toUpperCase()}${month[1].slice(1)} ${year}`;
    return { kind: 'span', span: { start, end, label: `${name} (UTC)`, rolling: false, hours: Math.ceil((end - start) / HOUR_MS) } };
  }
  const unknown = UNKNOWN_TIME.exec(text);
  if (unknown) return { kind: 'unknown', words: unknown[0] };
  if (ROLLING.test(text) || /\b(today|this week|this month|this year|last week|last month|last year)\b/.test(text)) {
    const { hours, label } = parseWindow(text, now);
    return { kind: 'span', span: { start: nowMs - hours * HOUR_MS, end: nowMs, label, rolling: true, hours } };
  }
  return { kind: 'none' };
}

const TIME_FORMAT = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "Mon, 9 Mar 2026, 14:05 UTC": how the answers say a moment. */
export function humanTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${TIME_FORMAT.format(new Date(ms))} UTC`;
}

/** "Mon, 2 Mar 2026, 15:30 to Mon, 9 Mar 2026, 15:30 UTC". */
export function humanSpan(start: string, end: string): string {
  return `${humanTime(start).replace(/ UTC$/, '')} to ${humanTime(end)}`;
}

import { ValidationError } from '../../../core/src/errors';
import { parseIsoDate } from '../../../core/src/time';
import { DAY_MS } from './heartbeat.projections';

export const MAX_WINDOW_DAYS = 400;

/** A time window, both ends included, in ms since the epoch. */
export interface TimeWindow {
  start: number;
  end: number;
}

function parseTime(raw: unknown, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const date = parseIsoDate(raw);
  if (!date) throw ValidationError.of([{ path: name, message: `${name} must be an ISO 8601 date or date-time` }]);
  return date.getTime();
}

/** endTime defaults to now, startTime to endTime − 24 h; start ≥ end and windows over 400 days are 400s. */
export function parseWindow(startRaw: unknown, endRaw: unknown, now: Date): TimeWindow {
  const end = parseTime(endRaw, 'endTime') ?? now.getTime();
  const start = parseTime(startRaw, 'startTime') ?? end - DAY_MS;
  if (start >= end) throw ValidationError.of([{ path: 'startTime', message: 'startTime must be before endTime' }]);
  if (end - start > MAX_WINDOW_DAYS * DAY_MS) {
    throw ValidationError.of([{ path: 'startTime', message: `the window may span at most ${MAX_WINDOW_DAYS} days` }]);
  }
  return { start, end };
}

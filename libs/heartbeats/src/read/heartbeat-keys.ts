import { v7 as uuidv7 } from 'uuid';
import { isUuid } from '../../../core/src/ids';

/** Rollup ids `<checkId>|<h, d or m>|<bucket start>`, so a window's rollups are one primary-key range. */
/** Hour, day, or the per-minute counts of an hour. */
export type Granularity = 'h' | 'd' | 'm';
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A UUID v7 whose embedded time is the event's timestamp, so the id alone finds the event. */
export const newEventId = (timestampMs: number): string => uuidv7({ msecs: timestampMs });

/** Timestamp embedded in a UUID v7, or null for anything else. */
export function timestampOfEventId(eventId: string): number | null {
  if (!isUuid(eventId) || eventId[14] !== '7') return null;
  return parseInt(eventId.slice(0, 8) + eventId.slice(9, 13), 16);
}

export const bucketStart = (ms: number, granularity: Granularity) => {
  const size = granularity === 'd' ? DAY_MS : HOUR_MS;
  return Math.floor(ms / size) * size;
};

export const rollupId = (checkId: string, granularity: Granularity, startMs: number) => `${checkId}|${granularity}|${new Date(startMs).toISOString()}`;

import { v7 as uuidv7 } from 'uuid';
import { isUuid } from '../../../core/src/ids';

/**
 * Read-model keys that make every heartbeat query a primary-key range: events sort by
 * `<checkId>|<P or F>|<timestamp>|<eventId>` (pings and failures apart, so both can be counted
 * without an index on the state), rollups by `<checkId>|<h or d>|<bucket start>`.
 */
export type Granularity = 'h' | 'd';
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

export const eventKindOf = (failing: boolean) => (failing ? 'F' : 'P');

export function eventDocId(checkId: string, failing: boolean, timestampMs: number, eventId: string): string {
  return `${checkId}|${eventKindOf(failing)}|${new Date(timestampMs).toISOString()}|${eventId}`;
}

/** Lower bound (inclusive) of the events of one kind at or after `ms`. */
export const eventKeyAt = (checkId: string, failing: boolean, ms: number) =>
  `${checkId}|${eventKindOf(failing)}|${new Date(ms).toISOString()}`;

export const bucketStart = (ms: number, granularity: Granularity) => {
  const size = granularity === 'h' ? HOUR_MS : DAY_MS;
  return Math.floor(ms / size) * size;
};

export const rollupId = (checkId: string, granularity: Granularity, startMs: number) =>
  `${checkId}|${granularity}|${new Date(startMs).toISOString()}`;

import { v7 as uuidv7 } from 'uuid';
import { isUuid } from '../../../core/src/ids';
import type { HeartbeatEvent } from '../domain/heartbeat-timer';

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

const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * `ms` as `Date.toISOString` writes it. `text`, when given, is a timestamp known to stand for `ms`
 * (the one it was parsed from): taken as it is when already in that form, which events written by
 * Vigil always are, and formatting a date costs more than checking one.
 */
export function isoOf(ms: number, text?: string): string {
  return text !== undefined && CANONICAL_ISO.test(text) ? text : new Date(ms).toISOString();
}

/** `timestamp`: the event's own ISO text for `timestampMs`, if the caller has it. */
export function eventDocId(checkId: string, failing: boolean, timestampMs: number, eventId: string, timestamp?: string): string {
  return `${checkId}|${eventKindOf(failing)}|${isoOf(timestampMs, timestamp)}|${eventId}`;
}

/** Lower bound (inclusive) of the events of one kind at or after `ms`. */
export const eventKeyAt = (checkId: string, failing: boolean, ms: number) =>
  `${checkId}|${eventKindOf(failing)}|${new Date(ms).toISOString()}`;

export const bucketStart = (ms: number, granularity: Granularity) => {
  const size = granularity === 'h' ? HOUR_MS : DAY_MS;
  return Math.floor(ms / size) * size;
};

/** Bucket starts recur for every ping of an hour or a day: their names are formatted once. */
const bucketNames = new Map<number, string>();
const MAX_BUCKET_NAMES = 4096;

export function bucketName(startMs: number): string {
  let name = bucketNames.get(startMs);
  if (name === undefined) {
    if (bucketNames.size >= MAX_BUCKET_NAMES) bucketNames.clear();
    name = new Date(startMs).toISOString();
    bucketNames.set(startMs, name);
  }
  return name;
}

export const rollupId = (checkId: string, granularity: Granularity, startMs: number) => `${checkId}|${granularity}|${bucketName(startMs)}`;

interface RecentRollupIds {
  hour: number;
  hourId: string;
  day: number;
  dayId: string;
}

/** Each check's rollup ids for the hour and day it was last pinged in (dropped whole past this many checks). */
const recentRollupIds = new Map<string, RecentRollupIds>();
const MAX_RECENT_ROLLUP_CHECKS = 100_000;

/**
 * The hourly and daily rollup ids of a check at `ms`. Every ping of an hour asks for the same two, so
 * they are made once and handed out as the same strings: the documents' maps then find them by a hash
 * the string already holds instead of building, flattening and hashing two ~60-character keys per
 * ping (~0.45 µs a ping in a micro-benchmark of 1,000 checks).
 */
export function rollupIdsAt(checkId: string, ms: number): RecentRollupIds {
  const hour = bucketStart(ms, 'h');
  let ids = recentRollupIds.get(checkId);
  // The hour decides the day (days are whole hours), so only the hour is compared.
  if (ids === undefined || ids.hour !== hour) {
    if (ids === undefined && recentRollupIds.size >= MAX_RECENT_ROLLUP_CHECKS) recentRollupIds.clear();
    const day = bucketStart(ms, 'd');
    ids = { hour, hourId: rollupId(checkId, 'h', hour), day, dayId: rollupId(checkId, 'd', day) };
    // Flattened while young (see WriteBackOverlay.add).
    ids.hourId.charCodeAt(0);
    ids.dayId.charCodeAt(0);
    recentRollupIds.set(checkId, ids);
  }
  return ids;
}

/**
 * `read` of an event, computed once per event: the engine asks for an event's ids, then evolves each
 * of its documents with it, and every step needs the same values. Keeps only the last event.
 */
export function onceForLastEvent<E, T>(read: (event: E) => T): (event: E) => T {
  let last: E | null = null;
  let value: T;
  return (event) => {
    if (event !== last) {
      value = read(event);
      last = event;
    }
    return value;
  };
}

/**
 * When a ping or failure happened, in ms (its `at` or its `deadline`), null for other events: parsed
 * once per event for every heartbeat projection (a date parse is the dearest step of a ping's `ids`).
 */
export const eventTime = onceForLastEvent((event: HeartbeatEvent): number | null => {
  if (event.type === 'HeartbeatPingReceived') return Date.parse(event.data.at);
  if (event.type === 'HeartbeatFailed') return Date.parse(event.data.deadline);
  return null;
});

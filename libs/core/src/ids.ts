import { v7 as uuidv7, validate, version } from 'uuid';

/** Source of new identifiers; injected so tests can make them predictable. */
export interface IdGenerator {
  next(): string;
}

export const ID_GENERATOR = Symbol('ID_GENERATOR');

export class UuidV7Generator implements IdGenerator {
  next(): string {
    return uuidv7();
  }
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for any well-formed UUID (ids made before v7, or by clients, are accepted too). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_SHAPE.test(value) && validate(value) && version(value) > 0;
}

/** A UUID v7 whose embedded time is the event's timestamp, so the id alone finds the event. */
export const newEventId = (timestampMs: number): string => uuidv7({ msecs: timestampMs });

/** Timestamp embedded in a UUID v7, or null for anything else. */
export function timestampOfEventId(eventId: string): number | null {
  if (!isUuid(eventId) || eventId[14] !== '7') return null;
  return parseInt(eventId.slice(0, 8) + eventId.slice(9, 13), 16);
}

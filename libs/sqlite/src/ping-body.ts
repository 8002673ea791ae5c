import { RecordedEvent } from '../../core/src/event';

/**
 * A ping's body without deflate (the Ping intake target: deflating each ping cost a fifth of the storage path).
 * The first byte, 0x07, can never begin a deflated body (it would be a block of the reserved type 3), so both
 * forms read back. A plain ping's type, data and metadata keys, in this order, are implied; each value is null,
 * a lower-case UUID (16 bytes), a timestamp that `toISOString` gives back (6 bytes), a ping state (1 byte) or
 * other text. Anything else keeps the deflated body. Never change a tag or the order: stored bodies depend on them.
 */
const MARK = 0x07;
const TYPE = 'HeartbeatPingReceived';
const DATA_KEYS = ['eventId', 'checkId', 'state', 'at', 'source', 'userAgent'] as const;
const METADATA_KEYS = ['accountId', 'keyId', 'keyName', 'requestId', 'occurredAt'] as const;
const STATES = ['EARLY', 'RECEIVED', 'GRACE', 'LATE', 'FAILING'];
const enum Tag {
  Null = 0,
  Uuid = 1,
  Time = 2,
  State = 3,
  Text = 4,
}
/** Text longer than this (in UTF-8) keeps the deflated body; so do lone or paired surrogates, which UTF-8 would not give back alike. */
const MAX_TEXT = 255;
const SURROGATE = /[\ud800-\udfff]/;
/** Encoding is synchronous: one buffer holds the longest body (11 values of up to 2 + MAX_TEXT bytes), copied out. */
const scratch = Buffer.alloc(1 + 11 * (2 + MAX_TEXT));

const hasKeys = (value: unknown, keys: readonly string[]): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && own.every((key, i) => key === keys[i]);
};

/** The body of a plain ping, or null when the event is not one (its body is then deflated). */
export function encodePingBody(type: string, data: unknown, metadata: unknown): Buffer | null {
  if (type !== TYPE || !hasKeys(data, DATA_KEYS) || !hasKeys(metadata, METADATA_KEYS)) return null;
  const out = scratch;
  let at = 0;
  out[at++] = MARK;
  const put = (value: unknown): boolean => {
    if (value === null) {
      out[at++] = Tag.Null;
    } else if (typeof value !== 'string') {
      return false;
    } else if (putUuid(out, at, value)) {
      at += 17;
    } else if (STATES.includes(value)) {
      out[at++] = Tag.State;
      out[at++] = STATES.indexOf(value);
    } else if (value.length === 24 && isTime(value)) {
      out[at++] = Tag.Time;
      at = out.writeUIntBE(Date.parse(value), at, 6);
    } else {
      const length = Buffer.byteLength(value);
      if (length > MAX_TEXT || SURROGATE.test(value)) return false;
      out[at++] = Tag.Text;
      out[at++] = length;
      at += out.write(value, at, 'utf8');
    }
    return true;
  };
  for (const key of DATA_KEYS) if (!put(data[key])) return null;
  for (const key of METADATA_KEYS) if (!put(metadata[key])) return null;
  return Buffer.from(out.subarray(0, at));
}

/** Writes `value` at `at` as a tag and 16 bytes when it is a lower-case UUID (a loop: a regular expression and a hex decode cost more than the rest of the body). */
function putUuid(out: Buffer, at: number, value: string): boolean {
  if (value.length !== 36) return false;
  let byte = at + 1;
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (value.charCodeAt(i) !== 45) return false;
      i -= 1;
      continue;
    }
    const high = hexDigit(value.charCodeAt(i));
    const low = hexDigit(value.charCodeAt(i + 1));
    if (high < 0 || low < 0) return false;
    out[byte++] = (high << 4) | low;
  }
  out[at] = Tag.Uuid;
  return true;
}

/** 0–15 for `0-9a-f`, else -1. */
const hexDigit = (code: number) => (code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1);

/** Whether `value` is a timestamp `Date#toISOString` writes exactly so. */
function isTime(value: string): boolean {
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 && ms < 2 ** 48 && new Date(ms).toISOString() === value;
}

export const isPingBody = (body: Buffer): boolean => body[0] === MARK;

/** A body `encodePingBody` wrote, as type, data and metadata. */
export function decodePingBody(body: Buffer): [string, RecordedEvent['data'], RecordedEvent['metadata']] {
  let at = 1;
  const take = (): string | null => {
    const tag = body[at++];
    switch (tag) {
      case Tag.Null:
        return null;
      case Tag.Uuid: {
        const hex = body.toString('hex', at, (at += 16));
        return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      }
      case Tag.State:
        return STATES[body[at++]];
      case Tag.Time: {
        const ms = body.readUIntBE(at, 6);
        at += 6;
        return new Date(ms).toISOString();
      }
      case Tag.Text: {
        const length = body[at++];
        return body.toString('utf8', at, (at += length));
      }
      default:
        throw new Error(`Unknown value tag ${tag} in a ping body`);
    }
  };
  const data: Record<string, string | null> = {};
  for (const key of DATA_KEYS) data[key] = take();
  const metadata: Record<string, string | null> = {};
  for (const key of METADATA_KEYS) metadata[key] = take();
  return [TYPE, data, metadata as unknown as RecordedEvent['metadata']];
}

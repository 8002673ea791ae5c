import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../../core/src/errors';
import { PageAfter } from '../../read-store/src/read-store.port';

export interface Page<T> {
  length: number;
  entries: T[];
  nextId: string | null;
}

/** `limit`: integer 1–max, default 20; anything else is a 400 naming the parameter. */
export function parseLimit(raw: unknown, { fallback = 20, max = 100, name = 'limit' } = {}): number {
  if (raw === undefined) return fallback;
  const text = Array.isArray(raw) ? '' : String(raw);
  const value = /^\d+$/.test(text) ? Number(text) : 0;
  if (value < 1 || value > max) throw ValidationError.of([{ path: name, message: `${name} must be an integer from 1 to ${max}` }]);
  return value;
}

/**
 * Opaque, signed cursors: the position after the last entry of a page, bound to one list (scope)
 * so that a cursor cannot be forged or replayed against another list.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(scope: string, after: PageAfter): string {
    const payload = Buffer.from(JSON.stringify([after.value, after.id])).toString('base64url');
    return `${payload}.${this.sign(scope, payload)}`;
  }

  decode(scope: string, cursor: unknown): PageAfter | undefined {
    if (cursor === undefined) return undefined;
    const invalid = () => ValidationError.of([{ path: 'nextId', message: 'nextId is not a cursor this list issued' }]);
    if (typeof cursor !== 'string' || cursor.length > 512) throw invalid();
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(scope, payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    try {
      const [value, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string | number | null, string];
      if (typeof id !== 'string') throw invalid();
      return { value, id };
    } catch {
      throw invalid();
    }
  }

  /** Builds the envelope: `nextId` is set when the page is full and more may follow. */
  page<T>(scope: string, rows: T[], limit: number, position: (row: T) => PageAfter, present: (row: T) => unknown = (r) => r): Page<unknown> {
    const hasMore = rows.length > limit;
    const entries = hasMore ? rows.slice(0, limit) : rows;
    const last = entries[entries.length - 1];
    return {
      length: entries.length,
      entries: entries.map(present),
      nextId: hasMore && last !== undefined ? this.encode(scope, position(last)) : null,
    };
  }

  private sign(scope: string, payload: string): string {
    return createHmac('sha256', this.secret).update(scope).update('\0').update(payload).digest('base64url').slice(0, 22);
  }
}

export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

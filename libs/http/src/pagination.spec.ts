import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../core/src/errors';
import { CursorCodec, parseLimit } from './pagination';

function expect400(fn: () => unknown, path: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  expect((caught as ValidationError).statusCode).toBe(400);
  expect((caught as ValidationError).details.map((d) => d.path)).toEqual([path]);
}

describe('parseLimit', () => {
  it('defaults to 20', () => {
    expect(parseLimit(undefined)).toBe(20);
  });

  it.each([
    ['1', 1],
    ['20', 20],
    ['100', 100],
    ['007', 7],
  ])('accepts %j', (raw, value) => {
    expect(parseLimit(raw)).toBe(value);
  });

  it.each(['0', '101', 'abc', '2.5', '', '-1', '1e2', ' 5', '0x10', '99999999999999999999'])('refuses %j with a 400 on limit', (raw) => {
    expect400(() => parseLimit(raw), 'limit');
  });

  it('refuses a repeated parameter', () => {
    expect400(() => parseLimit(['5', '6']), 'limit');
  });

  it('honours another maximum and name', () => {
    expect(parseLimit('10', { max: 10, name: 'size' })).toBe(10);
    expect400(() => parseLimit('11', { max: 10, name: 'size' }), 'size');
  });
});

describe('CursorCodec', () => {
  const codec = new CursorCodec(randomBytes(32));
  const scope = 'services:account-a';

  it('round-trips the position after the last entry', () => {
    for (const after of [
      { value: '2026-03-01T10:00:00.000Z', id: '01900000-0000-7000-8000-000000000001' },
      { value: 42, id: 'x' },
      { value: null, id: 'y' },
    ]) {
      expect(codec.decode(scope, codec.encode(scope, after))).toEqual(after);
    }
  });

  it('is opaque: no raw ids or times in it', () => {
    const cursor = codec.encode(scope, { value: '2026-03-01T10:00:00.000Z', id: 'svc-1' });
    expect(cursor).not.toContain('svc-1');
    expect(cursor).not.toContain('2026');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('treats no cursor as the first page', () => {
    expect(codec.decode(scope, undefined)).toBeUndefined();
  });

  it('refuses a cursor issued for another list or account', () => {
    const cursor = codec.encode(scope, { value: 'a', id: 'b' });
    expect400(() => codec.decode('services:account-b', cursor), 'nextId');
    expect400(() => codec.decode('incidents:account-a', cursor), 'nextId');
  });

  it('refuses a cursor signed with another secret (another installation)', () => {
    const foreign = new CursorCodec(randomBytes(32)).encode(scope, { value: 'a', id: 'b' });
    expect400(() => codec.decode(scope, foreign), 'nextId');
  });

  it('refuses a tampered payload', () => {
    const cursor = codec.encode(scope, { value: '2026-03-01T10:00:00.000Z', id: 'svc-1' });
    const [, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2099-01-01T00:00:00.000Z', 'svc-1'])).toString('base64url');
    expect400(() => codec.decode(scope, `${forged}.${signature}`), 'nextId');
    // One character changed in the signature.
    const flipped = cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');
    expect400(() => codec.decode(scope, flipped), 'nextId');
  });

  it.each([
    '',
    'abc',
    'abc.def',
    'a.b.c',
    '.',
    'x'.repeat(600),
    '{"value":1}',
    Buffer.from(JSON.stringify(['a', 'b'])).toString('base64url'),
  ])('refuses a forged cursor %#', (cursor) => {
    expect400(() => codec.decode(scope, cursor), 'nextId');
  });

  it('refuses a non-string cursor (repeated query parameter)', () => {
    const cursor = codec.encode(scope, { value: 'a', id: 'b' });
    expect400(() => codec.decode(scope, [cursor, cursor]), 'nextId');
  });

  it('refuses a correctly signed payload whose shape is wrong', () => {
    // Only a holder of the secret could make this; the codec still checks what it decodes.
    const sign = (codec as unknown as { sign(scope: string, payload: string): string }).sign.bind(codec);
    for (const content of ['not json', JSON.stringify({ id: 'x' }), JSON.stringify(['a', 5])]) {
      const payload = Buffer.from(content).toString('base64url');
      expect400(() => codec.decode(scope, `${payload}.${sign(scope, payload)}`), 'nextId');
    }
  });

  describe('page', () => {
    const rows = [1, 2, 3, 4].map((n) => ({ id: `id-${n}`, at: `t${n}` }));
    const position = (row: { id: string; at: string }) => ({ value: row.at, id: row.id });

    it('given one row more than the limit, returns limit entries and a cursor after the last one', () => {
      const page = codec.page(scope, rows, 3, position);
      expect(page.length).toBe(3);
      expect(page.entries).toEqual(rows.slice(0, 3));
      expect(codec.decode(scope, page.nextId!)).toEqual({ value: 't3', id: 'id-3' });
    });

    it('given no more rows than the limit, has no next page', () => {
      expect(codec.page(scope, rows, 4, position)).toEqual({ length: 4, entries: rows, nextId: null });
      expect(codec.page(scope, [], 4, position)).toEqual({ length: 0, entries: [], nextId: null });
    });

    it('presents each entry', () => {
      expect(codec.page(scope, rows, 2, position, (r) => r.id).entries).toEqual(['id-1', 'id-2']);
    });
  });
});

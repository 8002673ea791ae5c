import { PreconditionFailedError } from '../../core/src/errors';
import { etagOf, parseIfMatch, setEtag } from './etag';

describe('ETag', () => {
  it('is the quoted stream revision', () => {
    expect(etagOf(0n)).toBe('"0"');
    expect(etagOf(12)).toBe('"12"');
  });

  it('is set on a reply only when there is a revision', () => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
    setEtag(reply as never, null);
    setEtag(reply as never, undefined);
    expect(headers).toEqual({});
    setEtag(reply as never, 3n);
    expect(headers).toEqual({ etag: '"3"' });
  });
});

describe('parseIfMatch', () => {
  it('is undefined without the header (no precondition)', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
  });

  it('reads a quoted revision, strong or weak, with surrounding spaces', () => {
    expect(parseIfMatch('"0"')).toBe(0n);
    expect(parseIfMatch('"17"')).toBe(17n);
    expect(parseIfMatch('W/"5"')).toBe(5n);
    expect(parseIfMatch('  "5"  ')).toBe(5n);
  });

  it('round-trips what etagOf writes', () => {
    expect(parseIfMatch(etagOf(123456789n))).toBe(123456789n);
  });

  it('treats * as "any current version"', () => {
    expect(parseIfMatch('*')).toBeUndefined();
  });

  it('uses the first of repeated headers', () => {
    expect(parseIfMatch(['"2"', '"3"'])).toBe(2n);
  });

  it.each(['5', '"abc"', '""', '"-1"', '"1.0"', "'1'", '"1', 'W/5', '"1234567890123456789"', ''])(
    'answers %j, which can match no revision, with a 412',
    (header) => {
      expect(() => parseIfMatch(header)).toThrow(PreconditionFailedError);
    },
  );
});

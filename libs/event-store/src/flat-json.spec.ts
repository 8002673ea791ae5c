import { flatJsonCopy } from './flat-json';

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('flatJsonCopy', () => {
  const flat: Record<string, unknown>[] = [
    {},
    { checkId: '0190abcd-aaaa-7bbb-8ccc-dddddddddddd', state: 'RECEIVED', source: null, userAgent: 'curl/8' },
    { n: 0, m: -1.5, big: Number.MAX_SAFE_INTEGER, tiny: 5e-324, yes: true, no: false },
    { '2': 'b', '1': 'a', z: 'last', '0': 'first' },
    { lone: '\ud800', pair: '😀', quote: '"\\\n\u2028', empty: '' },
    Object.assign(Object.create(Object.prototype) as object, { made: 'by Object.create' }),
  ];

  it.each(flat.map((value) => [value]))('given %j, when copied, then it is what the JSON reads back as, member order included', (value) => {
    const copy = flatJsonCopy(value);
    expect(copy).not.toBe(value);
    expect(copy).toStrictEqual(roundTrip(copy));
    expect(Object.keys(copy!)).toEqual(Object.keys(roundTrip(value) as object));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  const notFlat: [string, unknown][] = [
    ['a nested object', { a: { b: 1 } }],
    ['an array member', { a: [1] }],
    ['an array', ['a']],
    ['a date member', { at: new Date(0) }],
    ['a date', new Date(0)],
    ['an undefined member (JSON drops it)', { a: undefined }],
    ['a function member', { f: () => 1 }],
    ['NaN (JSON writes null)', { n: Number.NaN }],
    ['Infinity', { n: Number.POSITIVE_INFINITY }],
    ['-0 (JSON writes 0)', { n: -0 }],
    ['a bigint', { n: 1n }],
    ['a symbol member', { s: Symbol('s') }],
    ['its own toJSON', { toJSON: () => 'x' }],
    ['an own __proto__ member', JSON.parse('{"__proto__": "x"}') as unknown],
    ['a null prototype', Object.assign(Object.create(null) as object, { a: 1 })],
    ['a class instance', new (class Point { x = 1 })()],
    ['a Map', new Map([['a', 1]])],
    ['a string', 'text'],
    ['a number', 1],
    ['null', null],
    ['undefined', undefined],
  ];

  it.each(notFlat)('given %s, then there is no copy (the caller parses the JSON)', (_name, value) => {
    expect(flatJsonCopy(value)).toBeUndefined();
  });

  it('given an inherited enumerable member, then there is no copy', () => {
    const child = Object.create({ inherited: 'x' }) as Record<string, unknown>;
    expect(flatJsonCopy(child)).toBeUndefined();
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'x';
    try {
      expect(flatJsonCopy({ a: 1 })).toBeUndefined();
    } finally {
      delete proto.polluted;
    }
  });

  it('given a getter, then it runs once and the copy holds what it returned', () => {
    let calls = 0;
    const value = {
      get at() {
        calls += 1;
        return `call ${calls}`;
      },
    };
    const copy = flatJsonCopy(value);
    expect(calls).toBe(1);
    expect(copy).toEqual({ at: 'call 1' });
    expect(JSON.stringify(copy)).toBe('{"at":"call 1"}');
  });

  it('given symbol-keyed members, then they are left out as JSON leaves them out', () => {
    const value = { a: 1, [Symbol('hidden')]: 2 };
    expect(flatJsonCopy(value)).toStrictEqual(roundTrip(value));
  });
});

import { StreamTail } from './stream-tail';

describe('StreamTail', () => {
  const filled = () => {
    const tail = new StreamTail();
    tail.add('b', 0n, 1n);
    tail.add('a', 0n, 2n);
    tail.add('b', 1n, 3n);
    tail.add('a', 1n, 4n);
    tail.add('c', 5n, 5n);
    return tail;
  };

  it('given appended events, then it tells each stream’s events in order, their count and newest revision', () => {
    const tail = filled();
    expect(tail.size).toBe(5);
    expect(tail.of('b')).toEqual([
      { revision: 0n, position: 1n },
      { revision: 1n, position: 3n },
    ]);
    expect(tail.count('a')).toBe(2);
    expect(tail.lastRevision('c')).toBe(5n);
    expect(tail.lastRevision('none')).toBeUndefined();
    expect(tail.of('none')).toEqual([]);
    expect(tail.count('none')).toBe(0);
  });

  it('given a position, then the streams with events at or before it come in key order', () => {
    const tail = filled();
    expect(tail.streamsThrough(1n)).toEqual(['b']);
    expect(tail.streamsThrough(2n)).toEqual(['a', 'b']);
    expect(tail.streamsThrough(2n ** 70n)).toEqual(['a', 'b', 'c']);
  });

  it('when the index takes events in, then it forgets them and keeps the later ones', () => {
    const tail = filled();
    tail.dropThrough(3n);
    expect(tail.size).toBe(2);
    expect(tail.of('b')).toEqual([]);
    expect(tail.of('a')).toEqual([{ revision: 1n, position: 4n }]);
    expect(tail.lastRevision('a')).toBe(1n);
    tail.dropThrough(2n ** 70n);
    expect(tail.size).toBe(0);
  });

  it('holds revisions and positions up to 2^53 − 1 exactly and refuses larger ones', () => {
    const tail = new StreamTail();
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    tail.add('s', max, max);
    expect(tail.of('s')).toEqual([{ revision: max, position: max }]);
    expect(() => tail.add('s', max + 1n, 1n)).toThrow(RangeError);
    expect(() => tail.add('s', 1n, max + 1n)).toThrow(RangeError);
    expect(tail.size).toBe(1);
  });
});

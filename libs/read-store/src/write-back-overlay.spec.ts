import { WriteBackDoc, WriteBackOverlay, WriteBackSlice } from './write-back-overlay';

const doc = (id: string, revision: bigint, n = Number(revision)): WriteBackDoc => ({ id, revision, doc: { id, n } });
const ids = (slice: WriteBackSlice | null, collection = 'c') => slice?.docs.get(collection)?.map((d) => `${d.id}@${d.revision}`) ?? [];

describe('WriteBackOverlay', () => {
  it('keeps the newest revision of each document and the furthest checkpoint', () => {
    const overlay = new WriteBackOverlay();
    overlay.add('c', [doc('a', 2n), doc('b', 1n)], 10n);
    overlay.add('c', [doc('a', 1n), doc('b', 3n)], 8n);

    expect(overlay.get('c', 'a')?.revision).toBe(2n);
    expect(overlay.get('c', 'b')?.revision).toBe(3n);
    expect(overlay.checkpoint('c')).toBe(10n);
    expect(overlay.size).toBe(2);
  });

  it('holds nothing for an addition without documents or checkpoint', () => {
    const overlay = new WriteBackOverlay();
    overlay.add('c', [], null);
    expect(overlay.empty).toBe(true);
    expect(overlay.has('c')).toBe(false);
  });

  it('writes everything at once in key order, then forgets it', () => {
    const overlay = new WriteBackOverlay();
    overlay.add('c', [doc('b', 1n), doc('a', 1n)], 5n);

    const all = overlay.everything();
    expect(ids(all)).toEqual(['a@1', 'b@1']);
    expect(all.checkpoints.get('c')).toBe(5n);
    overlay.written();
    expect(overlay.empty).toBe(true);
    expect(overlay.checkpoint('c')).toBeUndefined();
  });

  describe('a drain', () => {
    it('writes what was pending when it started in slices; the checkpoint goes with the last one', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', ['a', 'b', 'c', 'd', 'e'].map((id) => doc(id, 1n)), 7n);
      overlay.startDrain();

      const first = overlay.slice(2, 2);
      expect(ids(first)).toEqual(['a@1', 'b@1', 'c@1']);
      expect(first!.checkpoints.size).toBe(0);
      overlay.sliceWritten();
      expect(overlay.get('c', 'a')).toBeUndefined();
      expect(overlay.checkpoint('c')).toBe(7n);

      const last = overlay.slice(2, 2);
      expect(ids(last)).toEqual(['d@1', 'e@1']);
      expect(last!.checkpoints.get('c')).toBe(7n);
      overlay.sliceWritten();
      expect(overlay.draining).toBe(false);
      // Everything that checkpoint covers is written: the stored checkpoint says it all.
      expect(overlay.empty).toBe(true);
    });

    it('writes the newest version of a document changed while it runs, and keeps it pending if it changed again', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', [doc('a', 1n), doc('b', 1n)], 3n);
      overlay.startDrain();
      overlay.add('c', [doc('a', 2n)], 4n);

      const slice = overlay.slice(1, 10);
      expect(ids(slice)).toEqual(['a@2', 'b@1']);
      expect(slice!.checkpoints.get('c')).toBe(3n);
      // Applied after the slice was written, before its transaction committed.
      overlay.add('c', [doc('b', 2n)], 5n);
      overlay.sliceWritten();

      expect(overlay.get('c', 'a')).toBeUndefined();
      expect(overlay.get('c', 'b')?.revision).toBe(2n);
      expect(overlay.checkpoint('c')).toBe(5n);
    });

    it('takes a slice again when its transaction did not commit', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', [doc('a', 1n), doc('b', 1n)], 3n);
      overlay.startDrain();

      expect(ids(overlay.slice(2, 1))).toEqual(['a@1']);
      // No sliceWritten: the batch rolled back.
      expect(ids(overlay.slice(2, 1))).toEqual(['a@1']);
      overlay.sliceWritten();
      expect(ids(overlay.slice(2, 1))).toEqual(['b@1']);
    });

    it('does not cover documents added after it started, whose checkpoint it does not write', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', [doc('a', 1n)], 3n);
      overlay.startDrain();
      overlay.add('c', [doc('z', 1n)], 4n);

      const slice = overlay.slice(1, 10);
      expect(ids(slice)).toEqual(['a@1']);
      expect(slice!.checkpoints.get('c')).toBe(3n);
      overlay.sliceWritten();
      expect(overlay.get('c', 'z')?.revision).toBe(1n);
      expect(overlay.checkpoint('c')).toBe(4n);
      expect(overlay.draining).toBe(false);
    });

    it('writes the checkpoint of a collection that only moved its checkpoint', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', [], 9n);
      overlay.startDrain();
      const slice = overlay.slice(4, 1);
      expect(slice!.checkpoints.get('c')).toBe(9n);
      overlay.sliceWritten();
      expect(overlay.empty).toBe(true);
    });

    it('ends with a full write, and forgets a dropped collection', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', [doc('a', 1n)], 3n);
      overlay.add('d', [doc('a', 1n)], 3n);
      overlay.startDrain();
      overlay.discard('d');
      expect(overlay.has('d')).toBe(false);
      expect([...overlay.everything().docs.keys()]).toEqual(['c']);
      overlay.written();
      expect(overlay.draining).toBe(false);
      expect(overlay.slice(1, 1)).toBeNull();
    });
  });

  describe('append-only (documents of new ids, an immutable projection\'s)', () => {
    const event = (id: string, revision = 1n): WriteBackDoc => ({ id, revision, json: JSON.stringify({ id, revision: Number(revision) }) });
    const append = (overlay: WriteBackOverlay, docs: WriteBackDoc[], checkpoint: bigint | null, collection = 'c') => overlay.add(collection, docs, checkpoint, true);
    /** Each id's newest revision among `docs`. */
    const newestRevisions = (docs: Iterable<WriteBackDoc>) => {
      const newest = new Map<string, bigint>();
      for (const doc of docs) if ((newest.get(doc.id) ?? -1n) < doc.revision) newest.set(doc.id, doc.revision);
      return newest;
    };
    // Each id once, in its newest version held, as a query sees them.
    const heldIds = (overlay: WriteBackOverlay, collection = 'c') =>
      [...newestRevisions(overlay.versions(collection).flatMap((run) => [...run]))].map(([id, revision]) => `${id}@${revision}`).sort();
    /** What a drain of `arrivals` must write: each id once, in its newest version, in key order. */
    const drainOrder = (arrivals: WriteBackDoc[]) => {
      const newest = newestRevisions(arrivals);
      return [...newest.keys()].sort().map((id) => `${id}@${newest.get(id)}`);
    };
    /** `arrivals` added `size` at a time, each group with a checkpoint of its own. */
    const appendInGroups = (overlay: WriteBackOverlay, arrivals: WriteBackDoc[], size: number) => {
      for (let i = 0; i < arrivals.length; i += size) append(overlay, arrivals.slice(i, i + size), BigInt(i + 1));
    };

    it('drains ids of any shape in key order, each once in its newest version, over many slices', () => {
      const overlay = new WriteBackOverlay();
      // Ids sharing long prefixes, one- and two-character ids, the empty id, code units past one byte, and
      // second copies (an older and a newer revision) falling in different slices of arrival.
      const shapes = ['', 'a', 'aa', 'a|', 'ab', 'b', 'é', 'éa', '\u{1F600}x', 'z', '0', '9z', 'check-1|P|2026', 'check-1|P|2025', 'check-10'];
      const arrivals: WriteBackDoc[] = [];
      for (let round = 0; round < 40; round++) {
        for (const shape of shapes) arrivals.push(event(`${shape}${round % 7}`, BigInt(round + 1)));
      }
      appendInGroups(overlay, arrivals, 23);
      const expected = drainOrder(arrivals);

      overlay.startDrain();
      const written: string[] = [];
      for (let slices = 0; overlay.draining; slices++) {
        const slice = overlay.slice(50, 1);
        written.push(...ids(slice));
        // Every other slice is taken again before it is confirmed: the same documents come back.
        if (slices % 2 === 0) expect(ids(overlay.slice(50, 1))).toEqual(ids(slice));
        overlay.sliceWritten();
      }
      expect(written).toEqual(expected);
      expect(overlay.size).toBe(0);
    });

    it('drains thousands of ids with long shared prefixes in key order (split before sorting), copies of one id once', () => {
      const overlay = new WriteBackOverlay();
      const shared = '0191a2b3-c4d5-7';
      const arrivals: WriteBackDoc[] = [];
      for (let i = 0; i < 6000; i++) {
        // Runs that split again and again: a shared prefix, then ids that are prefixes of others, then digits.
        const id = `${shared}${(i % 37).toString(16)}${i % 5 === 0 ? '' : `|${(i * 7919) % 4001}`}`;
        arrivals.push(event(id, BigInt(i + 1)));
      }
      // 1,500 copies of one id: a run nothing can split.
      for (let i = 0; i < 1500; i++) arrivals.push(event('zz-same', BigInt(10_000 + i)));
      appendInGroups(overlay, arrivals, 97);
      const expected = drainOrder(arrivals);

      overlay.startDrain();
      const written: string[] = [];
      while (overlay.draining) {
        written.push(...ids(overlay.slice(40, 1)));
        overlay.sliceWritten();
      }
      expect(written).toEqual(expected);
      expect(written[written.length - 1]).toBe('zz-same@11499');
    });

    it('holds documents of new ids for every read until they are written', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, [event('b'), event('a')], 4n);
      append(overlay, [event('c')], 5n);

      expect(overlay.get('c', 'a')?.revision).toBe(1n);
      expect(overlay.get('c', 'z')).toBeUndefined();
      expect(heldIds(overlay)).toEqual(['a@1', 'b@1', 'c@1']);
      expect(overlay.size).toBe(3);
      expect(overlay.checkpoint('c')).toBe(5n);
      expect(overlay.has('c')).toBe(true);
    });

    it('holds an id that comes twice (an event applied again) once for reads, in its newest version', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, [event('a', 2n), event('b')], 3n);
      append(overlay, [event('a', 1n), event('b'), event('b', 2n)], 3n);

      expect(overlay.get('c', 'a')?.revision).toBe(2n);
      expect(overlay.get('c', 'b')?.revision).toBe(2n);
      expect(heldIds(overlay)).toEqual(['a@2', 'b@2']);
      // Counted until a drain's slice reaches and drops the second copies.
      expect(overlay.size).toBe(5);
      overlay.startDrain();
      expect(overlay.size).toBe(5);
      expect(ids(overlay.slice(1, 10))).toEqual(['a@2', 'b@2']);
      expect(overlay.size).toBe(2);
      overlay.sliceWritten();
      expect(overlay.size).toBe(0);
    });

    it('is drained in slices in key order, the checkpoint with the last; written documents leave memory', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, ['d', 'b', 'e', 'a', 'c'].map((id) => event(id)), 7n);
      overlay.startDrain();

      const first = overlay.slice(2, 2);
      expect(ids(first)).toEqual(['a@1', 'b@1', 'c@1']);
      expect(first!.checkpoints.size).toBe(0);
      overlay.sliceWritten();
      expect(overlay.get('c', 'a')).toBeUndefined();
      expect(heldIds(overlay)).toEqual(['d@1', 'e@1']);
      expect(overlay.size).toBe(2);

      const last = overlay.slice(2, 2);
      expect(ids(last)).toEqual(['d@1', 'e@1']);
      expect(last!.checkpoints.get('c')).toBe(7n);
      overlay.sliceWritten();
      expect(overlay.draining).toBe(false);
      expect(overlay.size).toBe(0);
      expect(overlay.empty).toBe(true);
    });

    it('takes a slice again when its transaction did not commit', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, [event('b'), event('a')], 3n);
      overlay.startDrain();

      expect(ids(overlay.slice(2, 1))).toEqual(['a@1']);
      // No sliceWritten: the batch rolled back.
      expect(ids(overlay.slice(2, 1))).toEqual(['a@1']);
      expect(overlay.get('c', 'a')?.revision).toBe(1n);
      overlay.sliceWritten();
      expect(ids(overlay.slice(2, 1))).toEqual(['b@1']);
    });

    it('keeps documents added during a drain out of it, and visible, for the next one', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, [event('b')], 3n);
      overlay.startDrain();
      append(overlay, [event('a')], 4n);

      const slice = overlay.slice(1, 10);
      expect(ids(slice)).toEqual(['b@1']);
      expect(slice!.checkpoints.get('c')).toBe(3n);
      overlay.sliceWritten();
      expect(overlay.draining).toBe(false);
      expect(heldIds(overlay)).toEqual(['a@1']);
      expect(overlay.checkpoint('c')).toBe(4n);

      overlay.startDrain();
      const next = overlay.slice(1, 10);
      expect(ids(next)).toEqual(['a@1']);
      expect(next!.checkpoints.get('c')).toBe(4n);
      overlay.sliceWritten();
      expect(overlay.empty).toBe(true);
    });

    it('covers, in a drain started before the last one finished, what that one left unwritten', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, ['a', 'b', 'c'].map((id) => event(id)), 3n);
      overlay.startDrain();
      overlay.slice(3, 1);
      overlay.sliceWritten();
      append(overlay, [event('a0'), event('d')], 4n);

      overlay.startDrain();
      expect(ids(overlay.slice(1, 10))).toEqual(['a0@1', 'b@1', 'c@1', 'd@1']);
    });

    it('writes everything at once in key order, each id once, then forgets it', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, [event('b'), event('a')], 5n);
      overlay.startDrain();
      append(overlay, [event('c'), event('a', 2n)], 6n);

      const all = overlay.everything();
      expect(ids(all)).toEqual(['a@2', 'b@1', 'c@1']);
      expect(all.checkpoints.get('c')).toBe(6n);
      overlay.written();
      expect(overlay.empty).toBe(true);
      expect(overlay.size).toBe(0);
      expect(overlay.slice(1, 1)).toBeNull();
    });

    it('forgets a collection dropped while a drain writes it', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, ['a', 'b', 'c'].map((id) => event(id)), 3n);
      append(overlay, [event('a')], 3n, 'd');
      overlay.startDrain();
      expect(ids(overlay.slice(4, 1))).toEqual(['a@1']);
      overlay.discard('c');

      expect(overlay.has('c')).toBe(false);
      expect(overlay.size).toBe(1);
      const slice = overlay.slice(4, 1);
      expect([...slice!.docs.keys()]).toEqual(['d']);
      overlay.sliceWritten();
      expect(overlay.empty).toBe(true);
    });

    it('shares a drain with collections held by id: each gets its checkpoint with its own last slice', () => {
      const overlay = new WriteBackOverlay();
      append(overlay, ['a', 'b', 'c'].map((id) => event(id)), 8n, 'events');
      overlay.add('timers', [doc('x', 1n), doc('y', 1n)], 8n);
      overlay.startDrain();
      overlay.add('timers', [doc('x', 2n)], 9n);

      const first = overlay.slice(2, 1);
      expect(ids(first, 'events')).toEqual(['a@1', 'b@1', 'c@1']);
      expect(first!.docs.has('timers')).toBe(false);
      expect([...first!.checkpoints]).toEqual([['events', 8n]]);
      overlay.sliceWritten();
      expect(overlay.has('events')).toBe(false);

      const last = overlay.slice(2, 1);
      expect(ids(last, 'timers')).toEqual(['x@2', 'y@1']);
      expect([...last!.checkpoints]).toEqual([['timers', 8n]]);
      overlay.sliceWritten();
      expect(overlay.draining).toBe(false);
      expect(overlay.checkpoint('timers')).toBe(9n);
      expect(overlay.size).toBe(0);
    });

    it('keeps the mode a collection was first held in until it is all written', () => {
      const overlay = new WriteBackOverlay();
      overlay.add('c', [doc('a', 1n)], 1n);
      append(overlay, [event('a', 2n), event('b')], 2n);
      expect(overlay.size).toBe(2);
      expect(overlay.get('c', 'a')?.revision).toBe(2n);

      append(overlay, [event('e')], 1n, 'events');
      overlay.add('events', [doc('e', 2n)], 2n);
      expect(heldIds(overlay, 'events')).toEqual(['e@2']);
      expect(ids(overlay.everything(), 'events')).toEqual(['e@2']);
    });
  });
});

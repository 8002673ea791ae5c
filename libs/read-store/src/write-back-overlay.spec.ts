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
});

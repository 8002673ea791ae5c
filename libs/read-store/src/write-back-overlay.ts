import { ReadModelDoc } from '../../core/src/projection';
import { decodeStoredDoc } from './stored-json';

/**
 * A document to be written later at `revision`: `doc` (null: a delete, that is a tombstone), or, for
 * one that will not change again (an immutable projection's), its text as the row will hold it
 * (`storedText`), which costs the garbage collector less while it waits.
 */
export type WriteBackDoc =
  | { readonly id: string; readonly revision: bigint; readonly doc: ReadModelDoc | null; readonly json?: undefined }
  | { readonly id: string; readonly revision: bigint; readonly doc?: undefined; readonly json: string };

/** The document a WriteBackDoc holds, decoded if need be; null for a delete. */
export function valueOf(doc: WriteBackDoc): ReadModelDoc | null {
  return doc.json === undefined ? doc.doc : decodeStoredDoc(doc.id, doc.json);
}

/**
 * Each id's newest version among `runs` (the lists or map values that hold them, walked directly: no
 * generator, no copy, as a query may look at tens of thousands), for the ids `keep` lets through.
 */
export function newestById(runs: readonly Iterable<WriteBackDoc>[], keep?: (id: string) => boolean): Map<string, WriteBackDoc> {
  const newest = new Map<string, WriteBackDoc>();
  for (const run of runs) {
    for (const doc of run) {
      if (keep && !keep(doc.id)) continue;
      const seen = newest.get(doc.id);
      if (!seen || doc.revision > seen.revision) newest.set(doc.id, doc);
    }
  }
  return newest;
}

/** Descending by id, then each id once: its newest version (equal ids are neighbours once sorted). */
function sortDescendingOnce(docs: WriteBackDoc[]): void {
  docs.sort((a, b) => (a.id > b.id ? -1 : a.id < b.id ? 1 : 0));
  let kept = 0;
  for (const doc of docs) {
    const last = kept > 0 ? docs[kept - 1] : undefined;
    if (last?.id !== doc.id) docs[kept++] = doc;
    else if (doc.revision > last.revision) docs[kept - 1] = doc;
  }
  docs.length = kept;
}

/** A drain run longer than this is split before it is sorted. */
const SPLIT_ABOVE = 1024;

/** The two UTF-16 code units of `id` at `at` as one number that orders as the strings do (a missing one first). */
function keyAt(id: string, at: number): number {
  const first = id.length > at ? id.charCodeAt(at) + 1 : 0;
  const second = id.length > at + 1 ? id.charCodeAt(at + 1) + 1 : 0;
  return first * 65_537 + second;
}

/**
 * `docs` in parts by the two characters that follow the prefix all their ids share, the parts in
 * descending order. Ids often share long prefixes (UUID v7 check ids made in the same second share
 * their first ten characters), so the first characters alone would not split them.
 */
function split(docs: readonly WriteBackDoc[]): WriteBackDoc[][] {
  const first = docs[0].id;
  let common = first.length;
  for (const { id } of docs) {
    let at = 0;
    const limit = Math.min(common, id.length);
    while (at < limit && id.charCodeAt(at) === first.charCodeAt(at)) at += 1;
    common = at;
    if (common === 0) break;
  }
  const byKey = new Map<number, WriteBackDoc[]>();
  for (const doc of docs) {
    const key = keyAt(doc.id, common);
    const part = byKey.get(key);
    if (part) part.push(doc);
    else byKey.set(key, [doc]);
  }
  return [...byKey.keys()].sort((a, b) => b - a).map((key) => byKey.get(key)!);
}

/**
 * A drain's documents in key order, sorted as the drain reaches them: the smallest ids are taken first,
 * and a run of documents is sorted only when a slice first takes from it, after being split (one pass
 * each time) while it is long. Sorting every id at the drain's start held the event loop ~35 ms every
 * 2 s under 14,000 pings/s (28,000 event documents); this spreads the work over the drain's slices.
 */
class DrainOrder {
  /** Runs in descending key order: the smallest ids are in the last one. */
  private readonly runs: { docs: WriteBackDoc[]; sorted: boolean }[] = [];
  /** Documents left, second copies of an id in runs not sorted yet included. */
  length = 0;

  constructor(docs: WriteBackDoc[] = []) {
    if (docs.length > 0) this.runs.push({ docs, sorted: false });
    this.length = docs.length;
  }

  /** Every document left, in no order, as the lists that hold them. */
  lists(): WriteBackDoc[][] {
    return this.runs.map((run) => run.docs);
  }

  /** Up to `count` of the smallest ids, ascending: what the next slice writes. */
  smallest(count: number): WriteBackDoc[] {
    const taken: WriteBackDoc[] = [];
    for (let r = this.runs.length - 1; r >= 0 && taken.length < count; r--) {
      let run = this.runs[r];
      while (!run.sorted && run.docs.length > SPLIT_ABOVE) {
        const parts = split(run.docs);
        // Ids that share everything but what `split` can tell apart (copies of one id): sort them as they are.
        if (parts.length === 1) break;
        this.runs.splice(r, 1, ...parts.map((docs) => ({ docs, sorted: false })));
        r += parts.length - 1;
        run = this.runs[r];
      }
      if (!run.sorted) {
        const before = run.docs.length;
        sortDescendingOnce(run.docs);
        run.sorted = true;
        this.length -= before - run.docs.length;
      }
      for (let i = run.docs.length - 1; i >= 0 && taken.length < count; i--) taken.push(run.docs[i]);
    }
    return taken;
  }

  /** Forgets the `count` smallest ids (taken by `smallest` and written since). */
  dropSmallest(count: number): void {
    let left = count;
    while (left > 0 && this.runs.length > 0) {
      const run = this.runs[this.runs.length - 1];
      const dropped = Math.min(left, run.docs.length);
      run.docs.length -= dropped;
      left -= dropped;
      this.length -= dropped;
      if (run.docs.length === 0) this.runs.pop();
    }
  }
}

/**
 * An append-only collection's documents: each a new id, held without a map entry apiece (the cost
 * that matters at one per ping). An id that comes twice (an event applied again) is held twice;
 * reads and drains take its newest version.
 */
class AppendedDocs {
  /** The drain's documents not written yet, in key order as the drain reaches them. */
  draining = new DrainOrder();
  /** Arrived since the drain started, in arrival order. */
  private arrived: WriteBackDoc[] = [];
  /** Each id's newest version, for reads only: built when one asks, dropped when the documents change. */
  private index: Map<string, WriteBackDoc> | null = null;

  get size(): number {
    return this.draining.length + this.arrived.length;
  }

  add(docs: readonly WriteBackDoc[]): void {
    for (const doc of docs) {
      // An id built by concatenation is a rope. Reading a character flattens it now, while it is young:
      // flattening it later, once the GC has moved it to the old generation, doubled a drain's start.
      doc.id.charCodeAt(0);
      // So is the held text (storedText's cut of JSON.stringify's parts): flat, it no longer keeps the
      // whole JSON it was cut from alive. The GC then moves ~16% fewer bytes out of the young
      // generation under the ping load, and its pauses took ~10% less time (docs/benchmarks.md).
      doc.json?.charCodeAt(0);
      this.arrived.push(doc);
    }
    this.index = null;
  }

  /** Every version held, in no order, as the lists that hold them: an id that came twice is there twice. */
  versions(): WriteBackDoc[][] {
    return [...this.draining.lists(), this.arrived];
  }

  byId(): Map<string, WriteBackDoc> {
    this.index ??= newestById(this.versions());
    return this.index;
  }

  /** Every document held, each id once (its newest version), sorted by id. */
  ascending(): WriteBackDoc[] {
    const docs = this.versions().flat();
    sortDescendingOnce(docs);
    return docs.reverse();
  }

  /** A drain covers what is held now, what an earlier one left unwritten included. */
  startDrain(): void {
    this.draining = new DrainOrder(this.versions().flat());
    this.arrived = [];
    this.index = null;
  }

  /** The drain has written the `count` smallest ids it handed out. */
  written(count: number): void {
    if (count === 0) return;
    this.draining.dropSmallest(count);
    this.index = null;
  }
}

interface PendingCollection {
  /** Each id's newest version; empty for an append-only collection, whose documents `appended` holds. */
  docs: Map<string, WriteBackDoc>;
  appended: AppendedDocs | null;
  /** Log position the collection (stored and pending documents together) reflects; null: the stored checkpoint. */
  checkpoint: bigint | null;
}

/** What to write: documents per collection, in key order, and checkpoints whose documents are all written with them. */
export interface WriteBackSlice {
  docs: Map<string, WriteBackDoc[]>;
  checkpoints: Map<string, bigint>;
}

interface Drain {
  /** Per collection, what is left: its ids in key order from `next` on, or for an append-only one, `appended.draining`. */
  lists: { collection: string; ids: string[]; next: number; appended: AppendedDocs | null; checkpoint: bigint | null; checkpointWritten: boolean }[];
  size: number;
}

interface InFlight {
  written: { collection: string; doc: WriteBackDoc }[];
  /** Per list, its `next`, or for an append-only one how many of its smallest ids the slice took. */
  cursors: number[];
  checkpoints: Map<string, bigint>;
  completes: boolean;
}

/**
 * Read-model documents and checkpoints that this process has applied but not written to the
 * database yet. Only documents derived from committed events enter it, so whatever it holds is
 * true; losing it (a crash) only sends the replay back to the stored checkpoint.
 *
 * Written in two ways: all at once (`everything`), or by a drain spread over several transactions
 * (`slice`): it covers the documents pending when it starts, and its checkpoint is written with its
 * last slice, once every document that checkpoint covers is written (in this version or a newer one).
 *
 * A collection whose documents never change (an immutable projection's) can be held append-only:
 * a list in arrival order that a drain sorts as its slices reach it (DrainOrder). It keeps that mode
 * until it is all written. Both
 * modes read and write each id's newest version held, so either is right for documents that come in
 * revision order per id, as the engine's do.
 */
export class WriteBackOverlay {
  private readonly pending = new Map<string, PendingCollection>();
  /** Documents held in maps (append-only collections count their own). */
  private count = 0;
  private drain: Drain | null = null;
  private inFlight: InFlight | null = null;

  /** Documents waiting to be written (an append-only collection's second copies of an id until a drain drops them). */
  get size(): number {
    let appended = 0;
    for (const entry of this.pending.values()) if (entry.appended) appended += entry.appended.size;
    return this.count + appended;
  }

  get empty(): boolean {
    return this.pending.size === 0;
  }

  get draining(): boolean {
    return this.drain !== null;
  }

  has(collection: string): boolean {
    return this.pending.has(collection);
  }

  get(collection: string, id: string): WriteBackDoc | undefined {
    const entry = this.pending.get(collection);
    return entry?.appended ? entry.appended.byId().get(id) : entry?.docs.get(id);
  }

  /** undefined when the collection has no checkpoint waiting. */
  checkpoint(collection: string): bigint | undefined {
    return this.pending.get(collection)?.checkpoint ?? undefined;
  }

  /**
   * Newer revisions replace older ones; an older one (a replay) is ignored, as the store's guard would.
   * `appendOnly`: the documents are new ids, which a collection first held now keeps in a plain list.
   */
  add(collection: string, docs: readonly WriteBackDoc[], checkpoint: bigint | null, appendOnly = false): void {
    let entry = this.pending.get(collection);
    if (!entry) {
      if (docs.length === 0 && checkpoint === null) return;
      entry = { docs: new Map(), appended: appendOnly ? new AppendedDocs() : null, checkpoint: null };
      this.pending.set(collection, entry);
    }
    if (entry.appended) {
      entry.appended.add(docs);
    } else {
      for (const doc of docs) {
        const current = entry.docs.get(doc.id);
        if (current && current.revision >= doc.revision) continue;
        if (!current) this.count += 1;
        entry.docs.set(doc.id, doc);
      }
    }
    if (checkpoint !== null && (entry.checkpoint === null || checkpoint > entry.checkpoint)) entry.checkpoint = checkpoint;
  }

  /**
   * The collection's pending documents, in no order, as the lists or map values that hold them (for
   * `newestById`). An append-only collection's come without an id index (the one `get` builds): an id
   * that came twice comes twice, and its newest revision is the one that counts. Queries look at every
   * held document anyway and mostly keep a range of ids.
   */
  versions(collection: string): readonly Iterable<WriteBackDoc>[] {
    const entry = this.pending.get(collection);
    if (!entry) return [];
    return entry.appended ? entry.appended.versions() : [entry.docs.values()];
  }

  /** Everything pending; `written` then forgets it (the caller has committed it). */
  everything(): WriteBackSlice {
    this.inFlight = null;
    const slice: WriteBackSlice = { docs: new Map(), checkpoints: new Map() };
    for (const [collection, entry] of this.pending) {
      slice.docs.set(collection, entry.appended ? entry.appended.ascending() : sortById([...entry.docs.values()]));
      if (entry.checkpoint !== null) slice.checkpoints.set(collection, entry.checkpoint);
    }
    return slice;
  }

  written(): void {
    this.pending.clear();
    this.count = 0;
    this.drain = null;
    this.inFlight = null;
  }

  /** Starts a drain of what is pending now. */
  startDrain(): void {
    const lists: Drain['lists'] = [];
    let size = 0;
    for (const [collection, entry] of this.pending) {
      const { appended } = entry;
      let ids: string[] = [];
      if (appended) {
        appended.startDrain();
        size += appended.draining.length;
      } else {
        ids = [...entry.docs.keys()].sort();
        size += ids.length;
      }
      lists.push({ collection, ids, next: 0, appended, checkpoint: entry.checkpoint, checkpointWritten: false });
    }
    this.drain = { lists, size };
    this.inFlight = null;
  }

  /**
   * The drain's next slice, about 1/`parts` of it (at least `minimum` documents): each id in its
   * newest version. Nothing changes until `sliceWritten`; a slice never confirmed is simply taken again.
   */
  slice(parts: number, minimum: number): WriteBackSlice | null {
    this.inFlight = null;
    if (!this.drain) return null;
    let budget = Math.max(minimum, Math.ceil(this.drain.size / parts));
    const slice: WriteBackSlice = { docs: new Map(), checkpoints: new Map() };
    const inFlight: InFlight = { written: [], cursors: [], checkpoints: slice.checkpoints, completes: true };
    for (const list of this.drain.lists) {
      if (list.appended) {
        const { draining } = list.appended;
        const docs = draining.smallest(budget);
        budget -= docs.length;
        inFlight.cursors.push(docs.length);
        if (docs.length > 0) slice.docs.set(list.collection, docs);
        if (draining.length > docs.length) inFlight.completes = false;
        else if (list.checkpoint !== null && !list.checkpointWritten) slice.checkpoints.set(list.collection, list.checkpoint);
        continue;
      }
      let next = list.next;
      const docs: WriteBackDoc[] = [];
      const entry = this.pending.get(list.collection);
      while (next < list.ids.length && budget > 0) {
        // Written since (a full flush), or dropped: nothing to do for it.
        const doc = entry?.docs.get(list.ids[next]);
        if (doc) {
          docs.push(doc);
          inFlight.written.push({ collection: list.collection, doc });
          budget -= 1;
        }
        next += 1;
      }
      inFlight.cursors.push(next);
      if (docs.length > 0) slice.docs.set(list.collection, docs);
      if (next < list.ids.length) inFlight.completes = false;
      // Every document of the list is written with this slice at the latest: its checkpoint goes too.
      else if (list.checkpoint !== null && !list.checkpointWritten) slice.checkpoints.set(list.collection, list.checkpoint);
    }
    this.inFlight = inFlight;
    return slice;
  }

  /** The last slice committed: documents unchanged since leave memory; a finished drain ends. */
  sliceWritten(): void {
    const inFlight = this.inFlight;
    this.inFlight = null;
    if (!inFlight || !this.drain) return;
    for (const { collection, doc } of inFlight.written) {
      const entry = this.pending.get(collection);
      if (entry?.docs.get(doc.id) === doc) {
        entry.docs.delete(doc.id);
        this.count -= 1;
      }
    }
    this.drain.lists.forEach((list, i) => {
      if (list.appended) {
        list.appended.written(inFlight.cursors[i]);
      } else {
        list.next = inFlight.cursors[i];
      }
      if (inFlight.checkpoints.has(list.collection)) list.checkpointWritten = true;
    });
    for (const [collection, checkpoint] of inFlight.checkpoints) {
      const entry = this.pending.get(collection);
      // Nothing newer waits: the stored checkpoint (at least this one) says it all.
      if (entry && heldCount(entry) === 0 && entry.checkpoint === checkpoint) this.pending.delete(collection);
    }
    if (inFlight.completes) this.drain = null;
  }

  discard(collection: string): void {
    const entry = this.pending.get(collection);
    if (!entry) return;
    if (!entry.appended) this.count -= entry.docs.size;
    this.pending.delete(collection);
    if (this.drain) this.drain.lists = this.drain.lists.filter((list) => list.collection !== collection);
    this.inFlight = null;
  }
}

function heldCount(entry: PendingCollection): number {
  return entry.appended ? entry.appended.size : entry.docs.size;
}

function sortById(docs: WriteBackDoc[]): WriteBackDoc[] {
  return docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

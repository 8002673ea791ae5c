import { ReadModelDoc } from '../../core/src/projection';

/**
 * A document to be written later at `revision`: `doc` (null: a delete, that is a tombstone), or, for
 * one that will not change again (an immutable projection's), its JSON alone, which costs the
 * garbage collector less while it waits.
 */
export type WriteBackDoc =
  | { readonly id: string; readonly revision: bigint; readonly doc: ReadModelDoc | null; readonly json?: undefined }
  | { readonly id: string; readonly revision: bigint; readonly doc?: undefined; readonly json: string };

/** The document a WriteBackDoc holds, decoded if need be; null for a delete. */
export function valueOf(doc: WriteBackDoc): ReadModelDoc | null {
  return doc.json === undefined ? doc.doc : (JSON.parse(doc.json) as ReadModelDoc);
}

/**
 * An append-only collection's documents: each a new id, held without a map entry apiece (the cost
 * that matters at one per ping). An id that comes twice (an event applied again) is held twice;
 * reads and drains take its newest version.
 */
class AppendedDocs {
  /** The drain's documents not written yet, each id once, sorted by id from last to first: written ones are cut off the end. */
  draining: WriteBackDoc[] = [];
  /** Arrived since the drain started, in arrival order. */
  private arrived: WriteBackDoc[] = [];
  /** Each id's newest version, for reads only: built when one asks, dropped when the documents change. */
  private index: Map<string, WriteBackDoc> | null = null;

  get size(): number {
    return this.draining.length + this.arrived.length;
  }

  add(docs: readonly WriteBackDoc[]): void {
    for (const doc of docs) this.arrived.push(doc);
    this.index = null;
  }

  byId(): Map<string, WriteBackDoc> {
    if (this.index) return this.index;
    const index = new Map<string, WriteBackDoc>();
    for (const docs of [this.draining, this.arrived]) {
      for (const doc of docs) {
        const current = index.get(doc.id);
        if (!current || doc.revision > current.revision) index.set(doc.id, doc);
      }
    }
    this.index = index;
    return index;
  }

  /** Every document held, each id once (its newest version), sorted by id from last to first. */
  descending(): WriteBackDoc[] {
    const docs = this.draining.concat(this.arrived);
    // An id built by concatenation is a rope, which V8 walks anew at each of the sort's comparisons:
    // reading a character flattens it once (a drain then costs ~40% less per document).
    for (const doc of docs) doc.id.charCodeAt(0);
    docs.sort((a, b) => (a.id > b.id ? -1 : a.id < b.id ? 1 : 0));
    // Equal ids are neighbours now: one sweep keeps the newest of each.
    let kept = 0;
    for (const doc of docs) {
      const last = kept > 0 ? docs[kept - 1] : undefined;
      if (last?.id !== doc.id) docs[kept++] = doc;
      else if (doc.revision > last.revision) docs[kept - 1] = doc;
    }
    docs.length = kept;
    return docs;
  }

  /** A drain covers what is held now, what an earlier one left unwritten included. */
  startDrain(): void {
    this.draining = this.descending();
    this.arrived = [];
    this.index = null;
  }

  /** The drain has written the rest of `draining`: it keeps the first `length`. */
  keep(length: number): void {
    if (length === this.draining.length) return;
    this.draining.length = length;
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
  /** Per list, its `next`, or for an append-only one the length `draining` is cut to. */
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
 * a list in arrival order that a drain sorts once. It keeps that mode until it is all written. Both
 * modes read and write each id's newest version held, so either is right for documents that come in
 * revision order per id, as the engine's do.
 */
export class WriteBackOverlay {
  private readonly pending = new Map<string, PendingCollection>();
  private count = 0;
  private drain: Drain | null = null;
  private inFlight: InFlight | null = null;

  /** Documents waiting to be written (an append-only collection's second copies of an id until a drain drops them). */
  get size(): number {
    return this.count;
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
      this.count += docs.length;
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

  /** The collection's pending documents, each id once, in no order. */
  held(collection: string): Iterable<WriteBackDoc> {
    const entry = this.pending.get(collection);
    return (entry?.appended ? entry.appended.byId() : entry?.docs)?.values() ?? [];
  }

  /** Everything pending; `written` then forgets it (the caller has committed it). */
  everything(): WriteBackSlice {
    this.inFlight = null;
    const slice: WriteBackSlice = { docs: new Map(), checkpoints: new Map() };
    for (const [collection, entry] of this.pending) {
      slice.docs.set(collection, entry.appended ? entry.appended.descending().reverse() : sortById([...entry.docs.values()]));
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
        const held = appended.size;
        appended.startDrain();
        // Less any second copies of an id.
        this.count -= held - appended.size;
        size += appended.size;
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
        // The next documents in key order are at the end.
        const { draining } = list.appended;
        const rest = Math.max(0, draining.length - budget);
        budget -= draining.length - rest;
        inFlight.cursors.push(rest);
        if (rest < draining.length) slice.docs.set(list.collection, draining.slice(rest).reverse());
        if (rest > 0) inFlight.completes = false;
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
        this.count -= list.appended.draining.length - inFlight.cursors[i];
        list.appended.keep(inFlight.cursors[i]);
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
    this.count -= heldCount(entry);
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

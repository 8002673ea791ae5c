import { RecordedEvent } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { EventStore } from '../../event-store/src/event-store.port';
import { ReadStore, StoredDoc } from './read-store.port';
import { WriteBackDoc } from './write-back-overlay';

interface Generation {
  version: number;
  generation: number;
}

interface ProjectionMeta {
  active: Generation;
  building: Generation | null;
  retired: Generation[];
}

/**
 * A put or delete checked and encoded by SyncReadAccess.prepareWriteSync, written later by
 * writeManySync. `doc` is the document's text as the store keeps it (`decodeStoredDoc` reads it back);
 * null makes the write a delete (a tombstone).
 */
export interface PreparedWrite {
  readonly id: string;
  readonly revision: bigint;
  readonly doc: string | null;
}

/** Synchronous access to the embedded read store, used inside the event store's transaction. */
export interface SyncReadAccess {
  getSync(collection: string, id: string): StoredDoc | null;
  /** getSync that may return a shared document: the caller must not change it. */
  peekSync(collection: string, id: string): StoredDoc | null;
  putSync(collection: string, doc: ReadModelDoc, revision: bigint): boolean;
  deleteSync(collection: string, id: string, revision: bigint): boolean;
  /** Checks a put (or, with a null doc, a delete) as putSync/deleteSync would, without writing or encoding it. */
  checkWriteSync(collection: string, id: string, doc: ReadModelDoc | null, revision: bigint): void;
  /** Checks and encodes a put (or, with a null doc, a delete) as putSync/deleteSync would, without writing. */
  prepareWriteSync(collection: string, id: string, doc: ReadModelDoc | null, revision: bigint): PreparedWrite;
  /** Writes what prepareWriteSync prepared, with the same revision guard. */
  writeManySync(collection: string, writes: readonly PreparedWrite[]): void;
  getCheckpointSync(name: string): bigint | null;
  setCheckpointSync(name: string, position: bigint): void;
  getMetaSync<T>(key: string): T | null;
  setMetaSync<T>(key: string, value: T): void;
  transactionSync<T>(fn: () => T): T;
  /**
   * Keeps documents of committed events, and the position they bring the collection to, in memory;
   * written later. `appendOnly`: the documents are new ids that never change (an immutable projection's).
   */
  writeBackSync(collection: string, docs: readonly WriteBackDoc[], checkpoint: bigint | null, appendOnly?: boolean): void;
  /** Writes what writeBackSync keeps, outside any transaction. */
  flushWriteBackSync(): void;
}

export interface EngineLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  generation: number;
  collection: string;
  checkpoint: string | null;
  head: string | null;
  lag: number;
  building: { collection: string; checkpoint: string | null } | null;
}

export type EventListener = (event: RecordedEvent) => void;

/** A document as the inline batch under way leaves it. */
interface BatchDoc {
  doc: ReadModelDoc | null;
  /** Revision `doc` reflects (-1n: not stored and not written yet). */
  revision: bigint;
  /** Set when the batch changed the document. */
  changed: boolean;
  /** The write endInlineBatch makes (write-back collections: null, encoded when written back). */
  write: PreparedWrite | null;
}

/** One change an append made to the batch's documents: the entry it replaced. */
interface UndoEntry {
  docs: Map<string, BatchDoc>;
  id: string;
  before: BatchDoc;
}

const PAGE = 1000;
const META_PREFIX = 'projection:';
/** How long a retired generation stays readable for processes that have not noticed the switch. */
const RETIRE_GRACE_MS = 3000;

function changedDocs(docs: Map<string, BatchDoc> | undefined): WriteBackDoc[] {
  const changed: WriteBackDoc[] = [];
  for (const [id, { changed: yes, revision, doc, write }] of docs ?? []) {
    if (!yes) continue;
    // Encoded already (an immutable projection's): kept as the text its row will hold.
    changed.push(write?.doc ? { id, revision, json: write.doc } : { id, revision, doc });
  }
  return changed;
}

function sameGeneration(a: Generation | null, b: Generation): boolean {
  return a !== null && a.version === b.version && a.generation === b.generation;
}

export function collectionName(projection: string, generation: Generation): string {
  return `${projection}_v${generation.version}_g${generation.generation}`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Applies projections to the read store. Three paths share one `evolve` per projection:
 * inline after an append (inside the SQLite transaction in embedded mode), the daemon that tails the
 * global log from each collection's checkpoint, and rebuilds that fill a new generation beside the
 * serving one and then switch.
 */
export class ProjectionEngine {
  private readonly projections = new Map<string, Projection>();
  private readonly byType = new Map<string, Projection[]>();
  private readonly meta = new Map<string, ProjectionMeta>();
  private readonly listeners: EventListener[] = [];
  private listenerCursor: bigint | null = null;
  private wake: (() => void) | null = null;
  /** The batch's collections, with the checkpoint each had before it. */
  private inlineEligible: { collection: string; projection: Projection; checkpoint: bigint }[] | null = null;
  /** The inline batch's documents by collection and id: each read once, written once, at the batch's end. */
  private inlineDocs = new Map<string, Map<string, BatchDoc>>();
  /** The current append's changes to inlineDocs (applyInline), kept to take them back if it fails. */
  private readonly undo: UndoEntry[] = [];
  /** Write-back collections of the batch under way: their documents and checkpoint go to memory once it commits. */
  private writeBackBatch: { collection: string; docs: WriteBackDoc[]; checkpoint: bigint; appendOnly: boolean }[] = [];
  /** The batch under way: the log head before it, and the events of its appends so far, for the listeners. */
  private listenerBatch: { headBefore: bigint | null; events: RecordedEvent[] } | null = null;
  /** The batch under way applies every projection's serving collection and none is being built. */
  private inlineCoversAll = false;
  private lastMetaRefresh = 0;

  constructor(
    private readonly readStore: ReadStore,
    private readonly eventStore: EventStore,
    projections: Projection[],
    private readonly logger: EngineLogger,
    private readonly sync: SyncReadAccess | null = null,
  ) {
    for (const projection of projections) this.register(projection);
  }

  register(projection: Projection): void {
    if (this.projections.has(projection.name)) throw new Error(`Projection ${projection.name} registered twice`);
    this.projections.set(projection.name, projection);
    for (const type of projection.handles) {
      const list = this.byType.get(type) ?? [];
      list.push(projection);
      this.byType.set(type, list);
    }
  }

  /** Loads or creates each projection's generations; a changed version starts a build beside the old one. */
  async start(): Promise<void> {
    for (const projection of this.projections.values()) {
      const key = META_PREFIX + projection.name;
      let meta = await this.readStore.getMeta<ProjectionMeta>(key);
      if (!meta) {
        meta = { active: { version: projection.version, generation: 1 }, building: null, retired: [] };
        await this.readStore.setMeta(key, meta);
      } else if (meta.active.version !== projection.version && meta.building?.version !== projection.version) {
        meta = { ...meta, building: { version: projection.version, generation: this.nextGeneration(meta) } };
        await this.readStore.setMeta(key, meta);
        this.logger.info('projection version changed, building a new generation', { projection: projection.name });
      }
      await this.ensureCollections(projection, meta);
      this.meta.set(projection.name, meta);
    }
    this.listenerCursor = await this.eventStore.headPosition();
    this.inlineEligible = null;
  }

  /** Whether a new generation of any projection is being built (the daemon's work, never inline). */
  private building(): boolean {
    for (const meta of this.meta.values()) if (meta.building) return true;
    return false;
  }

  /** The collection that serves reads of a projection now. */
  collection(name: string): string {
    const meta = this.meta.get(name);
    if (!meta) throw new Error(`Unknown projection ${name}`);
    return collectionName(name, meta.active);
  }

  projectionNames(): string[] {
    return [...this.projections.keys()];
  }

  /** Listeners see every event once, in log order, shortly after it is committed (in-process caches). */
  onEvent(listener: EventListener): void {
    this.listeners.push(listener);
  }

  // ---- inline, embedded: called by the SQLite event store inside its transaction ----

  /**
   * Starts a group-commit batch. Only collections whose checkpoint equals the log head before the
   * batch are applied inline; one that lags (or is being built) is left to the daemon, because
   * applying a newer event first would make the revision guard skip the older ones.
   */
  beginInlineBatch(headBefore: bigint | null): void {
    if (!this.sync) return;
    const sync = this.sync;
    this.listenerBatch = this.listeners.length > 0 ? { headBefore, events: [] } : null;
    // Whatever a batch that failed before its end left behind was rolled back with it.
    this.inlineDocs = new Map();
    this.writeBackBatch = [];
    this.refreshMetaSyncIfStale();
    const head = headBefore ?? 0n;
    this.inlineEligible = [];
    for (const projection of this.projections.values()) {
      const collection = this.collection(projection.name);
      const checkpoint = sync.getCheckpointSync(collection) ?? 0n;
      if (projection.writeBack && checkpoint < head) {
        // Its documents live in this process's memory, which other processes' appends never reach:
        // the batch first applies what they appended since (committed events, so never undone).
        try {
          this.catchUpInBatch(projection, collection, checkpoint, head);
        } catch (error) {
          // A projection that fails on those events is the daemon's to report; this batch leaves it alone.
          this.inlineDocs.delete(collection);
          continue;
        }
      } else if (checkpoint !== head) {
        continue;
      }
      this.inlineEligible.push({ collection, projection, checkpoint });
    }
    this.inlineCoversAll = this.inlineEligible.length === this.projections.size && !this.building();
  }

  /**
   * Applies one append's events to the batch's documents in memory (write-behind: the batch writes
   * each changed document once, in endInlineBatch), writing nothing to the database, as the event
   * store's hook must. If a projection throws, its changes are undone here and the store takes the
   * append's events back: neither joins the batch.
   */
  applyInline(events: RecordedEvent[]): void {
    if (!this.sync) return;
    const eligible = this.inlineEligible ?? [];
    const undo = this.undo;
    undo.length = 0;
    try {
      for (const event of events) {
        const projections = this.byType.get(event.type);
        if (!projections) continue;
        for (const { collection, projection } of eligible) {
          if (projections.includes(projection)) this.evolveInto(projection, collection, event, this.batchDocs(collection), undo);
        }
      }
    } catch (error) {
      // Back to the batch's documents as they were before this append, newest change first.
      for (let i = undo.length - 1; i >= 0; i--) {
        const { docs, id, before } = undo[i];
        docs.set(id, before);
      }
      undo.length = 0;
      throw error;
    }
    undo.length = 0;
    // Only once every projection took the events: an append that throws never reaches the listeners.
    this.listenerBatch?.events.push(...events);
  }

  endInlineBatch(headAfter: bigint | null): void {
    if (!this.sync || !this.inlineEligible) return;
    // Every collection with documents in the batch is eligible (catchUpInBatch drops those it could not bring along).
    for (const { collection, projection, checkpoint } of this.inlineEligible) {
      const docs = this.inlineDocs.get(collection);
      if (projection.writeBack) {
        if (headAfter === null) continue;
        const changed = changedDocs(docs);
        // A transaction without appends (one that carries written-back documents) moves nothing.
        if (changed.length > 0 || headAfter !== checkpoint) {
          this.writeBackBatch.push({ collection, docs: changed, checkpoint: headAfter, appendOnly: projection.immutable === true });
        }
        continue;
      }
      const writes: PreparedWrite[] = [];
      for (const doc of docs?.values() ?? []) if (doc.write) writes.push(doc.write);
      // In key order: neighbouring documents share pages.
      writes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (writes.length > 0) this.sync.writeManySync(collection, writes);
      if (headAfter !== null) this.sync.setCheckpointSync(collection, headAfter);
    }
    this.inlineDocs = new Map();
    this.inlineEligible = null;
  }

  /**
   * Called once the batch has committed: its write-back documents join this process's memory, and
   * listeners get its events from memory when they have seen everything before them (the log head
   * before the batch); otherwise the daemon feeds them from the log, in order, as before.
   */
  commitInlineBatch(): void {
    if (!this.sync) return;
    const committed = this.writeBackBatch;
    this.writeBackBatch = [];
    for (const { collection, docs, checkpoint, appendOnly } of committed) this.sync.writeBackSync(collection, docs, checkpoint, appendOnly);
    const batch = this.listenerBatch;
    this.listenerBatch = null;
    const hasEvents = batch !== null && batch.events.length > 0;
    const delivered = hasEvents && batch.headBefore === this.listenerCursor;
    if (delivered) this.deliver(batch.events);
    // The daemon is woken only when the batch left it something: a collection it did not apply (lagging,
    // or a generation being built), or events the listeners did not get. Otherwise a wake after every
    // batch (hundreds a second under pings) only had it read every collection's checkpoint to find them
    // at the head. Anything it is not woken for it still finds on its next idle poll.
    if (!this.inlineCoversAll || (hasEvents && !delivered)) this.wake?.();
  }

  // ---- inline, production: after the append, from the stream's whole history ----

  /**
   * Recomputes the documents the new events touch from the stream's full history, so the result is
   * right even if another instance's events have not been applied yet. Without the history (hot
   * paths that do not read their stream) the daemon applies the events shortly after.
   */
  async applyAfterAppend(history: RecordedEvent[] | null, appended: RecordedEvent[]): Promise<void> {
    // Embedded: the append's batch has applied it and woken the daemon if it left anything (commitInlineBatch).
    if (this.sync) return;
    this.wake?.();
    if (history === null || appended.length === 0) return;
    const all = [...history, ...appended];
    const touched = new Map<Projection, Set<string>>();
    for (const event of appended) {
      for (const projection of this.byType.get(event.type) ?? []) {
        const ids = touched.get(projection) ?? new Set<string>();
        for (const id of projection.ids(event)) ids.add(id);
        touched.set(projection, ids);
      }
    }
    for (const [projection, ids] of touched) {
      const collection = this.collection(projection.name);
      for (const id of ids) {
        let doc: ReadModelDoc | null = null;
        let revision = -1n;
        for (const event of all) {
          if (!projection.handles.includes(event.type) || !projection.ids(event).includes(id)) continue;
          doc = projection.evolve(doc, event, id);
          revision = event.revision;
        }
        if (revision < 0n) continue;
        if (doc) await this.readStore.put(collection, doc, revision);
        else await this.readStore.delete(collection, id, revision);
      }
    }
  }

  // ---- daemon ----

  /** Applies everything between each collection's checkpoint and the log head. Returns events applied. */
  async catchUp(): Promise<number> {
    // Collections (and listeners) already at the head read nothing: the daemon wakes after every batch.
    const head = await this.eventStore.headPosition();
    let applied = 0;
    for (const projection of this.projections.values()) {
      const meta = this.meta.get(projection.name)!;
      for (const generation of [meta.active, meta.building]) {
        if (generation) applied += await this.catchUpCollection(projection, collectionName(projection.name, generation), head);
      }
    }
    if (head !== null && this.listenerCursor !== head) await this.notifyListeners();
    return applied;
  }

  /** Tails the log until the signal aborts: applies what inline missed, finishes builds, feeds listeners. */
  async run(signal: AbortSignal, idleMs = 200): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.refreshMeta();
        const applied = await this.catchUp();
        await this.finishBuilds();
        if (applied === 0) await this.idle(idleMs, signal);
      } catch (error) {
        this.logger.error('projection daemon failed, retrying', { error: String(error) });
        await sleep(1000, signal);
      }
    }
  }

  /**
   * Without the daemon (an API instance beside a worker): still follows generation switches made
   * elsewhere (a CLI rebuild, the worker finishing a new version) well before the retired one is dropped.
   */
  async followGenerations(signal: AbortSignal, intervalMs = 500): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.refreshMeta();
      } catch (error) {
        this.logger.error('projection generations could not be refreshed, retrying', { error: String(error) });
      }
      await sleep(intervalMs, signal);
    }
  }

  // ---- rebuild ----

  /** Fills a new generation of each named projection from position 0 while the old one serves, then switches. */
  async rebuild(names: string[] = this.projectionNames(), progress?: (name: string, applied: number) => void): Promise<void> {
    for (const name of names) if (!this.projections.has(name)) throw new Error(`Unknown projection ${name}`);
    const retired: string[] = [];
    for (const name of names) {
      const projection = this.projections.get(name)!;
      const key = META_PREFIX + name;
      const meta = (await this.readStore.getMeta<ProjectionMeta>(key)) ?? this.meta.get(name)!;
      const building = { version: projection.version, generation: this.nextGeneration(meta) };
      const collection = collectionName(name, building);
      await this.readStore.ensureCollection({ name: collection, indexes: projection.indexes, sortField: projection.sortField });
      await this.readStore.setMeta(key, { ...meta, building });
      const applied = await this.catchUpCollection(projection, collection);
      progress?.(name, applied);
      // The last stretch and the switch happen together so no event lands in between.
      const switched = await this.switchWhenCaughtUp(projection, building);
      retired.push(...switched);
    }
    if (retired.length > 0) {
      await sleep(RETIRE_GRACE_MS);
      for (const collection of retired) await this.readStore.dropCollection(collection);
    }
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.eventStore.headPosition();
    const out: ProjectionStatus[] = [];
    for (const projection of this.projections.values()) {
      const meta = (await this.readStore.getMeta<ProjectionMeta>(META_PREFIX + projection.name)) ?? this.meta.get(projection.name)!;
      const collection = collectionName(projection.name, meta.active);
      const checkpoint = await this.readStore.getCheckpoint(collection);
      const building = meta.building ? collectionName(projection.name, meta.building) : null;
      out.push({
        name: projection.name,
        version: meta.active.version,
        generation: meta.active.generation,
        collection,
        checkpoint: checkpoint?.toString() ?? null,
        head: head?.toString() ?? null,
        lag: Number((head ?? 0n) - (checkpoint ?? 0n)),
        building: building ? { collection: building, checkpoint: (await this.readStore.getCheckpoint(building))?.toString() ?? null } : null,
      });
    }
    return out;
  }

  /** True when every serving collection has applied the whole log. */
  async caughtUp(): Promise<boolean> {
    return (await this.status()).every((s) => s.lag <= 0);
  }

  // ---- internals ----

  private nextGeneration(meta: ProjectionMeta): number {
    return Math.max(meta.active.generation, meta.building?.generation ?? 0, ...meta.retired.map((g) => g.generation)) + 1;
  }

  private async ensureCollections(projection: Projection, meta: ProjectionMeta): Promise<void> {
    for (const generation of [meta.active, meta.building]) {
      if (!generation) continue;
      await this.readStore.ensureCollection({
        name: collectionName(projection.name, generation),
        indexes: projection.indexes,
        sortField: projection.sortField,
      });
    }
  }

  /** `head`, when given, is a log head read just before: a collection at it has nothing to read. */
  private async catchUpCollection(projection: Projection, collection: string, head?: bigint | null): Promise<number> {
    let checkpoint = await this.readStore.getCheckpoint(collection);
    if (head !== undefined && (head === null || (checkpoint !== null && checkpoint >= head))) return 0;
    let applied = 0;
    for (;;) {
      const page = await this.eventStore.readAll({ after: checkpoint ?? undefined, maxCount: PAGE });
      if (page.length === 0) return applied;
      const last = page[page.length - 1].position;
      if (this.sync && projection.writeBack && collection === this.collection(projection.name)) {
        // The serving collection of a write-back projection: to memory, beside what inline batches keep there.
        this.applyWriteBack(projection, collection, page);
      } else if (this.sync) {
        const sync = this.sync;
        sync.transactionSync(() => {
          // Another process (or the inline path) may have moved the checkpoint meanwhile.
          const current = sync.getCheckpointSync(collection);
          for (const event of page) {
            if (current !== null && event.position <= current) continue;
            if (projection.handles.includes(event.type)) this.applySync(projection, collection, event);
          }
          if (current === null || current < last) sync.setCheckpointSync(collection, last);
        });
      } else {
        for (const event of page) {
          if (projection.handles.includes(event.type)) await this.applyAsync(projection, collection, event);
        }
        await this.readStore.setCheckpoint(collection, last);
      }
      applied += page.length;
      checkpoint = last;
    }
  }

  private batchDocs(collection: string): Map<string, BatchDoc> {
    let docs = this.inlineDocs.get(collection);
    if (!docs) {
      docs = new Map();
      this.inlineDocs.set(collection, docs);
    }
    return docs;
  }

  /** Stages the committed events in (from, to] into the batch, so a write-back collection starts it at the head. */
  private catchUpInBatch(projection: Projection, collection: string, from: bigint, to: bigint): void {
    const readAllSync = this.readAllSync();
    const docs = this.batchDocs(collection);
    for (let after = from; after < to; ) {
      const page = readAllSync(after, PAGE);
      if (page.length === 0) break;
      for (const event of page) {
        if (event.position > to) break;
        // Committed events: nothing to roll back, so they change the batch's documents directly.
        if (projection.handles.includes(event.type)) this.evolveInto(projection, collection, event, docs, null);
      }
      after = page[page.length - 1].position;
    }
  }

  /** The daemon's catch-up of a write-back collection: applied to memory at once, from the documents there. */
  private applyWriteBack(projection: Projection, collection: string, page: RecordedEvent[]): void {
    const sync = this.sync!;
    const current = sync.getCheckpointSync(collection);
    const docs = new Map<string, BatchDoc>();
    for (const event of page) {
      if ((current !== null && event.position <= current) || !projection.handles.includes(event.type)) continue;
      this.evolveInto(projection, collection, event, docs, null);
    }
    const last = page[page.length - 1].position;
    sync.writeBackSync(collection, changedDocs(docs), current === null || current < last ? last : null, projection.immutable === true);
  }

  /**
   * applySync on documents in memory: the same revision guard, the same puts and deletes, deferred.
   * Documents are looked up in `docs`, where what the store holds is added as it is first read
   * (reading changes nothing). With `undo`, each change records the entry it replaced, so that an
   * append whose projections throw can be taken back out of the batch (applyInline).
   */
  private evolveInto(projection: Projection, collection: string, event: RecordedEvent, docs: Map<string, BatchDoc>, undo: UndoEntry[] | null): void {
    const sync = this.sync!;
    for (const id of projection.ids(event)) {
      let current = docs.get(id);
      // A document read now is kept in `docs` once: as read when nothing changes it, else as changed below.
      const read = current === undefined;
      if (!current) {
        const stored = projection.immutable ? null : sync.peekSync(collection, id);
        current = { doc: stored?.doc ?? null, revision: stored?.revision ?? -1n, changed: false, write: null };
      }
      if (current.doc && current.revision >= event.revision) {
        if (read) docs.set(id, current);
        continue;
      }
      const next = projection.evolve(current.doc, event, id);
      if (!next && !current.doc) {
        if (read) docs.set(id, current);
        continue;
      }
      // Checked (and encoded) now, so a bad document fails this append, not the batch. Written-back
      // documents are encoded once, when written: most versions of them never are.
      const encodeLater = projection.writeBack && !projection.immutable;
      if (encodeLater) sync.checkWriteSync(collection, id, next, event.revision);
      const write = encodeLater ? null : sync.prepareWriteSync(collection, id, next, event.revision);
      undo?.push({ docs, id, before: current });
      docs.set(id, { doc: next, revision: event.revision, changed: true, write });
    }
  }

  private applySync(projection: Projection, collection: string, event: RecordedEvent): void {
    const sync = this.sync!;
    for (const id of projection.ids(event)) {
      const stored = sync.getSync(collection, id);
      if (stored && stored.revision >= event.revision) continue;
      const next = projection.evolve(stored?.doc ?? null, event, id);
      if (next) sync.putSync(collection, next, event.revision);
      else if (stored) sync.deleteSync(collection, id, event.revision);
    }
  }

  private async applyAsync(projection: Projection, collection: string, event: RecordedEvent): Promise<void> {
    for (const id of projection.ids(event)) {
      const stored = await this.readStore.get(collection, id);
      if (stored && stored.revision >= event.revision) continue;
      const next = projection.evolve(stored?.doc ?? null, event, id);
      if (next) await this.readStore.put(collection, next, event.revision);
      else if (stored) await this.readStore.delete(collection, id, event.revision);
    }
  }

  /** Switches a caught-up build to active. Returns collections retired by the switch. */
  private async switchWhenCaughtUp(projection: Projection, building: Generation): Promise<string[]> {
    const key = META_PREFIX + projection.name;
    const collection = collectionName(projection.name, building);
    if (this.sync) {
      const sync = this.sync;
      // Direct writes below must not meet documents still waiting in memory.
      sync.flushWriteBackSync();
      return sync.transactionSync(() => {
        // Inside one write transaction no other writer can append, so the switch sees the true head.
        this.catchUpSync(projection, collection);
        const { next, retired } = this.switched(projection.name, sync.getMetaSync<ProjectionMeta>(key)!, building);
        sync.setMetaSync(key, next);
        if (!sameGeneration(next.active, building)) this.catchUpSync(projection, collectionName(projection.name, next.active));
        this.meta.set(projection.name, next);
        return retired;
      });
    }
    await this.catchUpCollection(projection, collection);
    const { next, retired } = this.switched(projection.name, (await this.readStore.getMeta<ProjectionMeta>(key))!, building);
    await this.readStore.setMeta(key, next);
    if (!sameGeneration(next.active, building)) await this.catchUpCollection(projection, collectionName(projection.name, next.active));
    this.meta.set(projection.name, next);
    return retired;
  }

  /**
   * The stored meta once `building` is switched in, and the collections that retires. Another process
   * (a CLI rebuild, another instance finishing the same upgrade) may have switched it already or
   * replaced it: then what is stored stands, because switching again would retire, and later drop,
   * the generation that serves.
   */
  private switched(name: string, meta: ProjectionMeta, building: Generation): { next: ProjectionMeta; retired: string[] } {
    if (!sameGeneration(meta.building, building)) {
      const orphaned = !sameGeneration(meta.active, building);
      return { next: meta, retired: orphaned ? [collectionName(name, building)] : [] };
    }
    return {
      next: { active: building, building: null, retired: [...meta.retired, meta.active] },
      retired: [collectionName(name, meta.active)],
    };
  }

  /** Builds started at boot (a version change) switch once caught up. */
  private async finishBuilds(): Promise<void> {
    for (const projection of this.projections.values()) {
      const meta = this.meta.get(projection.name)!;
      if (!meta.building) continue;
      const head = await this.eventStore.headPosition();
      const checkpoint = await this.readStore.getCheckpoint(collectionName(projection.name, meta.building));
      if ((checkpoint ?? 0n) < (head ?? 0n)) continue;
      const retired = await this.switchWhenCaughtUp(projection, meta.building);
      this.logger.info('projection build finished', { projection: projection.name, retired });
      setTimeout(() => {
        for (const collection of retired) void this.readStore.dropCollection(collection).catch(() => undefined);
      }, RETIRE_GRACE_MS).unref();
    }
  }

  /** Picks up generations switched by another process (a CLI rebuild); catches the new one up before serving it. */
  private async refreshMeta(): Promise<void> {
    if (Date.now() - this.lastMetaRefresh < 1000) return;
    this.lastMetaRefresh = Date.now();
    if (this.sync) return this.refreshMetaSync();
    for (const projection of this.projections.values()) {
      const stored = await this.readStore.getMeta<ProjectionMeta>(META_PREFIX + projection.name);
      const known = this.meta.get(projection.name)!;
      if (!stored || JSON.stringify(stored) === JSON.stringify(known)) continue;
      await this.ensureCollections(projection, stored);
      if (stored.active.generation !== known.active.generation || stored.active.version !== known.active.version) {
        await this.catchUpCollection(projection, collectionName(projection.name, stored.active));
      }
      this.meta.set(projection.name, stored);
    }
  }

  private refreshMetaSyncIfStale(): void {
    if (!this.sync || Date.now() - this.lastMetaRefresh < 1000) return;
    this.lastMetaRefresh = Date.now();
    this.refreshMetaSync();
  }

  /** Embedded: the catch-up of a newly active generation and the switch of reads happen in one transaction. */
  private refreshMetaSync(): void {
    const sync = this.sync!;
    sync.transactionSync(() => {
      for (const projection of this.projections.values()) {
        const stored = sync.getMetaSync<ProjectionMeta>(META_PREFIX + projection.name);
        const known = this.meta.get(projection.name)!;
        if (!stored || JSON.stringify(stored) === JSON.stringify(known)) continue;
        if (stored.active.generation !== known.active.generation || stored.active.version !== known.active.version) {
          this.catchUpSync(projection, collectionName(projection.name, stored.active));
        }
        this.meta.set(projection.name, stored);
      }
    });
  }

  private catchUpSync(projection: Projection, collection: string): void {
    const sync = this.sync!;
    const readAllSync = this.readAllSync();
    for (;;) {
      const checkpoint = sync.getCheckpointSync(collection);
      const page = readAllSync(checkpoint, PAGE);
      if (page.length === 0) return;
      for (const event of page) if (projection.handles.includes(event.type)) this.applySync(projection, collection, event);
      sync.setCheckpointSync(collection, page[page.length - 1].position);
    }
  }

  private readAllSync(): (after: bigint | null, max: number) => RecordedEvent[] {
    const store = this.eventStore as unknown as { readAllSync?: (after: bigint | null, max: number) => RecordedEvent[] };
    if (!store.readAllSync) throw new Error('the embedded projection engine needs a synchronous event store');
    return store.readAllSync.bind(this.eventStore);
  }

  private async notifyListeners(): Promise<void> {
    if (this.listeners.length === 0) return;
    for (;;) {
      const page = await this.eventStore.readAll({ after: this.listenerCursor ?? undefined, maxCount: PAGE });
      if (page.length === 0) return;
      this.deliver(page);
    }
  }

  /** Feeds listeners the events after their cursor, in order, and moves it. */
  private deliver(events: RecordedEvent[]): void {
    for (const event of events) {
      if (this.listenerCursor !== null && event.position <= this.listenerCursor) continue;
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          this.logger.error('event listener failed', { error: String(error), type: event.type });
        }
      }
      this.listenerCursor = event.position;
    }
  }

  private idle(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}

import { sleep } from '../../core/src/sleep';
import { DomainEvent, RecordedEvent } from '../../core/src/event';
import { Collection, Projection, ReadModelDoc } from '../../core/src/projection';
import { EventStore } from '../../event-store/src/event-store.port';
import { applyEvents, foldFrom, touchedIds } from './projection-fold';
import { collectionName, Generation, META_MAX_AGE_MS, META_PREFIX, META_REFRESH_MS, nextGeneration, ProjectionMeta, RETIRE_GRACE_MS, SWITCH_GRACE_MS } from './projection-generations';
import { DocWrite, ReadStore, StoredDoc } from './read-store.port';
import { projectionStatus, ProjectionStatus } from './projection-status';
import { PAGE, StreamSource } from './stream-source';

/** The synchronous reads and writes inline projections make inside the embedded append transaction. */
export interface InlineAccess {
  getMany(collection: string, ids: string[]): StoredDoc[];
  writeMany(collection: string, writes: readonly DocWrite[]): void;
  /** Every stored checkpoint, by name: one read per batch. */
  checkpoints(): Map<string, bigint>;
  /** Moves the checkpoints `names` to `position` in one write. */
  setCheckpoints(names: readonly string[], position: bigint): void;
}

export interface EngineLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Runs projections: inline in the embedded append (`inline`), after an append elsewhere (`applyAfterAppend`), and as the
 * daemon applying whatever a checkpoint is behind on. A rebuild fills a new generation, then switches reads to it. */
export class ProjectionEngine {
  private readonly projections = new Map<string, Projection>();
  private readonly meta = new Map<string, ProjectionMeta>();
  /** Serving collections at the log head when the batch under way began: the ones it applies. */
  private inlineBatch: { projection: Projection; collection: string }[] = [];
  private lastMetaRefresh = 0;
  /** Per projection, when the generations this process knows were read from the store. */
  private readonly metaReadAt = new Map<string, number>();
  /** Per projection, the building generation this process knows and since when. */
  private readonly buildingSince = new Map<string, { key: string; since: number }>();
  private wake: (() => void) | null = null;

  constructor(
    private readonly readStore: ReadStore,
    private readonly eventStore: EventStore,
    projections: Projection[],
    private readonly logger: EngineLogger,
    private readonly access: InlineAccess | null = null,
  ) {
    for (const projection of projections) this.register(projection);
  }

  register(projection: Projection): void {
    if (this.projections.has(projection.name)) throw new Error(`Projection ${projection.name} registered twice`);
    this.projections.set(projection.name, projection);
  }

  /** Loads or creates each projection's generation; a changed version starts a build beside the serving one. */
  async start(): Promise<void> {
    for (const projection of this.projections.values()) {
      const key = META_PREFIX + projection.name;
      const readAt = Date.now();
      let meta = await this.readStore.getMeta<ProjectionMeta>(key);
      if (!meta) {
        meta = { active: { version: projection.version, generation: 1 }, building: null };
        await this.readStore.setMeta(key, meta);
      } else if (meta.active.version !== projection.version && meta.building?.version !== projection.version) {
        meta = { ...meta, building: { version: projection.version, generation: nextGeneration(meta) } };
        await this.readStore.setMeta(key, meta);
        this.logger.info('projection version changed, building a new generation', { projection: projection.name });
      }
      await this.ensureCollections(projection, meta);
      this.meta.set(projection.name, meta);
      this.noteGenerations(projection.name, readAt);
    }
  }

  /** The collection that serves reads of a projection now; given the projection itself, a handle typed with its documents. */
  collection<Doc extends ReadModelDoc, E extends DomainEvent>(projection: Projection<Doc, E>): Collection<Doc>;
  collection(projection: string): string;
  collection(projection: string | Projection): string {
    const name = typeof projection === 'string' ? projection : projection.name;
    const meta = this.meta.get(name);
    if (!meta) throw new Error(`Unknown projection ${name}`);
    return collectionName(name, meta.active);
  }

  projectionNames(): string[] {
    return [...this.projections.keys()];
  }

  /** The embedded event store's hooks (see SqliteEventStore): documents commit with their events. */
  readonly inline = {
    begin: (head: bigint | null): void => {
      const access = this.access!;
      // A collection behind the head is the daemon's: applying newer events first would skip older ones.
      this.inlineBatch = [];
      const checkpoints = access.checkpoints();
      for (const projection of this.projections.values()) {
        const collection = this.collection(projection);
        if ((checkpoints.get(collection) ?? null) === head) this.inlineBatch.push({ projection, collection });
      }
    },
    apply: (events: RecordedEvent[]): void => {
      const access = this.access!;
      for (const { projection, collection } of this.inlineBatch) {
        const ids = touchedIds(projection, events);
        if (ids.length === 0) continue;
        access.writeMany(collection, applyEvents(projection, events, access.getMany(collection, ids)));
      }
    },
    end: (head: bigint | null): void => {
      if (head !== null && this.inlineBatch.length > 0) this.access!.setCheckpoints(this.inlineBatch.map(({ collection }) => collection), head);
      // The daemon is woken only when the batch left a collection behind.
      if (this.inlineBatch.length < this.projections.size) this.wake?.();
      this.inlineBatch = [];
    },
  };

  /**
   * Called by the command runner after every append (read-your-writes without the daemon). Embedded:
   * applied inline already. Elsewhere each document the appended events touch is brought up to date in
   * every generation that serves or will serve: read, then folded from its own revision — the events
   * between it and the append come from `history` (what the command read) or a short stream read, so
   * a snapshot-loaded write never reads the stream's whole history. Writes are revision-guarded, so the
   * daemon applying the same events at the same time changes nothing.
   */
  async applyAfterAppend(history: RecordedEvent[] | null, appended: RecordedEvent[]): Promise<void> {
    if (this.access) return;
    this.wake?.();
    if (appended.length === 0) return;
    const source = new StreamSource(this.eventStore, appended[0].stream, appended[0].revision, history ?? []);
    const targets: { projection: Projection; collection: string; ids: string[]; building: boolean }[] = [];
    for (const projection of this.projections.values()) {
      const ids = touchedIds(projection, appended);
      if (ids.length === 0) continue;
      // A generation switched elsewhere must be known before writing: the switch waits SWITCH_GRACE_MS for this.
      if (Date.now() - (this.metaReadAt.get(projection.name) ?? 0) > META_MAX_AGE_MS) await this.refreshProjectionMeta(projection);
      const meta = this.meta.get(projection.name)!;
      for (const generation of [meta.active, meta.building]) {
        if (generation) targets.push({ projection, collection: collectionName(projection.name, generation), ids, building: generation !== meta.active });
      }
    }
    if (targets.length === 0) return;
    // One read and one write for every read model the append touches: a round trip each on MongoDB.
    const stored = await this.readStore.getManyOf(targets.map(({ collection, ids }) => ({ collection, ids })));
    const writes = await Promise.all(targets.map((target, i) => this.foldOnto(target.projection, target.collection, target.ids, stored[i], appended, source, target.building)));
    await this.readStore.writeAll(targets.map(({ collection }, i) => ({ collection, writes: writes[i] })).filter((batch) => batch.writes.length > 0));
  }

  /**
   * The writes bringing documents `ids` of one collection (`stored`: those found) up to `appended`. A
   * document reflecting an older revision is folded on from there; an absent one is new only as far as
   * the collection's checkpoint says the stream's earlier events were applied, and the rest of them are
   * folded in first. A building generation far behind is left to its builder, which reaches these events anyway.
   */
  private async foldOnto(projection: Projection, collection: string, ids: string[], stored: StoredDoc[], appended: RecordedEvent[], source: StreamSource, building: boolean): Promise<DocWrite[]> {
    const first = appended[0].revision;
    const start = new Map<string, { doc: ReadModelDoc | null; revision: bigint }>();
    const take = (docs: StoredDoc[]) => {
      for (const { doc, revision } of docs) start.set(doc.id, { doc, revision });
    };
    take(stored);
    let absent = ids.filter((id) => !start.has(id));
    if (absent.length > 0) {
      if (first === 0n) {
        for (const id of absent) start.set(id, { doc: null, revision: -1n });
      } else {
        // The checkpoint first, then the documents again: one the daemon wrote before its checkpoint moved is then seen.
        const checkpoint = (await this.readStore.getCheckpoint(collection)) ?? -1n;
        take(await this.readStore.getMany(collection, absent));
        absent = absent.filter((id) => !start.has(id));
        if (absent.length > 0) {
          const floor = await source.lastAppliedRevision(checkpoint, building ? PAGE : Infinity);
          if (floor === null) return [];
          for (const id of absent) start.set(id, { doc: null, revision: floor });
        }
      }
    }
    let from = first;
    for (const { revision } of start.values()) if (revision + 1n < from) from = revision + 1n;
    if (building && first - from > BigInt(PAGE)) return [];
    const events = from < first ? [...(await source.range(from)), ...appended] : appended;
    return foldFrom(projection, start, events);
  }

  /** Applies everything between each collection's checkpoint and the log head, reading the log once. Returns events read. */
  async catchUp(): Promise<number> {
    const targets: { projection: Projection; collection: string; checkpoint: bigint }[] = [];
    for (const projection of this.projections.values()) {
      const meta = this.meta.get(projection.name)!;
      for (const generation of [meta.active, meta.building]) {
        if (!generation) continue;
        const collection = collectionName(projection.name, generation);
        targets.push({ projection, collection, checkpoint: (await this.readStore.getCheckpoint(collection)) ?? 0n });
      }
    }
    let after = targets.reduce((min, t) => (t.checkpoint < min ? t.checkpoint : min), 2n ** 63n);
    let read = 0;
    for (;;) {
      const page = await this.eventStore.readAll({ after, maxCount: PAGE });
      if (page.length === 0) return read;
      after = page[page.length - 1].position;
      for (const target of targets) {
        if (target.checkpoint >= after) continue;
        await this.applyPage(target.projection, target.collection, page.filter((event) => event.position > target.checkpoint));
        target.checkpoint = after;
      }
      read += page.length;
    }
  }

  /** The daemon: tails the log until the signal aborts, applying what inline did not and finishing builds. */
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

  /** Without the daemon (an API instance beside a worker): follows generation switches made elsewhere. */
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

  /** Fills a new generation of each named projection from the log's start while the old one serves, then switches. */
  async rebuild(names: string[] = this.projectionNames(), progress?: (name: string, applied: number) => void): Promise<void> {
    for (const name of names) if (!this.projections.has(name)) throw new Error(`Unknown projection ${name}`);
    // All builds are published first, so the switch grace is waited once, not once per projection.
    const builds: { projection: Projection; building: Generation }[] = [];
    for (const name of names) {
      const projection = this.projections.get(name)!;
      const meta = (await this.readStore.getMeta<ProjectionMeta>(META_PREFIX + name)) ?? this.meta.get(name)!;
      const building = { version: projection.version, generation: nextGeneration(meta) };
      await this.readStore.ensureCollection({ name: collectionName(name, building), indexes: projection.indexes, sortField: projection.sortField });
      await this.readStore.setMeta(META_PREFIX + name, { ...meta, building });
      builds.push({ projection, building });
    }
    const published = Date.now();
    for (const { projection, building } of builds) progress?.(projection.name, await this.catchUpCollection(projection, collectionName(projection.name, building)));
    // Writers elsewhere learn of the building generations within META_MAX_AGE_MS and apply to them from then on.
    await sleep(SWITCH_GRACE_MS - (Date.now() - published));
    const retired: string[] = [];
    for (const { projection, building } of builds) retired.push(...(await this.switchTo(projection, building)));
    if (retired.length > 0) {
      await sleep(RETIRE_GRACE_MS);
      for (const collection of retired) await this.readStore.dropCollection(collection);
    }
  }

  async status(): Promise<ProjectionStatus[]> {
    return projectionStatus(this.readStore, this.eventStore, [...this.projections.values()], (name) => this.meta.get(name)!);
  }

  /** True when every serving collection has applied the whole log. */
  async caughtUp(): Promise<boolean> {
    return (await this.status()).every((s) => s.lag <= 0);
  }

  private async catchUpCollection(projection: Projection, collection: string): Promise<number> {
    let applied = 0;
    for (;;) {
      const page = await this.eventStore.readAll({ after: (await this.readStore.getCheckpoint(collection)) ?? undefined, maxCount: PAGE });
      if (page.length === 0) return applied;
      await this.applyPage(projection, collection, page);
      applied += page.length;
    }
  }

  /** Applies a page of the log to one collection and moves its checkpoint to the page's end. */
  private async applyPage(projection: Projection, collection: string, page: RecordedEvent[]): Promise<void> {
    const ids = touchedIds(projection, page);
    if (ids.length > 0) await this.readStore.writeMany(collection, applyEvents(projection, page, await this.readStore.getMany(collection, ids)));
    await this.readStore.setCheckpoint(collection, page[page.length - 1].position);
  }

  private async ensureCollections(projection: Projection, meta: ProjectionMeta): Promise<void> {
    for (const generation of [meta.active, meta.building]) {
      if (generation) await this.readStore.ensureCollection({ name: collectionName(projection.name, generation), indexes: projection.indexes, sortField: projection.sortField });
    }
  }

  /** Builds started at boot (a version change) switch once caught up. */
  private async finishBuilds(): Promise<void> {
    for (const projection of this.projections.values()) {
      const building = this.meta.get(projection.name)!.building;
      if (!building) continue;
      if (Date.now() - (this.buildingSince.get(projection.name)?.since ?? 0) < SWITCH_GRACE_MS) continue;
      const head = await this.eventStore.headPosition();
      if (((await this.readStore.getCheckpoint(collectionName(projection.name, building))) ?? 0n) < (head ?? 0n)) continue;
      const retired = await this.switchTo(projection, building);
      this.logger.info('projection build finished', { projection: projection.name, retired });
      setTimeout(() => {
        for (const collection of retired) void this.readStore.dropCollection(collection).catch(() => undefined);
      }, RETIRE_GRACE_MS).unref();
    }
  }

  /**
   * Makes `building` serve once it has applied the log, unless another process switched or replaced it
   * first. Returns the collections the switch retired.
   */
  private async switchTo(projection: Projection, building: Generation): Promise<string[]> {
    const key = META_PREFIX + projection.name;
    const collection = collectionName(projection.name, building);
    await this.catchUpCollection(projection, collection);
    const stored = (await this.readStore.getMeta<ProjectionMeta>(key))!;
    const same = (g: Generation | null) => g !== null && g.version === building.version && g.generation === building.generation;
    if (!same(stored.building)) {
      this.meta.set(projection.name, stored);
      return same(stored.active) ? [] : [collection];
    }
    const next: ProjectionMeta = { active: building, building: null };
    await this.readStore.setMeta(key, next);
    this.meta.set(projection.name, next);
    // Events appended while switching are the daemon's, like any other lag.
    await this.catchUpCollection(projection, collection);
    return [collectionName(projection.name, stored.active)];
  }

  /** Picks up generations switched by another process (a CLI rebuild); catches the new one up before serving it. */
  private async refreshMeta(): Promise<void> {
    if (Date.now() - this.lastMetaRefresh < META_REFRESH_MS) return;
    this.lastMetaRefresh = Date.now();
    for (const projection of this.projections.values()) await this.refreshProjectionMeta(projection);
  }

  private async refreshProjectionMeta(projection: Projection): Promise<void> {
    const readAt = Date.now();
    const stored = await this.readStore.getMeta<ProjectionMeta>(META_PREFIX + projection.name);
    const known = this.meta.get(projection.name)!;
    if (stored && JSON.stringify(stored) !== JSON.stringify(known)) {
      await this.ensureCollections(projection, stored);
      if (stored.active.generation !== known.active.generation || stored.active.version !== known.active.version) {
        await this.catchUpCollection(projection, collectionName(projection.name, stored.active));
      }
      this.meta.set(projection.name, stored);
    }
    this.noteGenerations(projection.name, readAt);
  }

  /** Records when this process learned its generations of `name` (read from the store at `readAt`). */
  private noteGenerations(name: string, readAt: number): void {
    this.metaReadAt.set(name, readAt);
    const building = this.meta.get(name)!.building;
    const key = building ? collectionName(name, building) : null;
    if (key === null) this.buildingSince.delete(name);
    else if (this.buildingSince.get(name)?.key !== key) this.buildingSince.set(name, { key, since: Date.now() });
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

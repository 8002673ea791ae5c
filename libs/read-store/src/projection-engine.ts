import { sleep } from '../../core/src/sleep';
import { DomainEvent, RecordedEvent } from '../../core/src/event';
import { Collection, Projection, ReadModelDoc } from '../../core/src/projection';
import { EventStore } from '../../event-store/src/event-store.port';
import { LogWatch, WATCH_FALLBACK_MS } from '../../event-store/src/log-watch';
import { applyEvents, ProjectionsByType, touchedIds } from './projection-fold';
import { AppendTarget, foldOnto } from './append-fold';
import { BATCH_MS, collectionName, Generation, GENERATIONS_STAMP, META_MAX_AGE_MS, META_PREFIX, META_REFRESH_MS, newStamp, nextGeneration, ProjectionMeta, RETIRE_GRACE_MS, SWITCH_GRACE_MS } from './projection-generations';
import { DocWrite, ReadStore, StoredDoc } from './read-store.port';
import { EngineLogger, InlineAccess } from './engine-ports';
import { idleUntil } from './daemon-idle';
import { KnownDocs } from './known-docs';
import { projectionStatus, ProjectionStatus } from './projection-status';
import { PAGE, StreamSource } from './stream-source';

export type { EngineLogger, InlineAccess } from './engine-ports';

/** Runs projections: inline in the embedded append (`inline`), after an append elsewhere (`applyAfterAppend`), and as the
 * daemon applying whatever a checkpoint is behind on. A rebuild fills a new generation, then switches reads to it. */
export class ProjectionEngine {
  private readonly projections = new Map<string, Projection>();
  private readonly meta = new Map<string, ProjectionMeta>();
  /** Serving collections at the log head when the batch under way began: the ones it applies. */
  private inlineBatch = new Map<Projection, string>();
  private readonly byType = new ProjectionsByType();
  private lastMetaRefresh = 0;
  /** Per projection, when the generations this process knows were read from the store. */
  private readonly metaReadAt = new Map<string, number>();
  /** Per projection, the building generation this process knows and since when. */
  private readonly buildingSince = new Map<string, { key: string; since: number }>();
  private wake: (() => void) | null = null;
  private readonly news = new Set<(events: RecordedEvent[]) => void>();
  /** The generations stamp this process's generations were read under (undefined: never read). */
  private stamp: string | null | undefined = undefined;
  private refreshing: Promise<void> | null = null;
  /** Production daemon's checkpoints per collection, kept between passes: only it moves them, and a stale one only repeats guarded writes. */
  private readonly checkpoints = new Map<string, bigint>();
  /** The newest log position the daemon has read. */
  private readUpTo: bigint | null = null;
  /** Documents the embedded append folds onto instead of reading them again (the Ping intake target). */
  readonly knownDocs: KnownDocs;

  constructor(
    private readonly readStore: ReadStore,
    private readonly eventStore: EventStore,
    projections: Projection[],
    private readonly logger: EngineLogger,
    private readonly access: InlineAccess | null = null,
  ) {
    for (const projection of projections) this.register(projection);
    this.knownDocs = new KnownDocs(access);
  }

  register(projection: Projection): void {
    if (this.projections.has(projection.name)) throw new Error(`Projection ${projection.name} registered twice`);
    this.projections.set(projection.name, projection);
    this.byType.add(projection);
  }

  /** Loads or creates each projection's generation; a changed version starts a build beside the serving one. */
  async start(): Promise<void> {
    // Read before the generations, so that a change made meanwhile is seen at the next refresh.
    this.stamp = await this.readStore.getMeta<string>(GENERATIONS_STAMP);
    let changed = false;
    for (const projection of this.projections.values()) {
      const key = META_PREFIX + projection.name;
      const readAt = Date.now();
      let meta = await this.readStore.getMeta<ProjectionMeta>(key);
      if (!meta) {
        meta = { active: { version: projection.version, generation: 1 }, building: null };
        await this.readStore.setMeta(key, meta);
        changed = true;
      } else if (meta.active.version !== projection.version && meta.building?.version !== projection.version) {
        meta = { ...meta, building: { version: projection.version, generation: nextGeneration(meta) } };
        await this.readStore.setMeta(key, meta);
        changed = true;
        this.logger.info('projection version changed, building a new generation', { projection: projection.name });
      }
      await this.ensureCollections(projection, meta);
      this.meta.set(projection.name, meta);
      this.noteGenerations(projection.name, readAt);
    }
    if (changed) await this.publishGenerations();
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

  /** Tells `listener` of events once their read-model changes are stored (an append here, a page the daemon applied): news for background loops. */
  onApplied(listener: (events: RecordedEvent[]) => void): () => void {
    this.news.add(listener);
    return () => this.news.delete(listener);
  }

  projectionNames(): string[] {
    return [...this.projections.keys()];
  }

  /** The embedded event store's hooks (see SqliteEventStore): documents commit with their events. */
  readonly inline = {
    begin: (head: bigint | null): void => {
      // A collection behind the head is the daemon's: applying newer events first would skip older ones.
      this.inlineBatch = new Map();
      const checkpoints = this.access!.checkpoints();
      for (const projection of this.projections.values()) {
        const collection = this.collection(projection);
        if ((checkpoints.get(collection) ?? null) === head) this.inlineBatch.set(projection, collection);
      }
    },
    apply: (events: RecordedEvent[]): void => {
      for (const projection of this.byType.of(events)) {
        const collection = this.inlineBatch.get(projection);
        if (collection !== undefined) this.knownDocs.apply(projection, collection, events);
      }
    },
    forget: (): void => this.knownDocs.forget(),
    end: (head: bigint | null): void => {
      if (head !== null && this.inlineBatch.size > 0) this.access!.setCheckpoints([...this.inlineBatch.values()], head);
      // The daemon is woken only when the batch left a collection behind.
      if (this.inlineBatch.size < this.projections.size) this.wake?.();
      this.inlineBatch = new Map();
    },
  };

  /**
   * Called by the command runner after every append (read-your-writes without the daemon); embedded, applied inline already.
   * Elsewhere each document the events touch, in every generation that serves or will serve, is read, then folded from its
   * own revision with the events between from `history` (what the command read) or a short stream read; writes are guarded
   * by revision, so the daemon applying the same events changes nothing. */
  async applyAfterAppend(history: RecordedEvent[] | null, appended: RecordedEvent[]): Promise<void> {
    if (this.access) return this.told(appended);
    this.wake?.();
    if (appended.length === 0) return;
    const source = new StreamSource(this.eventStore, appended[0].stream, appended[0].revision, history ?? []);
    const touched = [...this.projections.values()].flatMap((projection) => {
      const ids = touchedIds(projection, appended);
      return ids.length > 0 ? [{ projection, ids }] : [];
    });
    // A generation switched elsewhere must be known before writing: the switch waits SWITCH_GRACE_MS for this.
    if (touched.some(({ projection }) => Date.now() - (this.metaReadAt.get(projection.name) ?? 0) > META_MAX_AGE_MS)) await this.refreshGenerations();
    const targets: AppendTarget[] = [];
    for (const { projection, ids } of touched) {
      const meta = this.meta.get(projection.name)!;
      for (const generation of [meta.active, meta.building]) {
        if (generation) targets.push({ projection, collection: collectionName(projection.name, generation), ids, building: generation !== meta.active });
      }
    }
    if (targets.length === 0) return;
    // One read and one write for every read model the append touches: a round trip each on MongoDB.
    const stored = await this.readStore.getManyOf(targets.map(({ collection, ids }) => ({ collection, ids })));
    const writes = await Promise.all(targets.map((target, i) => foldOnto(this.readStore, target, stored[i], appended, source)));
    const batches = targets.map(({ collection }, i) => ({ collection, writes: writes[i] })).filter((batch) => batch.writes.length > 0);
    if (batches.length > 0) await this.readStore.writeAll(batches);
    this.told(appended);
  }

  private told(events: RecordedEvent[]): void {
    for (const listener of this.news) listener(events);
  }

  /** Applies everything between each collection's checkpoint and the log head, reading the log once. Returns events read. */
  async catchUp(): Promise<number> {
    const targets: { projection: Projection; collection: string; checkpoint: bigint }[] = [];
    for (const projection of this.projections.values()) {
      const meta = this.meta.get(projection.name)!;
      for (const generation of [meta.active, meta.building]) {
        if (!generation) continue;
        const collection = collectionName(projection.name, generation);
        // Embedded, inline writes move the stored checkpoints: they are read each pass (in-process, free).
        const kept = this.access ? undefined : this.checkpoints.get(collection);
        targets.push({ projection, collection, checkpoint: kept ?? (await this.readStore.getCheckpoint(collection)) ?? 0n });
      }
    }
    let after = targets.reduce((min, t) => (t.checkpoint < min ? t.checkpoint : min), 2n ** 63n);
    let read = 0;
    try {
      for (;;) {
        const page = await this.eventStore.readAll({ after, maxCount: PAGE });
        if (page.length > 0) after = page[page.length - 1].position;
        if (targets.length > 0 && (this.readUpTo === null || after > this.readUpTo)) this.readUpTo = after;
        if (page.length === 0) return read;
        await this.applyToAll(targets, page);
        read += page.length;
      }
    } finally {
      for (const target of targets) this.checkpoints.set(target.collection, target.checkpoint);
    }
  }

  /** The daemon. With a `watch` (production) a pass reads the log once the watch saw it move, and every META_REFRESH_MS
   * follows generations (one stamp read), so a CLI rebuild is followed before it drops the generation served here. */
  async run(signal: AbortSignal, idleMs = 200, watch?: LogWatch): Promise<void> {
    let force = true;
    let readAt = 0;
    while (!signal.aborted) {
      try {
        // A subscription that stalled silently costs latency, never events: the log is read every WATCH_FALLBACK_MS anyway.
        const moved = !watch || force || watch.head === null || this.readUpTo === null || watch.head > this.readUpTo || Date.now() - readAt >= WATCH_FALLBACK_MS;
        const read = moved || [...this.meta.values()].some((m) => m.building !== null);
        if (read) readAt = Date.now();
        const applied = await this.daemonPass(read);
        force = applied > 0 || this.checkpoints.size === 0;
        if (applied === 0) await idleUntil(signal, watch ? META_REFRESH_MS : idleMs, watch, this.readUpTo, (wake) => (this.wake = wake));
        // Under steady traffic a pass a second applies what arrived meanwhile in one batch; a backlog is read at once.
        else if (watch && applied < PAGE) await sleep(BATCH_MS, signal);
      } catch (error) {
        this.checkpoints.clear();
        force = true;
        this.logger.error('projection daemon failed, retrying', { error: String(error) });
        await sleep(1000, signal);
      }
    }
  }

  /** One daemon pass: generations switched elsewhere (at most once per META_REFRESH_MS), new events unless `read` is false, builds done. Returns events read. */
  async daemonPass(read = true): Promise<number> {
    await this.refreshMeta();
    const applied = read || this.checkpoints.size === 0 ? await this.catchUp() : 0;
    await this.finishBuilds();
    return applied;
  }

  /** Learns generations switched elsewhere (an API instance beside a worker: once a META_REFRESH_MS): one read of the stamp each change renews; only a new stamp re-reads every projection's. */
  refreshGenerations(): Promise<void> {
    this.refreshing ??= this.readGenerations().finally(() => (this.refreshing = null));
    return this.refreshing;
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
    await this.publishGenerations();
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

  /** Applies a page of the log to every collection behind its end: one read, one write, one checkpoint move in all. */
  private async applyToAll(targets: { projection: Projection; collection: string; checkpoint: bigint }[], page: RecordedEvent[]): Promise<void> {
    const end = page[page.length - 1].position;
    const behind = targets
      .filter((target) => target.checkpoint < end)
      .map((target) => {
        const events = page.filter((event) => event.position > target.checkpoint);
        return { target, events, ids: touchedIds(target.projection, events) };
      });
    const touched = behind.filter(({ ids }) => ids.length > 0);
    if (touched.length > 0) {
      const stored = await this.readStore.getManyOf(touched.map(({ target, ids }) => ({ collection: target.collection, ids })));
      const batches = touched.map(({ target, events }, i) => ({ collection: target.collection, writes: applyEvents(target.projection, events, stored[i]) })).filter((batch) => batch.writes.length > 0);
      if (batches.length > 0) await this.readStore.writeAll(batches);
    }
    if (behind.length > 0) await this.readStore.setCheckpoints(behind.map(({ target }) => target.collection), end);
    for (const { target } of behind) target.checkpoint = end;
    if (behind.length > 0) this.told(page);
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
    await this.publishGenerations();
    this.meta.set(projection.name, next);
    // Events appended while switching are the daemon's, like any other lag.
    await this.catchUpCollection(projection, collection);
    return [collectionName(projection.name, stored.active)];
  }

  /** Picks up generations switched by another process (a CLI rebuild); catches the new one up before serving it. */
  private async refreshMeta(): Promise<void> {
    if (Date.now() - this.lastMetaRefresh < META_REFRESH_MS) return;
    this.lastMetaRefresh = Date.now();
    await this.refreshGenerations();
  }

  private async readGenerations(): Promise<void> {
    const readAt = Date.now();
    const stamp = await this.readStore.getMeta<string>(GENERATIONS_STAMP);
    if (stamp !== this.stamp) {
      for (const projection of this.projections.values()) await this.refreshProjectionMeta(projection);
      // Generations changed: the daemon reads the checkpoints of the ones it now serves afresh.
      this.checkpoints.clear();
      this.stamp = stamp;
      return;
    }
    for (const name of this.projections.keys()) this.noteGenerations(name, readAt);
  }

  /** Renews the stamp after the generations were written, so that every process re-reads them. */
  private async publishGenerations(): Promise<void> {
    await this.readStore.setMeta(GENERATIONS_STAMP, newStamp());
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
}

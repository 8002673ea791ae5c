import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';

/** A rendered response (UTF-8 JSON) and the last instant (ms) at which the clock alone cannot change it. */
export interface Rendered {
  body: Buffer;
  validUntil: number;
}

interface Entry extends Rendered {
  head: bigint | null;
  builtAt: number;
}

/**
 * Longest an entry is served. The head check alone makes entries exact; this bounds what an in-process
 * cache below the read models (one that lags other processes' writes by design) could otherwise pin
 * until the next event.
 */
export const PAGE_LIST_CACHE_MAX_AGE_MS = 1000;
/** Upper bounds of what the cache holds; the oldest entries go first. */
export const PAGE_LIST_CACHE_MAX_ENTRIES = 500;
export const PAGE_LIST_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Serialized pages of endpoint 8, reused while nothing they were built from can have changed. Kept as
 * bytes: encoding a large string for every response costs about as much as writing it.
 *
 * Everything a list shows (pages, services, their checks, incidents) is a read model derived from the
 * event log, so while the log's head position stays where it was when an entry was built, no read model
 * behind it has changed — in this process or any other sharing the stores. The only other input is the
 * clock (a resolved incident leaves its pages 7 days after its resolution), which the builder reports as
 * `validUntil`; a clock that goes backwards also misses, and no entry is served longer than
 * PAGE_LIST_CACHE_MAX_AGE_MS.
 *
 * An entry is kept only when every read model had applied the whole log up to that head before the build
 * read them (a lagging daemon, or the production inline path that writes documents before the daemon moves
 * the checkpoint, would otherwise pin a state older than the head it is filed under). Concurrent misses
 * for the same key and head share one build, again only once the read models are caught up, so a request
 * never receives a build that started before a write it has seen answered.
 */
@Injectable()
export class StatusPageListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Rendered>>();
  private bytes = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async get(key: string, build: () => Promise<Rendered>): Promise<Buffer> {
    const head = await this.events.headPosition();
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && hit.head === head && hit.builtAt <= now && now <= hit.validUntil && now - hit.builtAt <= PAGE_LIST_CACHE_MAX_AGE_MS) {
      // Most recently used last, so eviction takes the oldest.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.body;
    }
    if (!(await this.caughtUpTo(head))) return (await build()).body;

    const flight = `${key}@${head ?? ''}`;
    let pending = this.building.get(flight);
    if (!pending) {
      pending = build();
      this.building.set(flight, pending);
      void pending.then(
        (rendered) => {
          this.building.delete(flight);
          this.keep(key, { ...rendered, head, builtAt: now });
        },
        () => this.building.delete(flight),
      );
    }
    return (await pending).body;
  }

  /** Entries held (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, entry: Entry): void {
    const size = entry.body.length;
    if (entry.validUntil < entry.builtAt || size > PAGE_LIST_CACHE_MAX_BYTES) return;
    const previous = this.entries.get(key);
    // A build that finished after a newer one for the same key must not replace it.
    if (previous && previous.head !== null && (entry.head === null || previous.head > entry.head)) return;
    if (previous) this.drop(key, previous);
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldest, value] of this.entries) {
      if (this.entries.size <= PAGE_LIST_CACHE_MAX_ENTRIES && this.bytes <= PAGE_LIST_CACHE_MAX_BYTES) break;
      this.drop(oldest, value);
    }
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }

  /** Whether every serving read model has applied the log up to `head`. */
  private async caughtUpTo(head: bigint | null): Promise<boolean> {
    if (head === null) return true;
    for (const name of this.engine.projectionNames()) {
      const checkpoint = await this.store.getCheckpoint(this.engine.collection(name));
      if (checkpoint === null || checkpoint < head) return false;
    }
    return true;
  }
}

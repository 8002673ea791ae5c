import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../core/src/clock';
import { DomainEvent, RecordedEvent } from '../../core/src/event';
import { Projection, ReadModelDoc } from '../../core/src/projection';
import { EventStore } from '../../event-store/src/event-store.port';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from '../../read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { FindQuery, ReadStore, StoredDoc } from '../../read-store/src/read-store.port';
import { loadConfig } from '../../platform/src/config';
import { createLogger } from '../../platform/src/logger';
import { openStores } from '../../platform/src/stores';

export type HarnessAdapter = 'in-memory' | 'sqlite';
export const HARNESS_ADAPTERS: HarnessAdapter[] = ['in-memory', 'sqlite'];

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Projections run by the real engine on real stores: the in-memory pair (async path, applied by
 * catch-up) or the embedded SQLite pair wired as the server wires it (inline inside the append's
 * transaction). No mocks.
 */
export class ProjectionHarness {
  private constructor(
    readonly adapter: HarnessAdapter,
    readonly eventStore: EventStore,
    readonly readStore: ReadStore,
    readonly engine: ProjectionEngine,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static async start(adapter: HarnessAdapter, projections: Projection[]): Promise<ProjectionHarness> {
    let harness: ProjectionHarness;
    if (adapter === 'in-memory') {
      const eventStore = new InMemoryEventStore();
      const readStore = new InMemoryReadStore();
      const engine = new ProjectionEngine(readStore, eventStore, projections, silent);
      harness = new ProjectionHarness(adapter, eventStore, readStore, engine, async () => {
        await eventStore.close();
        await readStore.close();
      });
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'vigil-projection-'));
      const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dir }), createLogger('silent'), new ManualClock());
      for (const projection of projections) stores.engine.register(projection);
      harness = new ProjectionHarness(adapter, stores.eventStore, stores.readStore, stores.engine, async () => {
        await stores.close();
        rmSync(dir, { recursive: true, force: true });
      });
    }
    await harness.engine.start();
    return harness;
  }

  /** Appends to one stream (as the command runner would) and lets the engine apply the events. */
  async append(stream: string, events: DomainEvent[], occurredAt = '2026-01-01T00:00:00.000Z', accountId: string | null = null): Promise<RecordedEvent[]> {
    const result = await this.eventStore.appendToStream(
      stream,
      events.map((e) => ({ type: e.type, data: e.data, metadata: { accountId, occurredAt } })),
    );
    await this.engine.catchUp();
    return result.events;
  }

  /** Reads a projection's serving collection; given the projection itself, typed with its documents. */
  async get<Doc extends ReadModelDoc, E extends DomainEvent = DomainEvent>(projection: Projection<Doc, E> | string, id: string): Promise<StoredDoc<Doc> | null> {
    return this.readStore.get<Doc>(this.engine.collection(typeof projection === 'string' ? projection : projection.name), id);
  }

  async find<Doc extends ReadModelDoc, E extends DomainEvent = DomainEvent>(projection: Projection<Doc, E> | string, query: FindQuery): Promise<Doc[]> {
    return this.readStore.find<Doc>(this.engine.collection(typeof projection === 'string' ? projection : projection.name), query);
  }

  /** Sends the whole log through the engine again (every event is then a duplicate or stale). */
  async replayAll(): Promise<void> {
    for (const name of this.engine.projectionNames()) await this.readStore.resetCheckpoint(this.engine.collection(name));
    await this.engine.catchUp();
  }

  async close(): Promise<void> {
    await this.cleanup();
  }
}

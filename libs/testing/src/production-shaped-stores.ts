import { randomUUID } from 'node:crypto';
import { EventStore } from '../../event-store/src/event-store.port';
import { InMemoryEventStore } from '../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from '../../read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { ReadStore } from '../../read-store/src/read-store.port';
import type { Stores } from '../../platform/src/stores';
import { StoreProbe } from './store-probe';

const quiet = { info: () => undefined, error: () => undefined };

/** MongoDB cannot see other processes' writes, so it offers no change token: neither does this stand-in. */
class MongoShapedReadStore extends InMemoryReadStore {
  override changeToken(): null {
    return null;
  }
}

/**
 * Stores shaped like the production deployment's, shared by any number of API instances started with
 * `startTestServer({ openStores: shared.openStores, env: { VIGIL_DAEMON: 'off' } })`: each instance has its
 * own projection engine without inline access (read models follow an append by reading and writing the
 * read store, as on MongoDB). EventStoreDB and MongoDB when EVENTSTORE_URL and MONGODB_URL are set (a
 * database of its own, dropped on close), the in-memory adapters otherwise. Every call goes through `probe`.
 */
export interface SharedStores {
  engines: 'in-memory' | 'EventStoreDB + MongoDB';
  eventStore: EventStore;
  readStore: ReadStore;
  probe: StoreProbe;
  /** For PlatformOptions.openStores: one engine per instance over the shared stores, which outlive it. */
  openStores: () => Promise<Stores>;
  close(): Promise<void>;
}

export const realStoresConfigured = (): boolean => Boolean(process.env.EVENTSTORE_URL && process.env.MONGODB_URL);

export async function openSharedStores(real = false): Promise<SharedStores> {
  const probe = new StoreProbe();
  let eventStore: EventStore;
  let readStore: ReadStore;
  let dispose: () => Promise<void>;
  if (real) {
    const { EventStoreDbEventStore } = await import('../../event-store/src/eventstoredb.event-store');
    const { MongoReadStore } = await import('../../read-store/src/mongodb.read-store');
    const database = `vigil_shared_test_${randomUUID().replace(/-/g, '')}`;
    const esdb = new EventStoreDbEventStore(process.env.EVENTSTORE_URL ?? '');
    const mongo = await MongoReadStore.connect(process.env.MONGODB_URL ?? '', { database });
    [eventStore, readStore] = [esdb, mongo];
    dispose = async () => {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(process.env.MONGODB_URL ?? '');
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
        await mongo.close();
        await esdb.close();
      }
    };
  } else {
    const memoryEvents = new InMemoryEventStore();
    const memoryReads = new MongoShapedReadStore();
    [eventStore, readStore] = [memoryEvents, memoryReads];
    dispose = async () => {
      await memoryEvents.close();
      await memoryReads.close();
    };
  }
  const events = probe.wrapEventStore(eventStore);
  const reads = probe.wrapReadStore(readStore);
  return {
    engines: real ? 'EventStoreDB + MongoDB' : 'in-memory',
    eventStore: events,
    readStore: reads,
    probe,
    openStores: async () => ({
      eventStore: events,
      readStore: reads,
      engine: new ProjectionEngine(reads, events, [], quiet),
      db: null,
      close: async () => undefined,
    }),
    close: dispose,
  };
}

/** Declares `suite` on the in-memory stores, and on the real ones (skipped, saying why, unless configured). */
export function describeOnSharedStores(title: string, suite: (real: boolean) => void): void {
  describe(`${title} (in-memory stores)`, () => suite(false));
  const real = realStoresConfigured() ? describe : describe.skip;
  real(`${title} (EventStoreDB + MongoDB; skipped unless EVENTSTORE_URL and MONGODB_URL are set)`, () => suite(true));
}

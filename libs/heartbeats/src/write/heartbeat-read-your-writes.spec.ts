import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../core/src/clock';
import { InMemoryEventStore } from '../../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from '../../../read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { ReadStore } from '../../../read-store/src/read-store.port';
import { EventStore } from '../../../event-store/src/event-store.port';
import { loadConfig } from '../../../platform/src/config';
import { createLogger } from '../../../platform/src/logger';
import { openStores } from '../../../platform/src/stores';
import { openSqliteDatabase } from '../../../sqlite/src/sqlite-database';
import { SqliteReadStore } from '../../../sqlite/src/sqlite.read-store';
import { EnginePairFactory, heartbeatReadYourWritesContract } from './heartbeat-read-your-writes.contract';

const silent = { info: () => undefined, error: () => undefined };

/** The production shape: the API instance's engine applies no inline hooks and runs no daemon; a worker's engine does. */
function productionShaped(eventStore: EventStore, readStore: ReadStore, close: () => Promise<void>): EnginePairFactory {
  return async (projections) => ({
    eventStore,
    readStore,
    engine: new ProjectionEngine(readStore, eventStore, projections, silent),
    daemon: new ProjectionEngine(readStore, eventStore, projections, silent),
    cleanup: close,
  });
}

heartbeatReadYourWritesContract('embedded SQLite (inline)', async (projections) => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-ryw-'));
  const stores = await openStores(loadConfig({ VIGIL_DATA_DIR: dir }), createLogger('silent'), new ManualClock());
  for (const projection of projections) stores.engine.register(projection);
  return {
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    engine: stores.engine,
    daemon: null,
    async cleanup() {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

heartbeatReadYourWritesContract('in-memory events + in-memory read models, daemon in a worker', (projections) => {
  const eventStore = new InMemoryEventStore();
  const readStore = new InMemoryReadStore();
  return productionShaped(eventStore, readStore, async () => {
    await eventStore.close();
    await readStore.close();
  })(projections);
});

heartbeatReadYourWritesContract('in-memory events + SQLite read models without inline access, daemon in a worker', (projections) => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-ryw-'));
  const db = openSqliteDatabase(join(dir, 'read.db'));
  const eventStore = new InMemoryEventStore();
  return productionShaped(eventStore, new SqliteReadStore(db), async () => {
    await eventStore.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  })(projections);
});

const esdbUrl = process.env.EVENTSTORE_URL;
const mongoUrl = process.env.MONGODB_URL;
// Both servers, as the production deployment has them; without them jest lists these tests as skipped.
const describeIfServers = esdbUrl && mongoUrl ? describe : describe.skip;

describeIfServers('EventStoreDB + MongoDB (skipped unless EVENTSTORE_URL and MONGODB_URL are set)', () => {
  let databases = 0;
  heartbeatReadYourWritesContract('EventStoreDB + MongoDB, daemon in a worker', async (projections) => {
    const { EventStoreDbEventStore } = await import('../../../event-store/src/eventstoredb.event-store');
    const { MongoReadStore } = await import('../../../read-store/src/mongodb.read-store');
    const database = `vigil_ryw_test_${process.pid}_${++databases}`;
    const eventStore = new EventStoreDbEventStore(esdbUrl ?? '');
    const readStore = await MongoReadStore.connect(mongoUrl ?? '', { database });
    return productionShaped(eventStore, readStore, async () => {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(mongoUrl ?? '');
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
        await readStore.close();
        await eventStore.close();
      }
    })(projections);
  });
});

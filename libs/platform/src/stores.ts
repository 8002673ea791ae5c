import { Clock } from '../../core/src/clock';
import { EventStore } from '../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { ReadStore } from '../../read-store/src/read-store.port';
import { openSqliteDatabase, SqliteDatabase } from '../../sqlite/src/sqlite-database';
import { InlineProjections, SqliteEventStore } from '../../sqlite/src/sqlite.event-store';
import { SqliteReadStore } from '../../sqlite/src/sqlite.read-store';
import { VigilConfig } from './config';
import { VigilLogger } from './logger';
import { Metrics } from './metrics';
import { StoreMetrics } from './store-metrics';

export interface Stores {
  eventStore: EventStore;
  readStore: ReadStore;
  engine: ProjectionEngine;
  /** Set in embedded mode only. */
  db: SqliteDatabase | null;
  close(): Promise<void>;
}

function engineLogger(logger: VigilLogger) {
  return {
    info: (message: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, message),
    error: (message: string, fields?: Record<string, unknown>) => logger.error(fields ?? {}, message),
  };
}

/**
 * Opens the stores of the configured deployment. Embedded: one SQLite file for both sides, with
 * projections applied inside the append's transaction. Production: EventStoreDB and MongoDB, whose
 * drivers are loaded only here, only when configured. With `metrics`, production store calls are
 * timed (store-metrics.ts).
 */
export async function openStores(config: VigilConfig, logger: VigilLogger, _clock: Clock, metrics?: Metrics): Promise<Stores> {
  if (config.eventStoreUrl && config.mongodbUrl) {
    const storeMetrics = metrics ? new StoreMetrics(metrics) : null;
    const { EventStoreDbEventStore } = await import('../../event-store/src/eventstoredb.event-store');
    const { MongoReadStore } = await import('../../read-store/src/mongodb.read-store');
    const esdb = new EventStoreDbEventStore(config.eventStoreUrl, { deadlineMs: config.storeTimeoutMs });
    const mongo = await MongoReadStore.connect(config.mongodbUrl, { timeoutMs: config.storeTimeoutMs }).catch(async (error: unknown) => {
      await esdb.close();
      throw error;
    });
    const eventStore = storeMetrics ? storeMetrics.eventStore(esdb) : esdb;
    const readStore = storeMetrics ? storeMetrics.readStore(mongo) : mongo;
    const engine = new ProjectionEngine(readStore, eventStore, [], engineLogger(logger));
    return {
      eventStore,
      readStore,
      engine,
      db: null,
      async close() {
        await eventStore.close();
        await readStore.close();
      },
    };
  }

  const db = openSqliteDatabase(config.sqliteFile);
  const readStore = new SqliteReadStore(db);
  // The event store calls the engine's inline hooks, and the engine reads the event store: filled once both exist.
  const inline = {} as InlineProjections;
  // Heartbeat streams hold nearly every event: deflating them meets the bytes-per-ping target; other bodies stay text.
  const eventStore = new SqliteEventStore(db, { inline, deflate: (stream) => stream.startsWith('heartbeat-') || (stream.startsWith('monitor-') && 'runs') });
  const engine = new ProjectionEngine(readStore, eventStore, [], engineLogger(logger), readStore.inline);
  Object.assign(inline, engine.inline);
  return {
    eventStore,
    readStore,
    engine,
    db,
    async close() {
      await eventStore.close();
      db.close();
    },
  };
}

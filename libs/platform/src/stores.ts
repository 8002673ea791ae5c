import { Clock } from '../../core/src/clock';
import { startCheckpointer } from '../../core/src/sqlite-checkpointer';
import { openSqliteDatabase, SqliteDatabase } from '../../core/src/sqlite-database';
import { EventStore } from '../../event-store/src/event-store.port';
import { SqliteEventStore } from '../../event-store/src/sqlite.event-store';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { ReadStore } from '../../read-store/src/read-store.port';
import { SqliteReadStore } from '../../read-store/src/sqlite.read-store';
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
    warn: (message: string, fields?: Record<string, unknown>) => logger.warn(fields ?? {}, message),
    error: (message: string, fields?: Record<string, unknown>) => logger.error(fields ?? {}, message),
  };
}

/**
 * Opens the stores of the configured deployment. Embedded: one SQLite file for both sides, with
 * projections applied inside the append's transaction. Production: EventStoreDB and MongoDB, whose
 * drivers are loaded only here, only when configured. With `metrics`, appends are counted, and
 * production store calls timed (store-metrics.ts).
 */
export async function openStores(config: VigilConfig, logger: VigilLogger, _clock: Clock, metrics?: Metrics): Promise<Stores> {
  const storeMetrics = metrics ? new StoreMetrics(metrics) : null;
  if (config.eventStoreUrl && config.mongodbUrl) {
    const { EventStoreDbEventStore } = await import('../../event-store/src/eventstoredb.event-store');
    const { MongoReadStore } = await import('../../read-store/src/mongodb.read-store');
    const esdb = new EventStoreDbEventStore(config.eventStoreUrl, { deadlineMs: config.storeTimeoutMs });
    const mongo = await MongoReadStore.connect(config.mongodbUrl, { timeoutMs: config.storeTimeoutMs }).catch(async (error: unknown) => {
      await esdb.close();
      throw error;
    });
    const eventStore = storeMetrics ? storeMetrics.eventStore(esdb, true) : esdb;
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
  db.pragma('wal_autocheckpoint = 0');
  // Once checkpointed, a WAL that grew under a burst is cut back to 64 MiB when the writer restarts it.
  db.pragma('journal_size_limit = 67108864');
  let eventStore: SqliteEventStore | null = null;
  const readStore = new SqliteReadStore(db, {
    requestTransaction: () => eventStore?.requestBatch(),
    onWriteBackError: (error) => logger.error({ err: error }, 'read models could not be written back, retrying'),
  });
  let engine: ProjectionEngine | null = null;
  eventStore = new SqliteEventStore(db, {
    onBatchStart: (headBefore) => engine?.beginInlineBatch(headBefore),
    onAppendInTransaction: (events) => engine?.applyInline(events),
    onBatchEnd: (headAfter) => {
      engine?.endInlineBatch(headAfter);
      // Written-back read-model documents ride along in the group commit: no commit of their own.
      readStore.writeBackStepSync();
    },
    onBatchCommitted: () => {
      readStore.writeBackStepCommitted();
      engine?.commitInlineBatch();
    },
  });
  // Under a steady write load the checkpointer pauses this writer for a moment every 4,096 frames
  // (16 MiB at 4 KiB pages), so the WAL restarts instead of growing without bound.
  const checkpointer = startCheckpointer(config.sqliteFile, (message) => logger.warn({ error: message }, 'WAL checkpoint failed'), {
    pauseWriter: () => eventStore.pauseWrites(),
  });
  engine = new ProjectionEngine(readStore, eventStore, [], engineLogger(logger), readStore);
  return {
    eventStore: storeMetrics ? storeMetrics.eventStore(eventStore, false) : eventStore,
    readStore,
    engine,
    db,
    async close() {
      await eventStore.close();
      await readStore.close();
      await checkpointer.stop();
      db.close();
    },
  };
}

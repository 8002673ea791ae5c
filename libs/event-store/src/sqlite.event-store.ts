import type Database from 'better-sqlite3';
import { StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { SqliteDatabase } from '../../core/src/sqlite-database';
import { iso } from '../../core/src/time';
import { AppendNotifier } from './append-notifier';
import {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  SubscribeOptions,
} from './event-store.port';
import { checkExpectedRevision } from './expected-revision';

const MAX_APPENDS_PER_BATCH = 2000;
const DEFAULT_READ_ALL_COUNT = 1000;
const SUBSCRIPTION_PAGE_SIZE = 500;
const POLL_INTERVAL_MS = 200;
/** AUTOINCREMENT positions start at 1. */
const BEFORE_FIRST_POSITION = 0n;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    UNIQUE (stream, revision)
  );
  -- The revision of a stream whose newest events were pruned (written by pruneStream only; databases
  -- written before that change hold a row for every stream, which stays correct: see currentRevision).
  CREATE TABLE IF NOT EXISTS streams (
    stream TEXT PRIMARY KEY,
    revision INTEGER NOT NULL
  );
`;

export interface SqliteEventStoreOptions {
  /**
   * Called inside the append's savepoint with the recorded events, so inline projections commit with
   * the events; if it throws, that append is rolled back and its caller gets the error.
   */
  onAppendInTransaction?: (events: RecordedEvent[]) => void;
  /** Called inside the batch transaction before its first append, with the log head before the batch. */
  onBatchStart?: (headBefore: bigint | null) => void;
  /** Called inside the batch transaction after its last append, with the log head after the batch. */
  onBatchEnd?: (headAfter: bigint | null) => void;
  /** Called once the batch has committed, before any of its callers is answered. */
  onBatchCommitted?: () => void;
}

export interface GroupCommitStats {
  /** Committed transactions that carried appends. */
  batches: number;
  /** Appends committed by those transactions. */
  appends: number;
}

interface PendingAppend {
  stream: string;
  events: EventToAppend[];
  expectedRevision: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

/** Read with safe integers, so positions and revisions arrive as bigint. */
interface EventRow {
  position: bigint;
  stream: string;
  revision: bigint;
  type: string;
  data: string;
  metadata: string;
}

/**
 * The embedded event store. Appends queue up and are group-committed on the next tick: one
 * transaction (one fsync) per batch, one savepoint per append, each caller answered after the commit.
 */
export class SqliteEventStore implements EventStore {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly appendInSavepoint: Database.Transaction<(append: PendingAppend) => AppendResult>;
  private readonly commitBatch: Database.Transaction<(batch: PendingAppend[]) => AppendOutcome[]>;
  private readonly pruneInTransaction: Database.Transaction<(stream: string, before: Date) => number>;
  private readonly notifier = new AppendNotifier();
  private queue: PendingAppend[] = [];
  private scheduledFlush: NodeJS.Immediate | null = null;
  private closed = false;
  /** Holds taken by pauseWrites and not released yet. */
  private pauses = 0;
  /** requestBatch asked for a transaction, appends or not. */
  private batchRequested = false;
  private readonly counters: GroupCommitStats = { batches: 0, appends: 0 };

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: SqliteEventStoreOptions = {},
  ) {
    db.exec(SCHEMA);
    this.statements = prepareStatements(db);
    // Called inside commitBatch, better-sqlite3 runs this one as a savepoint.
    this.appendInSavepoint = db.transaction((append: PendingAppend) => this.write(append));
    this.pruneInTransaction = db.transaction((stream: string, before: Date) => {
      // The stream keeps its revision even when its newest events go.
      const current = this.currentRevision(stream);
      if (current !== null) this.statements.keepRevision.run(stream, current);
      return this.statements.prune.run(stream, iso(before)).changes;
    });
    this.commitBatch = db.transaction((batch: PendingAppend[]) => {
      this.options.onBatchStart?.(this.statements.headPosition.get() ?? null);
      const outcomes = batch.map((append) => this.attempt(append));
      this.options.onBatchEnd?.(this.statements.headPosition.get() ?? null);
      return outcomes;
    });
  }

  get stats(): GroupCommitStats {
    return { ...this.counters };
  }

  appendToStream(stream: string, events: EventToAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('The event store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expectedRevision: options.expectedRevision ?? 'any', resolve, reject });
      this.scheduledFlush ??= setImmediate(() => this.flushScheduled());
    });
  }

  /**
   * Holds new batches back until the returned function is called; appends queue meanwhile and are
   * committed as one batch afterwards. The WAL checkpointer uses it to let the WAL restart under load.
   * Closing the store commits what is queued regardless.
   */
  pauseWrites(): () => void {
    this.pauses += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.pauses -= 1;
      if (this.pauses === 0 && (this.queue.length > 0 || this.batchRequested) && !this.closed) {
        this.scheduledFlush ??= setImmediate(() => this.flushScheduled());
      }
    };
  }

  /**
   * Runs one batch transaction soon even if no append is queued (after any pause), so the batch
   * hooks can write what rides along with appends (written-back read models) in an idle process.
   */
  requestBatch(): void {
    if (this.closed) return;
    this.batchRequested = true;
    this.scheduledFlush ??= setImmediate(() => this.flushScheduled());
  }

  async readStream(stream: string, options: { fromRevision?: bigint } = {}): Promise<RecordedEvent[]> {
    return this.statements.readStream.all(stream, options.fromRevision ?? 0n).map(toRecorded);
  }

  async streamRevision(stream: string): Promise<bigint | null> {
    return this.currentRevision(stream);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = Math.max(0, options.maxCount ?? DEFAULT_READ_ALL_COUNT);
    return this.statements.readAll.all(options.after ?? BEFORE_FIRST_POSITION, maxCount).map(toRecorded);
  }

  /** Synchronous page of the log, for work that must not interleave with appends (a rebuild's switch). */
  readAllSync(after: bigint | null, maxCount: number): RecordedEvent[] {
    return this.statements.readAll.all(after ?? BEFORE_FIRST_POSITION, maxCount).map(toRecorded);
  }

  async headPosition(): Promise<bigint | null> {
    return this.statements.headPosition.get() ?? null;
  }

  async *subscribeToAll({ after, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    let cursor = after ?? BEFORE_FIRST_POSITION;
    while (!signal.aborted && !this.closed) {
      const page = this.statements.readAll.all(cursor, SUBSCRIPTION_PAGE_SIZE).map(toRecorded);
      // Appends through this instance wake the wait at once; the timeout polls for other processes.
      // The wait starts in the same tick as the empty read, so no local commit can slip in between.
      if (page.length === 0) await this.notifier.wait(signal, POLL_INTERVAL_MS);
      for (const event of page) {
        yield event;
        cursor = event.position;
        if (signal.aborted) return;
      }
    }
  }

  async pruneStream(stream: string, before: Date): Promise<number> {
    // IMMEDIATE: no append can land between reading the revision and deleting.
    return this.pruneInTransaction.immediate(stream, before);
  }

  /** Commits what is queued and ends subscriptions; the database handle belongs to its opener. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.scheduledFlush) clearImmediate(this.scheduledFlush);
    this.scheduledFlush = null;
    while (this.queue.length > 0) this.flushBatch();
    this.notifier.notify();
  }

  private flushScheduled(): void {
    this.scheduledFlush = null;
    if (this.pauses > 0) return;
    this.flushBatch();
    // Later batches get their own tick, so I/O callbacks run between two large batches.
    if (this.queue.length > 0) this.scheduledFlush = setImmediate(() => this.flushScheduled());
  }

  private flushBatch(): void {
    this.batchRequested = false;
    const batch = this.queue.splice(0, MAX_APPENDS_PER_BATCH);
    let outcomes: AppendOutcome[];
    try {
      // IMMEDIATE takes the write lock up front, so another process makes us wait (busy_timeout)
      // instead of failing with SQLITE_BUSY halfway through the batch.
      outcomes = this.commitBatch.immediate(batch);
    } catch (error) {
      const failure = new StoreUnavailableError('The event store could not commit', error);
      for (const append of batch) append.reject(failure);
      return;
    }
    if (batch.length > 0) this.counters.batches += 1;
    this.options.onBatchCommitted?.();
    outcomes.forEach((outcome, index) => {
      if (outcome.ok) {
        this.counters.appends += 1;
        batch[index].resolve(outcome.result);
      } else {
        batch[index].reject(outcome.error);
      }
    });
    this.notifier.notify();
  }

  private attempt(append: PendingAppend): AppendOutcome {
    try {
      return { ok: true, result: this.appendInSavepoint(append) };
    } catch (error) {
      // Errors such as SQLITE_FULL roll back the whole transaction, not just the savepoint: fail the batch.
      if (!this.db.inTransaction) throw error;
      return { ok: false, error };
    }
  }

  private write({ stream, events, expectedRevision }: PendingAppend): AppendResult {
    const current = this.currentRevision(stream);
    checkExpectedRevision(stream, expectedRevision, current);
    if (events.length === 0) {
      return { nextRevision: current ?? -1n, position: this.statements.headPosition.get() ?? 0n, events: [] };
    }

    let revision = current ?? -1n;
    const recorded = events.map((event): RecordedEvent => {
      revision += 1n;
      const data = JSON.stringify(event.data);
      const metadata = JSON.stringify(event.metadata);
      const { lastInsertRowid } = this.statements.insertEvent.run(stream, revision, event.type, data, metadata);
      // Parsed back from the stored text, so inline projections see exactly what a later read returns.
      return {
        stream,
        revision,
        position: BigInt(lastInsertRowid),
        type: event.type,
        data: JSON.parse(data),
        metadata: JSON.parse(metadata),
      };
    });
    this.options.onAppendInTransaction?.(recorded);
    return { nextRevision: revision, position: recorded[recorded.length - 1].position, events: recorded };
  }

  /**
   * The newest revision in the events' (stream, revision) index — the page the append writes next
   * anyway — or the one pruneStream kept, whichever is greater. Appends do not write a streams row:
   * that was one more random page in every commit.
   */
  private currentRevision(stream: string): bigint | null {
    const revision = this.statements.streamRevision.get(stream, stream)!;
    return revision < 0n ? null : revision;
  }
}

function prepareStatements(db: SqliteDatabase) {
  const columns = 'position, stream, revision, type, data, metadata';
  return {
    insertEvent: db
      .prepare<[string, bigint, string, string, string]>(
        'INSERT INTO events (stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?)',
      )
      .safeIntegers(true),
    keepRevision: db.prepare<[string, bigint]>(
      `INSERT INTO streams (stream, revision) VALUES (?, ?)
       ON CONFLICT (stream) DO UPDATE SET revision = max(revision, excluded.revision)`,
    ),
    streamRevision: db
      .prepare<[string, string], bigint>(
        `SELECT max(coalesce((SELECT max(revision) FROM events WHERE stream = ?), -1),
                    coalesce((SELECT revision FROM streams WHERE stream = ?), -1))`,
      )
      .pluck()
      .safeIntegers(true),
    readStream: db
      .prepare<[string, bigint], EventRow>(
        `SELECT ${columns} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`,
      )
      .safeIntegers(true),
    readAll: db
      .prepare<[bigint, number], EventRow>(`SELECT ${columns} FROM events WHERE position > ? ORDER BY position LIMIT ?`)
      .safeIntegers(true),
    headPosition: db
      .prepare<[], bigint | null>('SELECT MAX(position) FROM events')
      .pluck()
      .safeIntegers(true),
    // julianday() compares instants, whatever offset notation occurredAt was written with.
    prune: db.prepare<[string, string]>(
      `DELETE FROM events WHERE stream = ? AND julianday(json_extract(metadata, '$.occurredAt')) < julianday(?)`,
    ),
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return { ...row, data: JSON.parse(row.data), metadata: JSON.parse(row.metadata) };
}

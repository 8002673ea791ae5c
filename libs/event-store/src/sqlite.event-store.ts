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
import { flatJsonCopy } from './flat-json';
import { StreamTail } from './stream-tail';

const MAX_APPENDS_PER_BATCH = 2000;
const DEFAULT_READ_ALL_COUNT = 1000;
const SUBSCRIPTION_PAGE_SIZE = 500;
const POLL_INTERVAL_MS = 200;
/** AUTOINCREMENT positions start at 1. */
const BEFORE_FIRST_POSITION = 0n;
/**
 * The stream index takes in the tail this long after its last cycle ended (each index page is written
 * once per cycle however many of its streams' events arrived)…
 */
const INDEX_INTERVAL_MS = 2000;
/** …or at once when the tail holds this many events. */
const MAX_TAIL_EVENTS = 100_000;
/** About this many tail events go into the index with each group commit while a cycle is under way. */
const INDEX_SLICE_EVENTS = 500;
/** Stream index rows per INSERT while a cycle writes its slices (the rest one by one). */
const INDEX_ROWS = 32;
/** A cycle that no append carries on asks for a transaction of its own after this long. */
const INDEX_IDLE_STEP_MS = 50;

function eventsTable(name: string): string {
  return `CREATE TABLE ${name} (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL
  )`;
}

/**
 * The log is one table keyed by position, written in position order. Streams are found through
 * `stream_index`, which is filled behind the log (see SqliteEventStore) so that an append writes no
 * page at a per-stream place in the file.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS stream_index (
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (stream, revision)
  ) WITHOUT ROWID;
  -- Every event at or before indexed_through is in stream_index.
  CREATE TABLE IF NOT EXISTS stream_index_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_through INTEGER NOT NULL
  );
  -- The revision of a stream whose newest events were pruned (written by pruneStream only; databases
  -- written before that change hold a row for every stream, which stays correct: see currentRevision).
  CREATE TABLE IF NOT EXISTS streams (
    stream TEXT PRIMARY KEY,
    revision INTEGER NOT NULL
  );
`;

/** Databases written before the stream index kept a UNIQUE (stream, revision) index on the log itself. */
const OLD_EVENTS_TABLE = /UNIQUE\s*\(\s*stream\s*,\s*revision\s*\)/i;

export interface SqliteEventStoreOptions {
  /**
   * Called inside the batch transaction with each append's recorded events, so inline projections
   * commit with the events; if it throws, the store takes that append's events back and its caller
   * gets the error. It must not write to the database itself (no savepoint guards an append): what
   * it changes in memory is its own to undo when it throws.
   */
  onAppendInTransaction?: (events: RecordedEvent[]) => void;
  /** Called inside the batch transaction before its first append, with the log head before the batch. */
  onBatchStart?: (headBefore: bigint | null) => void;
  /** Called inside the batch transaction after its last append, with the log head after the batch. */
  onBatchEnd?: (headAfter: bigint | null) => void;
  /** Called once the batch has committed, before any of its callers is answered. */
  onBatchCommitted?: () => void;
  /** How long the stream index waits after a cycle before taking in the tail again (default 2 s). */
  indexIntervalMs?: number;
  /** About how many tail events one group commit writes to the stream index (default 500). */
  indexSliceEvents?: number;
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

/** An append failed (`appendError`) and its rows could not be deleted again (`cause`): the whole batch must fail. */
class TakeBackError extends Error {
  constructor(appendError: unknown, cause: unknown) {
    super(`A failed append could not be taken back (it failed with: ${String(appendError)})`, { cause });
  }
}

/** What a batch changes in memory once it commits: its events join the tail, a cycle moves on. */
interface BatchEffects {
  /** Each stream's revision after the batch's appends so far (the next append builds on it). */
  heads: Map<string, bigint>;
  /** Small records of their own: keeping the recorded events (data and all) here measured ~5% fewer pings/s. */
  appended: { stream: string; revision: bigint; position: bigint }[];
  /** The index cycle's slice this batch wrote, if any. */
  sliceWritten: boolean;
}

/** An indexing cycle: the tail up to `through`, written to the index stream range by stream range. */
interface IndexCycle {
  through: bigint;
  slices: string[][];
  next: number;
}

/**
 * The embedded event store. Appends queue up and are group-committed on the next tick: one
 * transaction (one fsync) per batch, each caller answered after the commit. An append that fails
 * within the batch (a conflict, its hook throwing) has its own rows taken back; the others commit.
 *
 * The log is written in position order only. Which events belong to a stream is kept in
 * `stream_index`, filled *behind* the log: every process holds the events after the index's
 * `indexed_through` (the tail) in memory, by stream, read from the log when another process has
 * committed (`PRAGMA data_version`) and added by its own commits. Every `indexIntervalMs` (2 s) the
 * tail goes into the index in key order, a slice of streams with each group commit, so each index
 * page is written once per cycle instead of once per append (an append to a random stream used to write a page of
 * the stream's own). Reads and revisions combine the index with the tail; every append runs under the
 * write lock after the tail has caught up, so the revision it checks is the stream's true head.
 */
export class SqliteEventStore implements EventStore {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly commitBatch: Database.Transaction<(batch: PendingAppend[]) => AppendOutcome[]>;
  private readonly pruneInTransaction: Database.Transaction<(stream: string, before: Date) => number>;
  private readonly readTransaction: Database.Transaction<(read: () => unknown) => unknown>;
  private readonly notifier = new AppendNotifier();
  private queue: PendingAppend[] = [];
  private scheduledFlush: NodeJS.Immediate | null = null;
  private closed = false;
  /** Holds taken by pauseWrites and not released yet. */
  private pauses = 0;
  /** requestBatch asked for a transaction, appends or not. */
  private batchRequested = false;
  private readonly counters: GroupCommitStats = { batches: 0, appends: 0 };

  /** Events after `indexedThrough`, as far as `seenThrough`. */
  private readonly tail = new StreamTail();
  private indexedThrough = BEFORE_FIRST_POSITION;
  /** Null until the tail was first read. */
  private seenThrough: bigint | null = null;
  private dataVersion: unknown = undefined;
  private batch: BatchEffects | null = null;
  private cycle: IndexCycle | null = null;
  private lastCycleEnd = Date.now();
  private indexTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: SqliteEventStoreOptions = {},
  ) {
    db.transaction(() => createOrMigrate(db)).immediate();
    this.statements = prepareStatements(db);
    this.pruneInTransaction = db.transaction((stream: string, before: Date) => this.prune(stream, before));
    this.readTransaction = db.transaction((read: () => unknown) => {
      this.catchUpTail();
      return read();
    });
    this.commitBatch = db.transaction((batch: PendingAppend[]) => {
      this.catchUpTail();
      this.batch = { heads: new Map(), appended: [], sliceWritten: false };
      this.options.onBatchStart?.(this.statements.headPosition.get() ?? null);
      const outcomes = batch.map((append) => this.attempt(append));
      this.options.onBatchEnd?.(this.statements.headPosition.get() ?? null);
      this.indexStep();
      return outcomes;
    });
  }

  private get indexIntervalMs(): number {
    return this.options.indexIntervalMs ?? INDEX_INTERVAL_MS;
  }

  get stats(): GroupCommitStats {
    return { ...this.counters };
  }

  /** How many events the stream index does not hold yet (for tests and diagnostics). */
  get unindexedEvents(): number {
    return this.tail.size;
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
   * hooks can write what rides along with appends (written-back read models, the stream index) in an
   * idle process.
   */
  requestBatch(): void {
    if (this.closed) return;
    this.batchRequested = true;
    this.scheduledFlush ??= setImmediate(() => this.flushScheduled());
  }

  async readStream(stream: string, options: { fromRevision?: bigint } = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    return this.readInTransaction(() => {
      const events = this.statements.readIndexed.all(stream, from).map(toRecorded);
      // A cycle under way (here or in another process) may have indexed some of the tail already.
      let after = events.length > 0 ? events[events.length - 1].revision : from - 1n;
      for (const { revision, position } of this.tail.of(stream)) {
        if (revision <= after) continue;
        const row = this.statements.readPosition.get(position);
        // Pruned since the tail was read.
        if (!row) continue;
        events.push(toRecorded(row));
        after = revision;
      }
      return events;
    });
  }

  async streamRevision(stream: string): Promise<bigint | null> {
    return this.readInTransaction(() => this.currentRevision(stream));
  }

  /** Runs a read in one read transaction, once the tail has caught up: the index and the tail as of one commit. */
  private readInTransaction<T>(read: () => T): T {
    return this.readTransaction(read) as T;
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
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
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
      this.batch = null;
      const failure = new StoreUnavailableError('The event store could not commit', error);
      for (const append of batch) append.reject(failure);
      return;
    }
    this.batchCommitted();
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
    this.scheduleIndexing();
  }

  private attempt(append: PendingAppend): AppendOutcome {
    try {
      return { ok: true, result: this.write(append) };
    } catch (error) {
      // Errors such as SQLITE_FULL roll back the whole transaction, and an append whose rows could not
      // be taken back must not commit: fail the batch.
      if (!this.db.inTransaction || error instanceof TakeBackError) throw error;
      return { ok: false, error };
    }
  }

  /**
   * Writes one append's events; if anything fails once its first row is in (encoding or inserting a
   * later event, the hook), deletes its rows again before rethrowing. No savepoint: two statements per append were ~1 µs of
   * each ping (docs/benchmarks.md), and the append's rows are the log's last ones, so they are all
   * that needs taking back.
   */
  private write({ stream, events, expectedRevision }: PendingAppend): AppendResult {
    const current = this.currentRevision(stream);
    checkExpectedRevision(stream, expectedRevision, current);
    if (events.length === 0) {
      return { nextRevision: current ?? -1n, position: this.statements.headPosition.get() ?? 0n, events: [] };
    }

    let revision = current ?? -1n;
    const recorded: RecordedEvent[] = [];
    /** The append's first row, once one is in. */
    let first: bigint | null = null;
    try {
      for (const { type, data: value, metadata: meta } of events) {
        revision += 1n;
        // Inline projections must see exactly what a later read returns: a flat value is recorded as a
        // copy that reads back the same (and is what gets encoded), anything else is parsed back.
        const dataCopy = flatJsonCopy(value);
        const metaCopy = flatJsonCopy(meta);
        // An event that cannot be encoded fails here, its append's earlier rows taken back below.
        const data = JSON.stringify(dataCopy ?? value);
        const metadata = JSON.stringify(metaCopy ?? meta);
        const { lastInsertRowid } = this.statements.insertEvent.run(stream, revision, type, data, metadata);
        const position = BigInt(lastInsertRowid);
        first ??= position;
        // Refused here, where its rows are taken back, rather than once committed, where the tail takes it in.
        if (!StreamTail.holds(revision, position)) {
          throw new RangeError(`Stream ${stream}: revision ${revision} at position ${position} is beyond 2^53 − 1`);
        }
        recorded.push({
          stream,
          revision,
          position,
          type,
          data: dataCopy ?? JSON.parse(data),
          metadata: metaCopy ?? JSON.parse(metadata),
        });
      }
      this.options.onAppendInTransaction?.(recorded);
    } catch (error) {
      if (first !== null && this.db.inTransaction) this.takeBack(first, error);
      throw error;
    }
    // Past the hook: the append is part of the batch.
    const batch = this.batch!;
    batch.heads.set(stream, revision);
    for (const event of recorded) batch.appended.push({ stream, revision: event.revision, position: event.position });
    return { nextRevision: revision, position: recorded[recorded.length - 1].position, events: recorded };
  }

  /**
   * Deletes the failed append's rows (every row from its first on: nothing was written after them) and
   * moves the AUTOINCREMENT mark back to just before them, where the append found it, so the positions
   * are given out again as a rolled-back savepoint would.
   */
  private takeBack(first: bigint, cause: unknown): void {
    try {
      this.statements.takeBack.run(first);
      this.statements.resetPositionMark.run(first - 1n);
    } catch (error) {
      throw new TakeBackError(cause, error);
    }
  }

  /**
   * The stream's newest revision: this batch's appends, else the tail, else the index or the
   * revision pruneStream kept, whichever is greater. Called once the tail has caught up.
   */
  private currentRevision(stream: string): bigint | null {
    const inBatch = this.batch?.heads.get(stream);
    if (inBatch !== undefined) return inBatch;
    const inTail = this.tail.lastRevision(stream);
    if (inTail !== undefined) return inTail;
    const revision = this.statements.streamRevision.get(stream, stream)!;
    return revision < 0n ? null : revision;
  }

  /**
   * Brings the tail up to the log's head: events other processes committed since it was last read
   * (none when `data_version` is unchanged: this connection's own commits are added as they commit),
   * less what another process has indexed meanwhile.
   */
  private catchUpTail(): void {
    const version = this.statements.dataVersion.get();
    if (this.seenThrough !== null && version === this.dataVersion) return;
    this.dataVersion = version;
    const indexed = this.statements.indexedThrough.get() ?? BEFORE_FIRST_POSITION;
    if (indexed > this.indexedThrough) {
      this.indexedThrough = indexed;
      this.tail.dropThrough(indexed);
    }
    let seen = this.seenThrough === null || this.seenThrough < this.indexedThrough ? this.indexedThrough : this.seenThrough;
    for (const row of this.statements.readTailAfter.iterate(seen) as IterableIterator<TailRow>) {
      this.tail.add(row.stream, row.revision, row.position);
      seen = row.position;
    }
    this.seenThrough = seen;
  }

  /** Once a batch has committed: its events join the tail; a slice it wrote moves the cycle on. */
  private batchCommitted(): void {
    const batch = this.batch;
    this.batch = null;
    if (!batch) return;
    for (const { stream, revision, position } of batch.appended) this.tail.add(stream, revision, position);
    if (batch.appended.length > 0) this.seenThrough = batch.appended[batch.appended.length - 1].position;
    const cycle = this.cycle;
    if (!batch.sliceWritten || !cycle) return;
    cycle.next += 1;
    if (cycle.next < cycle.slices.length) return;
    this.cycle = null;
    this.lastCycleEnd = Date.now();
    if (cycle.through > this.indexedThrough) {
      this.indexedThrough = cycle.through;
      this.tail.dropThrough(cycle.through);
    }
  }

  /**
   * Inside the batch, after its appends: starts a cycle when one is due, and writes the cycle's next
   * slice — every tail event at or before the cycle's start, of a range of streams, in key order.
   * The last slice moves `indexed_through`. INSERT OR IGNORE: another process's cycle may have
   * written some of the same events.
   */
  private indexStep(): void {
    if (!this.cycle) {
      const due = this.tail.size >= MAX_TAIL_EVENTS || (this.tail.size > 0 && Date.now() - this.lastCycleEnd >= this.indexIntervalMs);
      if (!due || this.seenThrough === null) return;
      this.cycle = { through: this.seenThrough, slices: this.slices(this.seenThrough), next: 0 };
    }
    // A cycle ends (batchCommitted) once its last slice has committed, so `next` is always a slice.
    const cycle = this.cycle;
    // INDEX_ROWS rows per statement: one statement per row cost ~0.8 µs more per event (docs/benchmarks.md).
    const rows: (string | bigint)[] = [];
    for (const stream of cycle.slices[cycle.next]) {
      for (const { revision, position } of this.tail.of(stream)) {
        if (position > cycle.through) break;
        rows.push(stream, revision, position);
        if (rows.length === INDEX_ROWS * 3) {
          this.statements.insertIndexMany.run(rows);
          rows.length = 0;
        }
      }
    }
    for (let i = 0; i < rows.length; i += 3) this.statements.insertIndex.run(rows[i] as string, rows[i + 1] as bigint, rows[i + 2] as bigint);
    if (cycle.next === cycle.slices.length - 1) this.statements.setIndexedThrough.run(cycle.through);
    this.batch!.sliceWritten = true;
  }

  /** The tail's streams up to `through`, in key order, cut into slices of about `indexSliceEvents` events. */
  private slices(through: bigint): string[][] {
    const size = this.options.indexSliceEvents ?? INDEX_SLICE_EVENTS;
    const slices: string[][] = [];
    let slice: string[] = [];
    let events = 0;
    for (const stream of this.tail.streamsThrough(through)) {
      slice.push(stream);
      events += this.tail.count(stream);
      if (events >= size) {
        slices.push(slice);
        slice = [];
        events = 0;
      }
    }
    if (slice.length > 0 || slices.length === 0) slices.push(slice);
    return slices;
  }

  /** A cycle under way, or a tail waiting for one, gets a transaction of its own when no append carries it. */
  private scheduleIndexing(): void {
    if (this.closed || this.indexTimer || (!this.cycle && this.tail.size === 0)) return;
    const batches = this.counters.batches;
    const wait = this.cycle ? INDEX_IDLE_STEP_MS : Math.max(INDEX_IDLE_STEP_MS, this.indexIntervalMs - (Date.now() - this.lastCycleEnd));
    this.indexTimer = setTimeout(() => {
      this.indexTimer = null;
      if (this.counters.batches === batches) this.requestBatch();
      else this.scheduleIndexing();
    }, wait);
    this.indexTimer.unref();
  }

  /**
   * Deletes the stream's events older than `before`. The stream's tail goes into the index first, so
   * one indexed delete finds them all; the stream keeps its revision in `streams`.
   */
  private prune(stream: string, before: Date): number {
    this.catchUpTail();
    const current = this.currentRevision(stream);
    if (current === null) return 0;
    this.statements.keepRevision.run(stream, current);
    for (const { revision, position } of this.tail.of(stream)) this.statements.insertIndex.run(stream, revision, position);
    const deleted = this.statements.prune.run(stream, iso(before)).changes;
    this.statements.pruneIndex.run(stream);
    return deleted;
  }
}

interface TailRow {
  position: bigint;
  stream: string;
  revision: bigint;
}

/** Creates the tables, or moves a log written with a UNIQUE (stream, revision) index to the stream index. */
function createOrMigrate(db: SqliteDatabase): void {
  const existing = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'").pluck().get() as string | undefined;
  db.exec(SCHEMA);
  if (existing === undefined) {
    db.exec(eventsTable('events'));
    return;
  }
  if (!OLD_EVENTS_TABLE.test(existing)) return;
  // Positions of pruned newest events are never given out again: the AUTOINCREMENT mark moves over.
  const mark = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck().get() as number | undefined) ?? 0;
  db.exec(eventsTable('events_moved'));
  db.exec(`INSERT INTO events_moved (position, stream, revision, type, data, metadata)
           SELECT position, stream, revision, type, data, metadata FROM events ORDER BY position`);
  db.exec('INSERT OR IGNORE INTO stream_index (stream, revision, position) SELECT stream, revision, position FROM events');
  db.exec('DROP TABLE events');
  db.exec('ALTER TABLE events_moved RENAME TO events');
  const moved = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck().get() as number | undefined;
  if (moved === undefined) db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('events', ?)").run(mark);
  else if (moved < mark) db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'").run(mark);
  db.exec(`INSERT INTO stream_index_state (id, indexed_through) VALUES (1, coalesce((SELECT max(position) FROM events), 0))
           ON CONFLICT (id) DO UPDATE SET indexed_through = excluded.indexed_through`);
}

function prepareStatements(db: SqliteDatabase) {
  const columns = 'position, stream, revision, type, data, metadata';
  return {
    insertEvent: db
      .prepare<[string, bigint, string, string, string]>(
        'INSERT INTO events (stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?)',
      )
      .safeIntegers(true),
    insertIndex: db.prepare<[string, bigint, bigint]>('INSERT OR IGNORE INTO stream_index (stream, revision, position) VALUES (?, ?, ?)'),
    insertIndexMany: db.prepare<[(string | bigint)[]]>(
      `INSERT OR IGNORE INTO stream_index (stream, revision, position) VALUES ${Array(INDEX_ROWS).fill('(?, ?, ?)').join(', ')}`,
    ),
    indexedThrough: db
      .prepare<[], bigint>('SELECT indexed_through FROM stream_index_state WHERE id = 1')
      .pluck()
      .safeIntegers(true),
    setIndexedThrough: db.prepare<[bigint]>(
      `INSERT INTO stream_index_state (id, indexed_through) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET indexed_through = max(indexed_through, excluded.indexed_through)`,
    ),
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    readTailAfter: db
      .prepare<[bigint], TailRow>('SELECT position, stream, revision FROM events WHERE position > ? ORDER BY position')
      .safeIntegers(true),
    keepRevision: db.prepare<[string, bigint]>(
      `INSERT INTO streams (stream, revision) VALUES (?, ?)
       ON CONFLICT (stream) DO UPDATE SET revision = max(revision, excluded.revision)`,
    ),
    streamRevision: db
      .prepare<[string, string], bigint>(
        `SELECT max(coalesce((SELECT max(revision) FROM stream_index WHERE stream = ?), -1),
                    coalesce((SELECT revision FROM streams WHERE stream = ?), -1))`,
      )
      .pluck()
      .safeIntegers(true),
    readIndexed: db
      .prepare<[string, bigint], EventRow>(
        `SELECT e.position, e.stream, e.revision, e.type, e.data, e.metadata
           FROM stream_index i JOIN events e ON e.position = i.position
          WHERE i.stream = ? AND i.revision >= ? ORDER BY i.revision`,
      )
      .safeIntegers(true),
    takeBack: db.prepare<[bigint]>('DELETE FROM events WHERE position >= ?'),
    resetPositionMark: db.prepare<[bigint]>("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'"),
    readPosition: db.prepare<[bigint], EventRow>(`SELECT ${columns} FROM events WHERE position = ?`).safeIntegers(true),
    readAll: db
      .prepare<[bigint, number], EventRow>(`SELECT ${columns} FROM events WHERE position > ? ORDER BY position LIMIT ?`)
      .safeIntegers(true),
    headPosition: db
      .prepare<[], bigint | null>('SELECT MAX(position) FROM events')
      .pluck()
      .safeIntegers(true),
    // julianday() compares instants, whatever offset notation occurredAt was written with.
    prune: db.prepare<[string, string]>(
      `DELETE FROM events WHERE position IN (
         SELECT i.position FROM stream_index i JOIN events e ON e.position = i.position
          WHERE i.stream = ? AND julianday(json_extract(e.metadata, '$.occurredAt')) < julianday(?))`,
    ),
    // Index rows whose events are gone (pruned just now, or by another process before a cycle wrote them).
    pruneIndex: db.prepare<[string]>(
      'DELETE FROM stream_index WHERE stream = ? AND NOT EXISTS (SELECT 1 FROM events e WHERE e.position = stream_index.position)',
    ),
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return { ...row, data: JSON.parse(row.data), metadata: JSON.parse(row.metadata) };
}

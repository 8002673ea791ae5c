import type { Statement, Transaction } from 'better-sqlite3';
import { StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { AppendNotifier, AppendOptions, AppendResult, checkExpectedRevision, EventStore, ExpectedRevision, ReadAllOptions, ReadStreamOptions, SubscribeOptions } from '../../event-store/src/event-store.port';
import { SqliteDatabase } from './sqlite-database';
import { StreamRows } from './stream-rows';
import { decodeBody, DeflatePredicate, encodeBody } from './event-body';

const MAX_APPENDS_PER_BATCH = 2000;
const DEFAULT_READ_ALL_COUNT = 1000;
const SUBSCRIPTION_PAGE_SIZE = 500;
const POLL_INTERVAL_MS = 200;
/** Events this process appended lately, kept decoded for readers tailing the log (the Ping intake target: no inflate per event for processors). */
const RECENT_KEPT = 2000;

/**
 * Streams get a small integer id (the (stream, revision) index then holds numbers, not names); an
 * event's type, data and metadata are one JSON body, deflated (a BLOB) in the streams the `deflate`
 * option names and text elsewhere. `at` is its occurredAt, for pruning.
 * A stream's revision is its newest event's, read from the index: an append writes no stream row.
 * `streams.revision` is a floor, so pruning never lowers it: the newest revision pruning removed (-1 if
 * none), or in a database written before, the stream's revision at that time.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS streams (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    revision INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    at INTEGER NOT NULL,
    body BLOB NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS events_by_stream ON events (stream, revision);
`;

/**
 * Moves a log in the text-column format (type, data and metadata columns; a stream index table) into
 * this schema in one transaction, keeping every position, revision and the position mark.
 */
function migrateTextLog(db: SqliteDatabase, deflate: DeflatePredicate): void {
  db.transaction(() => {
    const oldStreams = db.prepare("SELECT name FROM pragma_table_info('streams')").pluck().all().includes('stream');
    db.exec('ALTER TABLE events RENAME TO events_text');
    if (oldStreams) db.exec('ALTER TABLE streams RENAME TO streams_text');
    db.exec(SCHEMA);
    const newStream = db.prepare('INSERT INTO streams (name, revision) VALUES (?, ?)');
    const setRevision = db.prepare('UPDATE streams SET revision = max(revision, ?) WHERE id = ?');
    const insert = db.prepare('INSERT INTO events (position, stream, revision, at, body) VALUES (?, ?, ?, ?, ?)');
    const ids = new Map<string, number | bigint>();
    const page = db.prepare('SELECT position, stream, revision, type, data, metadata FROM events_text WHERE position > ? ORDER BY position LIMIT 10000').safeIntegers(true);
    for (let after = 0n; ; ) {
      const rows = page.all(after) as { position: bigint; stream: string; revision: bigint; type: string; data: string; metadata: string }[];
      if (rows.length === 0) break;
      for (const row of rows) {
        let id = ids.get(row.stream);
        if (id === undefined) {
          id = newStream.run(row.stream, row.revision).lastInsertRowid;
          ids.set(row.stream, id);
        }
        setRevision.run(row.revision, id);
        const metadata = JSON.parse(row.metadata) as RecordedEvent['metadata'];
        const body = encodeBody(deflate, row.stream, JSON.stringify([row.type, JSON.parse(row.data), metadata]));
        insert.run(row.position, id, row.revision, Date.parse(metadata.occurredAt) || 0, body);
      }
      after = rows[rows.length - 1].position;
    }
    if (oldStreams) {
      // Revisions of streams whose newest events were pruned.
      for (const { stream, revision } of db.prepare('SELECT stream, revision FROM streams_text').safeIntegers(true).all() as { stream: string; revision: bigint }[]) {
        const id = ids.get(stream) ?? newStream.run(stream, revision).lastInsertRowid;
        setRevision.run(revision, id);
      }
    }
    const mark = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events_text'").pluck().safeIntegers(true).get();
    if (mark !== undefined) {
      db.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT 'events', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'events')").run();
      db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'events'").run(mark);
    }
    db.exec('DROP TABLE events_text; DROP TABLE IF EXISTS streams_text; DROP TABLE IF EXISTS stream_index; DROP TABLE IF EXISTS stream_index_state');
  }).immediate();
}

interface EventRow {
  position: bigint;
  name: string;
  revision: bigint;
  at: bigint;
  body: Buffer | string;
}

function toRecorded(row: EventRow, deflate: DeflatePredicate): RecordedEvent {
  const [type, data, metadata] = decodeBody(row.body, typeof row.body !== 'string' && deflate(row.name) === 'runs', Number(row.at));
  return { stream: row.name, revision: row.revision, position: row.position, type, data, metadata };
}

/** Applies read models inside the append's transaction (embedded read-your-writes). */
export interface InlineProjections {
  /** Before the batch's first append, with the log head before it. */
  begin(head: bigint | null): void;
  /** Inside the append's savepoint: a throw takes back the append (and whatever this wrote) and fails only its caller. */
  apply(events: RecordedEvent[]): void;
  /** After the batch's last append, still inside its transaction. */
  end(head: bigint | null): void;
  /** What the hooks remember of earlier appends may be wrong: a batch was taken back, or another connection committed. */
  forget?(): void;
}

export interface SqliteEventStoreOptions {
  inline?: InlineProjections;
  /**
   * Streams whose bodies are stored deflated (default: none). Worth it only for streams that hold most
   * events; elsewhere the deflate costs more write time than the space it saves.
   */
  deflate?: DeflatePredicate;
}

interface PendingAppend {
  stream: string;
  events: EventToAppend[];
  expectedRevision: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

/**
 * The embedded event store. Appends are group-committed: one transaction per batch, a savepoint per
 * append, so a conflict or a failing inline projection takes back that append alone. A batch's callers
 * are answered once it is on disk (`durable()`, an fsync off the event loop); the appends that arrive
 * during that fsync make the next batch.
 */
export class SqliteEventStore implements EventStore {
  private readonly sql: Record<'stream' | 'newStream' | 'insert' | 'readStream' | 'readStreamSome' | 'readStreamBack' | 'readAll' | 'head' | 'keepPruned' | 'prune', Statement>;
  private readonly pruneOne: Transaction<(stream: string, before: number) => number>;
  private readonly commitBatch: Transaction<(batch: PendingAppend[]) => Outcome[]>;
  private readonly appendOne: Transaction<(append: PendingAppend) => AppendResult>;
  private readonly notifier = new AppendNotifier();
  private readonly streamRows: StreamRows;
  private readonly deflate: DeflatePredicate;
  private queue: PendingAppend[] = [];
  /** By position, oldest first: what a read of those positions returns, held only once committed. */
  private readonly recent = new Map<bigint, RecordedEvent>();
  private scheduled: NodeJS.Immediate | null = null;
  /** A batch waits for its fsync: the next one gathers meanwhile, and commits when it is done. */
  private syncing = false;
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: SqliteEventStoreOptions = {},
  ) {
    this.deflate = options.deflate ?? (() => false);
    if (db.prepare("SELECT name FROM pragma_table_info('events')").pluck().all().includes('data')) migrateTextLog(db, this.deflate);
    db.exec(SCHEMA);
    const prepare = (text: string) => db.prepare(text).safeIntegers(true);
    const select = 'SELECT e.position, s.name, e.revision, e.at, e.body FROM events e JOIN streams s ON s.id = e.stream';
    this.sql = {
      stream: prepare('SELECT s.id, max(s.revision, coalesce((SELECT max(e.revision) FROM events e WHERE e.stream = s.id), -1)) AS revision FROM streams s WHERE s.name = ?'),
      newStream: prepare('INSERT INTO streams (name, revision) VALUES (?, -1)'),
      insert: prepare('INSERT INTO events (stream, revision, at, body) VALUES (?, ?, ?, ?)'),
      // A bound LIMIT has a cost even when it is -1, so a whole-stream read goes without.
      readStream: prepare(`${select} WHERE s.name = ? AND e.revision >= ? ORDER BY e.revision`),
      readStreamSome: prepare(`${select} WHERE s.name = ? AND e.revision >= ? ORDER BY e.revision LIMIT ?`),
      readStreamBack: prepare(`${select} WHERE s.name = ? AND e.revision <= ? ORDER BY e.revision DESC LIMIT ?`),
      readAll: prepare(`${select} WHERE e.position > ? ORDER BY e.position LIMIT ?`),
      // The last position ever given: pruning the newest events does not move the head back.
      head: prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck(),
      keepPruned: prepare(
        'UPDATE streams SET revision = max(revision, coalesce((SELECT max(e.revision) FROM events e WHERE e.stream = streams.id AND e.at < @before), -1)) WHERE name = @stream',
      ),
      prune: prepare('DELETE FROM events WHERE stream = (SELECT id FROM streams WHERE name = @stream) AND at < @before'),
    };
    this.streamRows = new StreamRows(db, this.sql.stream);
    this.pruneOne = db.transaction((stream: string, before: number) => {
      this.sql.keepPruned.run({ stream, before });
      return this.sql.prune.run({ stream, before }).changes;
    });
    this.appendOne = db.transaction((append: PendingAppend) => this.write(append));
    this.commitBatch = db.transaction((batch: PendingAppend[]) => {
      if (this.streamRows.begin()) this.options.inline?.forget?.();
      this.options.inline?.begin(this.headSync());
      const outcomes = batch.map((append): Outcome => {
        try {
          return { ok: true, result: this.appendOne(append) };
        } catch (error) {
          return { ok: false, error };
        }
      });
      this.options.inline?.end(this.headSync());
      return outcomes;
    });
  }

  appendToStream(stream: string, events: EventToAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('The event store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expectedRevision: options.expectedRevision ?? 'any', resolve, reject });
      this.schedule();
    });
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? -1;
    if (options.direction === 'backwards') {
      const from = options.fromRevision ?? 2n ** 63n - 1n;
      return (this.sql.readStreamBack.all(stream, from, limit) as EventRow[]).map((row) => toRecorded(row, this.deflate));
    }
    const from = options.fromRevision ?? 0n;
    const rows = options.maxCount === undefined ? this.sql.readStream.all(stream, from) : this.sql.readStreamSome.all(stream, from, limit);
    return (rows as EventRow[]).map((row) => toRecorded(row, this.deflate));
  }

  async streamRevision(stream: string): Promise<bigint | null> {
    const row = this.sql.stream.get(stream) as { revision: bigint } | undefined;
    return row && row.revision >= 0n ? row.revision : null;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = Math.max(0, options.maxCount ?? DEFAULT_READ_ALL_COUNT);
    return this.recentAfter(options.after ?? 0n, maxCount) ?? (this.sql.readAll.all(options.after ?? 0n, maxCount) as EventRow[]).map((row) => toRecorded(row, this.deflate));
  }

  /** The page after `after` from the events appended here, when they are every position up to the head (another process's appends are not). */
  private recentAfter(after: bigint, maxCount: number): RecordedEvent[] | null {
    if (!this.recent.has(after + 1n)) return null;
    const head = this.headSync() ?? 0n;
    const page: RecordedEvent[] = [];
    for (let position = after + 1n; position <= head && page.length < maxCount; position++) {
      const event = this.recent.get(position);
      if (!event) return null;
      page.push(event);
    }
    return page;
  }

  private remember(outcomes: Outcome[]): void {
    for (const outcome of outcomes) if (outcome.ok) for (const event of outcome.result.events) this.recent.set(event.position, event);
    for (const position of this.recent.keys()) {
      if (this.recent.size <= RECENT_KEPT) break;
      this.recent.delete(position);
    }
  }

  async headPosition(): Promise<bigint | null> {
    return this.headSync();
  }

  async *subscribeToAll({ after, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    let cursor = after ?? 0n;
    while (!signal.aborted && !this.closed) {
      const page = await this.readAll({ after: cursor, maxCount: SUBSCRIPTION_PAGE_SIZE });
      if (page.length === 0) await this.notifier.wait(signal, POLL_INTERVAL_MS);
      for (const event of page) {
        yield event;
        cursor = event.position;
        if (signal.aborted) return;
      }
    }
  }

  async pruneStream(stream: string, before: Date): Promise<number> {
    this.recent.clear();
    this.streamRows.clear();
    return this.pruneOne.immediate(stream, before.getTime());
  }

  /** Commits what is queued, answers its callers and ends subscriptions; the database handle belongs to its opener. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    while (this.queue.length > 0) await this.commitQueued();
    // The batch in flight is answered before the opener closes the database (and SQLite removes the WAL).
    await this.db.durable().catch(() => undefined);
    this.notifier.notify();
  }

  private headSync(): bigint | null {
    return (this.sql.head.get() as bigint | undefined) ?? null;
  }

  private schedule(): void {
    if (!this.syncing && this.queue.length > 0) this.scheduled ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = null;
    this.syncing = true;
    void this.commitQueued().finally(() => {
      this.syncing = false;
      this.schedule();
    });
  }

  /** Commits the next batch; settles once its callers are answered, after its fsync. */
  private commitQueued(): Promise<void> {
    const batch = this.queue.splice(0, MAX_APPENDS_PER_BATCH);
    let outcomes: Outcome[];
    try {
      outcomes = this.commitBatch.immediate(batch);
      this.remember(outcomes);
    } catch (error) {
      this.streamRows.clear();
      this.options.inline?.forget?.();
      this.failAll(batch, error);
      return Promise.resolve();
    }
    return this.db.durable().then(
      () => {
        outcomes.forEach((outcome, index) => (outcome.ok ? batch[index].resolve(outcome.result) : batch[index].reject(outcome.error)));
        this.notifier.notify();
      },
      (error: unknown) => this.failAll(batch, error),
    );
  }

  private failAll(batch: PendingAppend[], error: unknown): void {
    const failure = new StoreUnavailableError('The event store could not commit', error);
    for (const append of batch) append.reject(failure);
  }

  /** One append, inside its savepoint. */
  private write({ stream, events, expectedRevision }: PendingAppend): AppendResult {
    const row = this.streamRows.get(stream);
    const current = row && row.revision >= 0n ? row.revision : null;
    checkExpectedRevision(stream, expectedRevision, current);
    if (events.length === 0) return { nextRevision: current ?? -1n, position: this.headSync() ?? 0n, events: [] };
    const id = row ? row.id : BigInt(this.sql.newStream.run(stream).lastInsertRowid);
    let revision = current ?? -1n;
    const recorded: RecordedEvent[] = [];
    for (const event of events) {
      revision += 1n;
      const text = JSON.stringify([event.type, event.data, event.metadata]);
      const at = Date.parse(event.metadata.occurredAt);
      // What a read returns, not the caller's objects.
      const [type, data, metadata] = JSON.parse(text) as ReturnType<typeof decodeBody>;
      const body = encodeBody(this.deflate, stream, text, { type, data, metadata, at });
      const position = BigInt(this.sql.insert.run(id, revision, Number.isNaN(at) ? 0 : at, body).lastInsertRowid);
      recorded.push({ stream, revision, position, type, data, metadata });
    }
    this.options.inline?.apply(recorded);
    const last = recorded[recorded.length - 1];
    this.streamRows.set(stream, id, last.revision);
    return { nextRevision: last.revision, position: last.position, events: recorded };
  }
}

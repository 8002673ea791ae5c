import { Clock } from '../../core/src/clock';
import { Decider } from '../../core/src/decider';
import { ConcurrencyError, PreconditionFailedError } from '../../core/src/errors';
import { Actor, asDecided, DomainEvent, EventMetadata, RecordedEvent } from '../../core/src/event';
import { EventStore } from './event-store.port';

export type { Actor } from '../../core/src/event';

/**
 * Told about every append so read models can follow at once (read-your-writes). `history` is what the
 * command read of the stream: all of it, or after a snapshot only the events after the snapshot's
 * revision (often none); null when unknown.
 */
interface AppendObserver {
  applyAfterAppend(history: RecordedEvent[] | null, appended: RecordedEvent[]): Promise<void>;
}

/** Counts the events appended, by the type of their stream (the app's Prometheus counter). */
interface AppendCounter {
  inc(labels: { stream_type: string }, value: number): void;
}

/** `heartbeat-0190…` → `heartbeat`: a bounded label, with no id in it. */
export function streamType(stream: string): string {
  const dash = stream.indexOf('-');
  return dash > 0 ? stream.slice(0, dash) : 'other';
}

/** A stored state and the stream revision it reflects (a read-model document), or null to fold the whole stream. */
export type SnapshotLoader<State> = () => Promise<{ state: State; revision: bigint } | null>;

/**
 * A retry of a request that may already have written (an Idempotency-Key whose earlier attempts ended
 * without an answer): the requests of those attempts, and per stream how many of their events this
 * attempt's commands found as theirs.
 */
export interface RetryScope {
  priorRequestIds: ReadonlySet<string>;
  runs: Map<string, number>;
}

/** The retry the current command belongs to, if any. */
export interface RetryContext {
  current(): RetryScope | undefined;
}

interface RunOptions<State = unknown> {
  /** The client's If-Match: a mismatch is a 412 and nothing is written. */
  ifMatch?: bigint;
  /** Starts from this snapshot and folds only the events after it; a stale one costs a second decision. */
  snapshot?: SnapshotLoader<State>;
}

export interface RunResult<State, Event extends DomainEvent = DomainEvent> {
  state: State;
  /** Revision of the stream after the command (null: the stream still does not exist). */
  revision: bigint | null;
  /** The decided events as stored, typed like `decided`. */
  appended: RecordedEvent<Event>[];
  /** What the decider decided, typed, in the order appended. */
  decided: Event[];
}

const MAX_ATTEMPTS = 20;
/** Upper bound of the random pause before a retry; it grows with each attempt up to this. */
const MAX_BACKOFF_MS = 100;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one way commands reach the event store: read the stream, fold, decide, append with the
 * revision just read. A conflict without If-Match means another writer got there first: read again
 * and decide again, so concurrent writes are applied one after another and none is lost.
 * Commands on one stream run one after another inside this process (with group commit, N
 * concurrent writers would otherwise land one per batch and need N attempts); conflicts with other
 * processes are retried after a random, growing pause so that they spread out.
 */
export class CommandRunner {
  /** Per stream, the end of the queue of this process's commands on it. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly observer: AppendObserver,
    private readonly appended?: AppendCounter,
    private readonly retries?: RetryContext,
  ) {}

  async run<State, Command, Event extends DomainEvent>(
    stream: string,
    decider: Decider<State, Command, Event>,
    command: Command,
    actor: Actor,
    options: RunOptions<State> = {},
  ): Promise<RunResult<State, Event>> {
    const retry = this.retries?.current();
    if (!retry) return this.serialized(stream, () => this.attempt(stream, decider, command, actor, options));
    return this.serialized(stream, async () => (await this.replayed(stream, decider, command, retry)) ?? this.attempt(stream, decider, command, actor, { ...options, snapshot: undefined }));
  }

  /**
   * A command of a retried request finds what an earlier attempt appended for it, instead of writing it
   * again: the earlier attempts' events on the stream not yet claimed by this attempt's previous commands,
   * as many as the command decides on the state before them, if their types match. The read models are
   * caught up on them.
   */
  private async replayed<State, Command, Event extends DomainEvent>(stream: string, decider: Decider<State, Command, Event>, command: Command, retry: RetryScope): Promise<RunResult<State, Event> | null> {
    const claimed = retry.runs.get(stream) ?? 0;
    const history = await this.store.readStream(stream);
    const prior = history.flatMap((event, index) => (event.metadata.requestId && retry.priorRequestIds.has(event.metadata.requestId) ? [index] : []));
    if (claimed >= prior.length) return null;
    const start = prior[claimed];
    let state = decider.initialState();
    for (const event of history.slice(0, start)) state = decider.evolve(state, asDecided<Event>(event));
    let decided: Event[];
    try {
      decided = decider.decide(command, state);
    } catch {
      return null;
    }
    const appended = history.slice(start, start + decided.length);
    const same = decided.length > 0 && appended.length === decided.length && appended.every((event, i) => prior[claimed + i] === start + i && event.type === decided[i].type);
    if (!same) return null;
    retry.runs.set(stream, claimed + decided.length);
    await this.observer.applyAfterAppend(history.slice(0, start), appended);
    for (const event of appended) state = decider.evolve(state, asDecided<Event>(event));
    const typed = appended.map((event) => asDecided<RecordedEvent<Event>>(event));
    return { state, revision: appended[appended.length - 1].revision, appended: typed, decided: appended.map((event) => asDecided<Event>(event)) };
  }

  private serialized<T>(stream: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(stream) ?? Promise.resolve();
    const current = previous.then(work);
    const tail = current.catch(() => undefined);
    this.queues.set(stream, tail);
    void tail.then(() => {
      if (this.queues.get(stream) === tail) this.queues.delete(stream);
    });
    return current;
  }

  private async attempt<State, Command, Event extends DomainEvent>(
    stream: string,
    decider: Decider<State, Command, Event>,
    command: Command,
    actor: Actor,
    options: RunOptions<State>,
  ): Promise<RunResult<State, Event>> {
    for (let attempt = 1; ; attempt++) {
      const snapshot = (await options.snapshot?.()) ?? null;
      // A first attempt trusts its snapshot when it appends: the append's expected revision tells a stale one.
      const trusted = snapshot !== null && attempt === 1 && options.ifMatch === undefined;
      // Otherwise the stream's revision alone (one row) says whether the snapshot is current.
      const behind = snapshot === null || (!trusted && (await this.store.streamRevision(stream)) !== snapshot.revision);
      const history = !behind ? [] : await this.store.readStream(stream, snapshot ? { fromRevision: snapshot.revision + 1n } : undefined);
      let state = snapshot ? snapshot.state : decider.initialState();
      let revision = snapshot ? snapshot.revision : null;
      for (const event of history) {
        state = decider.evolve(state, asDecided<Event>(event));
        revision = event.revision;
      }
      // Decided before the If-Match check, so that a missing or foreign aggregate is a 404, never a
      // 412 that would tell the caller it exists.
      let events: Event[];
      try {
        events = decider.decide(command, state);
      } catch (error) {
        if (trusted && (await this.store.streamRevision(stream)) !== revision) continue;
        throw error;
      }
      if (options.ifMatch !== undefined && options.ifMatch !== revision) throw new PreconditionFailedError();
      if (events.length === 0) {
        // Nothing decided on a snapshot nothing checked: decide again if the stream has moved past it.
        if (trusted && (await this.store.streamRevision(stream)) !== revision) continue;
        return { state, revision, appended: [], decided: [] };
      }

      const metadata: EventMetadata = {
        accountId: actor.accountId,
        keyId: actor.keyId ?? null,
        keyName: actor.keyName ?? null,
        requestId: actor.requestId ?? null,
        occurredAt: this.clock.now().toISOString(),
        // Only when a person acts: events of keys and background work keep their shape.
        ...(actor.userId ? { userId: actor.userId } : {}),
      };
      try {
        const result = await this.store.appendToStream(
          stream,
          events.map((e) => ({ type: e.type, data: e.data, metadata })),
          { expectedRevision: revision ?? 'no_stream' },
        );
        this.appended?.inc({ stream_type: streamType(stream) }, result.events.length);
        await this.observer.applyAfterAppend(history, result.events);
        const appended = result.events.map((event) => asDecided<RecordedEvent<Event>>(event));
        // The events as decided: what was stored, without the store's envelope.
        for (const event of events) state = decider.evolve(state, event);
        return { state, revision: result.nextRevision, appended, decided: events };
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        if (options.ifMatch !== undefined) throw new PreconditionFailedError();
        if (attempt >= MAX_ATTEMPTS) throw error;
        // A stale snapshot is no contention: decide again at once, on the stream.
        if (!trusted) await pause(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
      }
    }
  }

  /** Reads an aggregate's state without deciding anything. */
  async load<State, Event extends DomainEvent>(
    stream: string,
    decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
    until?: Date,
  ): Promise<{ state: State; revision: bigint | null; events: RecordedEvent[] }> {
    const history = await this.store.readStream(stream);
    let state = decider.initialState();
    let revision: bigint | null = null;
    const used: RecordedEvent[] = [];
    for (const event of history) {
      if (until && new Date(event.metadata.occurredAt).getTime() > until.getTime()) break;
      state = decider.evolve(state, asDecided<Event>(event));
      revision = event.revision;
      used.push(event);
    }
    return { state, revision, events: used };
  }
}

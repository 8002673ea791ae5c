import type * as Esdb from '@eventstore/db-client';
import { ConcurrencyError, StoreUnavailableError } from '../../core/src/errors';
import { ExpectedRevision } from './event-store.port';
import { withDeadline } from '../../core/src/deadline';

/** gRPC's own deadline fires first; this margin only catches calls the client never put a deadline on. */
const WATCHDOG_GRACE_MS = 100;
/** How long `close()` and a client replacement wait for the client's open calls to finish cancelling. */
const DISPOSE_WAIT_MS = 1_500;
const GRPC_INTERNAL = 13;

export type EsdbModule = typeof Esdb;
type EsdbClient = Esdb.EventStoreDBClient;

/**
 * One EventStoreDB client under deadlines. Every call runs under `deadline` and fails with
 * StoreUnavailableError when the server does not answer in time:
 * 1. reads and unary calls carry the deadline to gRPC, which cancels them on the server too;
 * 2. every read ends its call (cancelled, what it buffered drained), so a read that stops early leaks
 *    no call and no buffers;
 * 3. a watchdog catches what the client sends without one (method discovery, the shared batch-append
 *    stream): the call is abandoned and the client replaced, so a stuck discovery or stream cannot
 *    block later calls once the server is back.
 */
export class EsdbConnection {
  private client: EsdbClient;
  /** Set while a replaced client is being disposed; calls wait for it (see `replaceClient`). */
  private replacing: Promise<void> | null = null;
  private closed = false;
  /** Clients that made a call, and so may hold a channel to close. */
  private readonly opened = new WeakSet<EsdbClient>();
  /** Clients closed or replaced: their reads end early and must not pass for complete. */
  private readonly retired = new WeakSet<EsdbClient>();

  constructor(
    readonly esdb: EsdbModule,
    private readonly connectionString: string,
    readonly deadline: number,
  ) {
    this.client = esdb.EventStoreDBClient.connectionString(connectionString);
  }

  /** The client for an open-ended call (a subscription), once no replacement is under way. */
  async current(): Promise<EsdbClient> {
    await this.replacing;
    return this.client;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.replacing;
    this.retired.add(this.client);
    await disposeClient(this.client, this.opened.has(this.client));
  }

  /**
   * Reads to the end or until `onEvent` returns false, then cancels the call: an early stop would
   * otherwise leave the gRPC call open with its buffered events. Resolves false when the stream does not exist.
   */
  async consume<E>(
    open: (client: EsdbClient) => Esdb.StreamingRead<E>,
    onEvent: (event: E) => boolean | void,
  ): Promise<boolean> {
    try {
      await this.call(async (client, expired) => {
        const read = open(client);
        const cancel = (): void => void read.cancel().catch(() => undefined);
        expired.addEventListener('abort', cancel, { once: true });
        let stopped = false;
        try {
          // Not destroyed on an early stop: see the `finally` below.
          for await (const event of read.iterator({ destroyOnReturn: false }) as AsyncIterable<E>) {
            if (onEvent(event) === false) {
              stopped = true;
              break;
            }
          }
          // The client ends a read it cancelled (on close or replacement) as if the stream had ended.
          if (!stopped && this.retired.has(client)) throw new StoreUnavailableError('EventStoreDB read was cut short');
        } finally {
          expired.removeEventListener('abort', cancel);
          await read.cancel().catch(() => undefined);
          // Discarding what was buffered lets the call's stream end, so the client stops tracking it
          // (a destroyed read would leave it paused, unfinished, and held by the client until close).
          read.resume();
        }
      });
      return true;
    } catch (error) {
      if (error instanceof this.esdb.StreamNotFoundError) return false;
      throw error;
    }
  }

  /**
   * Runs one call on the current client under the deadline (plus a small grace, see WATCHDOG_GRACE_MS).
   * A call that outlives it is abandoned: `expired` aborts, the client is replaced, and the caller gets
   * StoreUnavailableError.
   */
  async call<T>(
    operation: (client: EsdbClient, expired: AbortSignal) => Promise<T>,
    conflict?: { stream: string; expected: ExpectedRevision },
  ): Promise<T> {
    if (this.closed) throw new StoreUnavailableError('The event store is closed');
    await this.replacing;
    const client = this.client;
    this.opened.add(client);
    const expired = new AbortController();
    const running = operation(client, expired.signal);
    try {
      // An abandoned call may still settle later; nobody waits for it.
      return await withDeadline(running, this.deadline + WATCHDOG_GRACE_MS, () => {
        expired.abort();
        return new StoreUnavailableError(`EventStoreDB did not answer within ${this.deadline} ms`);
      });
    } catch (error) {
      if (expired.signal.aborted) this.replaceClient(client);
      // Whatever a call on a closed or replaced client failed with, the cause is that the store was unreachable.
      if (this.retired.has(client) && !(error instanceof StoreUnavailableError)) {
        throw new StoreUnavailableError('EventStoreDB is unavailable', error);
      }
      throw this.toStoreError(error, conflict?.stream, conflict?.expected);
    }
  }

  /**
   * Swaps in a fresh client after `stale` missed a deadline. The stale one is disposed before any call
   * uses the new one: its batch-append stream settles appends through state the client shares across
   * instances, so the two must not overlap.
   */
  private replaceClient(stale: EsdbClient): void {
    if (this.client !== stale || this.closed) return;
    this.retired.add(stale);
    this.client = this.esdb.EventStoreDBClient.connectionString(this.connectionString);
    const replacing = disposeClient(stale, true).finally(() => {
      if (this.replacing === replacing) this.replacing = null;
    });
    this.replacing = replacing;
  }

  toStoreError(raw: unknown, stream?: string, expected?: ExpectedRevision): unknown {
    if (raw instanceof StoreUnavailableError) return raw;
    const esdb = this.esdb;
    // Some paths (batch append) reject with the bare gRPC error; the client knows how to type it.
    const error = raw instanceof Error ? esdb.convertToCommandError(raw) : raw;
    if (error instanceof esdb.WrongExpectedVersionError && stream !== undefined && expected !== undefined) {
      return new ConcurrencyError(stream, String(expected), String(error.actualVersion));
    }
    if (error instanceof esdb.StreamNotFoundError) return error;
    if (
      error instanceof esdb.UnavailableError ||
      error instanceof esdb.DeadlineExceededError ||
      error instanceof esdb.TimeoutError ||
      error instanceof esdb.NotLeaderError ||
      // A call cancelled under us: the client was replaced or closed after a deadline.
      error instanceof esdb.CancelledError ||
      // INTERNAL: the HTTP/2 session under the call was reset or closed (a server restart, a proxy).
      (error as { code?: unknown } | null)?.code === GRPC_INTERNAL
    ) {
      return new StoreUnavailableError('EventStoreDB is unavailable', error);
    }
    return error;
  }
}

/**
 * Cancels the client's open calls and closes its channel (the client's own `dispose` leaves the channel
 * and any unary call open), waiting at most DISPOSE_WAIT_MS for each.
 */
async function disposeClient(client: EsdbClient, opened: boolean): Promise<void> {
  await within(client.dispose(), DISPOSE_WAIT_MS);
  if (!opened) return;
  // Not in the client's typings: the channel it opened on first use.
  const internals = client as unknown as { getChannel?: () => Promise<{ close(): void }> };
  if (typeof internals.getChannel !== 'function') return;
  const channel = await within(internals.getChannel(), DISPOSE_WAIT_MS);
  channel?.close();
}

/** The promise's value, or undefined once `ms` have passed or when it rejects. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return withDeadline(promise, ms, () => new Error('gave up')).catch(() => undefined);
}

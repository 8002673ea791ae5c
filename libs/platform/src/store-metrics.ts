import { StoreUnavailableError, ConcurrencyError } from '../../core/src/errors';
import { EventStore } from '../../event-store/src/event-store.port';
import { ReadStore } from '../../read-store/src/read-store.port';
import { Metrics } from './metrics';

const EVENT_STORE_CALLS = ['appendToStream', 'readStream', 'streamRevision', 'readAll', 'headPosition', 'pruneStream'] as const;
const READ_STORE_CALLS = ['ensureCollection', 'dropCollection', 'get', 'getMany', 'find', 'count', 'put', 'delete', 'getCheckpoint', 'setCheckpoint', 'getMeta', 'setMeta'] as const;

type Store = 'event' | 'read';

/** `heartbeat-0190…` → `heartbeat`: a bounded label, with no id in it. */
export function streamType(stream: string): string {
  const dash = stream.indexOf('-');
  return dash > 0 ? stream.slice(0, dash) : 'other';
}

function errorKind(error: unknown): string {
  if (error instanceof StoreUnavailableError) return 'unavailable';
  if (error instanceof ConcurrencyError) return 'conflict';
  return 'other';
}

/**
 * Counts events appended (by stream type) in every deployment, and in production times every store
 * call and counts its errors. The embedded stores answer in-process in microseconds, on the ping path:
 * their calls are not timed.
 */
export class StoreMetrics {
  private readonly appended;
  private readonly durations;
  private readonly errors;

  constructor(metrics: Metrics) {
    this.appended = metrics.counter('vigil_events_appended_total', 'Events appended to the event store, by stream type', ['stream_type']);
    this.durations = metrics.histogram('vigil_store_call_duration_seconds', 'Duration of production store calls, by store and operation', ['store', 'operation']);
    this.errors = metrics.counter('vigil_store_call_errors_total', 'Failed store calls, by store, operation and kind (unavailable, conflict, other)', ['store', 'operation', 'kind']);
  }

  /** The event store with its appends counted and, when `timed`, every call timed. */
  eventStore<S extends EventStore>(store: S, timed: boolean): S {
    const overrides = this.timedCalls(store, 'event', timed ? EVENT_STORE_CALLS : []);
    const append = (overrides.get('appendToStream') ?? store.appendToStream.bind(store)) as EventStore['appendToStream'];
    const appended = this.appended;
    overrides.set('appendToStream', async (stream: string, events: Parameters<EventStore['appendToStream']>[1], options?: Parameters<EventStore['appendToStream']>[2]) => {
      const result = await append(stream, events, options);
      appended.inc({ stream_type: streamType(stream) }, result.events.length);
      return result;
    });
    return delegate(store, overrides);
  }

  /** The read store with every call timed. */
  readStore<S extends ReadStore>(store: S): S {
    return delegate(store, this.timedCalls(store, 'read', READ_STORE_CALLS));
  }

  private timedCalls(store: object, kind: Store, calls: readonly string[]): Map<PropertyKey, unknown> {
    const overrides = new Map<PropertyKey, unknown>();
    for (const name of calls) {
      const method = (store as Record<string, unknown>)[name];
      if (typeof method !== 'function') continue;
      const labels = { store: kind, operation: name };
      overrides.set(name, async (...args: unknown[]) => {
        const end = this.durations.startTimer(labels);
        try {
          return await (method as (...a: unknown[]) => Promise<unknown>).apply(store, args);
        } catch (error) {
          this.errors.inc({ ...labels, kind: errorKind(error) });
          throw error;
        } finally {
          end();
        }
      });
    }
    return overrides;
  }
}

/**
 * The store itself for everything but `overrides`: methods run with the store as `this` (its state
 * stays in one object), and `instanceof` still sees the adapter's class.
 */
function delegate<S extends object>(store: S, overrides: Map<PropertyKey, unknown>): S {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (overrides.has(property)) return overrides.get(property);
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (method === undefined) bound.set(property, (method = value.bind(target)));
      return method;
    },
  });
}

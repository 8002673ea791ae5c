import { StoreUnavailableError, ConcurrencyError } from '../../core/src/errors';
import { EventStore } from '../../event-store/src/event-store.port';
import { ReadStore } from '../../read-store/src/read-store.port';
import { Metrics } from './metrics';

const EVENT_STORE_CALLS = ['appendToStream', 'readStream', 'streamRevision', 'readAll', 'headPosition', 'pruneStream'] as const;
const READ_STORE_CALLS = ['ensureCollection', 'dropCollection', 'get', 'getMany', 'getManyOf', 'find', 'count', 'put', 'delete', 'writeMany', 'writeAll', 'getCheckpoint', 'setCheckpoint', 'setCheckpoints', 'getMeta', 'setMeta'] as const;

type Store = 'event' | 'read';

function errorKind(error: unknown): string {
  if (error instanceof StoreUnavailableError) return 'unavailable';
  if (error instanceof ConcurrencyError) return 'conflict';
  return 'other';
}

/**
 * Times every production store call and counts its errors. The embedded stores answer in-process, on
 * the ping path: timing them would cost more than the call (appends are counted by the command runner).
 */
export class StoreMetrics {
  private readonly durations;
  private readonly errors;

  constructor(metrics: Metrics) {
    this.durations = metrics.histogram('vigil_store_call_duration_seconds', 'Duration of production store calls, by store and operation', ['store', 'operation']);
    this.errors = metrics.counter('vigil_store_call_errors_total', 'Failed store calls, by store, operation and kind (unavailable, conflict, other)', ['store', 'operation', 'kind']);
  }

  /** The event store with every call timed. */
  eventStore<S extends EventStore>(store: S): S {
    return delegate(store, this.timedCalls(store, 'event', EVENT_STORE_CALLS));
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

import { StoreUnavailableError } from '../../core/src/errors';
import { EventStore } from '../../event-store/src/event-store.port';
import { ReadStore } from '../../read-store/src/read-store.port';

export type StoreKind = 'event' | 'read';

const CALLS: Record<StoreKind, readonly string[]> = {
  event: ['appendToStream', 'readStream', 'streamRevision', 'readAll', 'headPosition', 'subscribeToAll', 'pruneStream'],
  read: ['ensureCollection', 'dropCollection', 'get', 'getMany', 'getManyOf', 'readBatch', 'find', 'count', 'put', 'delete', 'writeMany', 'writeAll', 'getCheckpoint', 'setCheckpoint', 'setCheckpoints', 'getMeta', 'setMeta'],
};

export interface CallCounts {
  event: number;
  read: number;
  /** `read.find` → calls, for messages that say where a budget went. */
  byCall: Record<string, number>;
  /** `read.find api_keys_v1_g1` → calls of one method on one collection (read-store calls naming one). */
  byCollection: Record<string, number>;
}

/**
 * A counting and fault-injecting wrapper around the real store adapters, at the ports: every call the
 * app makes to a store is one round trip in production (the adapters batch nothing behind the port).
 * `failNext` makes the next calls of one method throw what a store that stopped answering throws.
 */
export class StoreProbe {
  private readonly counts = new Map<string, number>();
  private readonly perCollection = new Map<string, number>();
  private readonly faults: { key: string; remaining: number }[] = [];

  wrapEventStore<S extends EventStore>(store: S): S {
    return this.wrap('event', store);
  }

  wrapReadStore<S extends ReadStore>(store: S): S {
    return this.wrap('read', store);
  }

  /** The next `times` calls of `kind.method` fail with StoreUnavailableError, after being counted. */
  failNext(kind: StoreKind, method: string, times = 1): void {
    if (!CALLS[kind].includes(method)) throw new Error(`${kind} store has no ${method}`);
    this.faults.push({ key: `${kind}.${method}`, remaining: times });
  }

  /** Calls counted since the last reset. */
  snapshot(): CallCounts {
    const byCall: Record<string, number> = {};
    let event = 0;
    let read = 0;
    for (const [key, count] of this.counts) {
      byCall[key] = count;
      if (key.startsWith('event.')) event += count;
      else read += count;
    }
    return { event, read, byCall, byCollection: Object.fromEntries(this.perCollection) };
  }

  reset(): void {
    this.counts.clear();
    this.perCollection.clear();
  }

  /** Counts the calls `work` makes (nothing else may use the stores meanwhile). */
  async measure<T>(work: () => Promise<T>): Promise<{ result: T; calls: CallCounts }> {
    this.reset();
    const result = await work();
    return { result, calls: this.snapshot() };
  }

  private wrap<S extends object>(kind: StoreKind, store: S): S {
    const bound = new Map<PropertyKey, unknown>();
    return new Proxy(store, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        let method = bound.get(property);
        if (method === undefined) {
          const key = `${kind}.${String(property)}`;
          const counted = typeof property === 'string' && CALLS[kind].includes(property);
          method = counted ? (...args: unknown[]) => this.call(key, args[0], () => (value as (...a: unknown[]) => unknown).apply(target, args)) : value.bind(target);
          bound.set(property, method);
        }
        return method;
      },
    });
  }

  private call(key: string, first: unknown, invoke: () => unknown): unknown {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (key.startsWith('read.') && typeof first === 'string') this.perCollection.set(`${key} ${first}`, (this.perCollection.get(`${key} ${first}`) ?? 0) + 1);
    const fault = this.faults.find((f) => f.key === key && f.remaining > 0);
    if (fault) {
      fault.remaining--;
      if (key === 'event.subscribeToAll') throw new StoreUnavailableError();
      return Promise.reject(new StoreUnavailableError());
    }
    return invoke();
  }
}

import { Injectable } from '@nestjs/common';

/** Bounds of what the cache holds; the oldest entries go first. */
const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  token: string;
  /** Last instant (ms) at which the clock alone cannot change the answer. */
  validUntil: number;
  value: unknown;
  bytes: number;
}

/** What a build returns: the answer, its size, and until when time alone leaves it right (default: forever). */
export interface Built<T> {
  value: T;
  bytes: number;
  /** False: not kept (an error page, say). */
  keep?: boolean;
  validUntil?: number;
}

/**
 * Vigil's one answer cache, for the GET routes whose benchmark targets need it (docs/benchmarks.md): the
 * public page, the status page list, a service. A route asks it after Nest's guards, with a key of its own
 * making (the account, the route and the parameters it reads: never the raw URL) and a change token of
 * everything the answer is built from (`ReadStore.changeToken`). An entry is served only while the token is
 * unchanged and its time has not run out, so a write through this process shows on the very next request and
 * one through another process within the store's poll interval. A store that cannot tell changes gives a null
 * token: then every answer is built, by the same code.
 */
@Injectable()
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** The kept answer under `key` while `token` holds, else `build()`'s (kept when it may be). The token is read before the build reads anything. */
  async answer<T>(key: string, token: string | null, now: number, build: () => Promise<Built<T>>): Promise<T> {
    if (token !== null) {
      const entry = this.entries.get(key);
      if (entry && entry.token === token && now <= entry.validUntil) return entry.value as T;
    }
    const built = await build();
    if (token !== null && built.keep !== false) this.keep(key, { token, validUntil: built.validUntil ?? Number.POSITIVE_INFINITY, value: built.value, bytes: built.bytes });
    return built.value;
  }

  private keep(key: string, entry: Entry): void {
    this.drop(key);
    if (entry.validUntil < 0 || entry.bytes > MAX_BYTES) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    while (this.entries.size > MAX_ENTRIES || this.bytes > MAX_BYTES) this.drop(this.entries.keys().next().value as string);
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.bytes;
  }
}

/** A JSON answer kept as UTF-8 bytes (written to the socket as they are) with its resource's revision (the ETag). */
interface KeptJson {
  json: Buffer;
  revision: bigint | null;
}

export function keptJson(body: unknown, revision: bigint | null = null): Built<KeptJson> {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  return { value: { json, revision }, bytes: json.length };
}

import { Injectable } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { setEtag } from './etag';

/** What a cacheable GET builds: the body to serialize and, for a single resource, its revision (the ETag). */
export interface BuiltResponse {
  body: unknown;
  revision?: bigint | null;
}

interface Entry {
  token: string;
  /** UTF-8 bytes: written to the socket as they are, with no length to count and nothing to encode per request. */
  json: Buffer;
  revision: bigint | null;
  bytes: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Answers larger than this are built every time rather than crowding out many smaller ones. */
const MAX_ENTRY_BYTES = 1024 * 1024;

/**
 * The serialized answers of hot GET routes, each kept beside the read store's change token of the
 * collections it was built from (`ReadStore.changeToken`). An entry is served only while that token
 * is unchanged, so a write through this process is seen by the very next request and a write by
 * another process within the store's poll interval. Keys carry the account, so answers never cross
 * accounts; the least recently used entries go first once `maxBytes` of text is held.
 */
@Injectable()
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private hitCount = 0;
  private missCount = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /**
   * The JSON text of the answer under `key`: the kept one while `token` matches, otherwise `build()`'s,
   * serialized once and kept (never kept when `token` is null: the store cannot tell what changed).
   * The token must be read before anything `build` reads, so a write racing with a build can only
   * leave an entry that is newer than its token, never older. Errors thrown by `build` are not kept.
   */
  async json(reply: FastifyReply, key: string, token: string | null, build: () => Promise<BuiltResponse>): Promise<Buffer | string> {
    void reply.type(JSON_TYPE);
    if (token !== null) {
      const entry = this.entries.get(key);
      if (entry && entry.token === token) {
        this.hitCount += 1;
        // Most recently used last: Map iteration order is insertion order.
        this.entries.delete(key);
        this.entries.set(key, entry);
        setEtag(reply, entry.revision);
        return entry.json;
      }
    }
    this.missCount += 1;
    const built = await build();
    const json = JSON.stringify(built.body);
    const revision = built.revision ?? null;
    setEtag(reply, revision);
    if (token === null) return json;
    const bytes = Buffer.from(json, 'utf8');
    this.keep(key, { token, json: bytes, revision, bytes: bytes.length });
    return bytes;
  }

  get stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hitCount, misses: this.missCount };
  }

  private keep(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    if (entry.bytes > MAX_ENTRY_BYTES || entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, { bytes }] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= bytes;
    }
  }
}

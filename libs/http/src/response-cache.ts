import { Injectable } from '@nestjs/common';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setEtag } from './etag';

/** What a cacheable GET builds: the body to serialize and, for a single resource, its revision (the ETag). */
export interface BuiltResponse {
  body: unknown;
  revision?: bigint | null;
}

/** A GET route whose answers are kept: the answer is the same for the same account and URL while `token()` is. */
export interface KeptRoute {
  /** Changes whenever anything the answer is built from may have (ReadStore.changeToken); null: keep nothing. */
  token(): string | null;
  /** Whether this request's answer may be kept at all (say, not one that asks for a past state). Default: yes. */
  keeps?(request: FastifyRequest): boolean;
}

interface Entry {
  token: string;
  /** UTF-8 bytes: written to the socket as they are, with no length to count and nothing to encode per request. */
  json: Buffer;
  revision: bigint | null;
  bytes: number;
  /** Read since eviction last passed it: it gets a second chance (the CLOCK approximation of LRU). */
  used: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Answers larger than this are built every time rather than crowding out many smaller ones. */
const MAX_ENTRY_BYTES = 1024 * 1024;

/**
 * The serialized answers of hot GET routes, each kept beside the read store's change token of the
 * collections it was built from (`ReadStore.changeToken`). An entry is served only while that token
 * is unchanged, so a write through this process is seen by the very next request and a write by
 * another process within the store's poll interval. Keys are the account and the URL, so answers never
 * cross accounts; once `maxBytes` are held, entries not read since eviction last passed them go first
 * (second chance: a hit only sets a flag, where strict LRU would reorder the whole map on every read).
 *
 * Kept answers are served twice over: by the route's own handler (`answer`), and before Nest routes
 * the request at all (`installKeptAnswers`), when the caller's key is known at once.
 */
@Injectable()
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly routes = new Map<string, KeptRoute>();
  /** Builds under way, by key: concurrent misses of one answer wait for one build instead of each making their own. */
  private readonly building = new Map<string, { token: string; done: Promise<Entry> }>();
  private bytes = 0;
  private hitCount = 0;
  private missCount = 0;
  private earlyCount = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** Declares the GET route at `path` (as the router spells it: `/v1/things/:thingId`) as one whose answers are kept. */
  keep(path: string, route: KeptRoute): KeptRoute {
    this.routes.set(path, route);
    return route;
  }

  /** Paths declared with `keep`, for checking that each one is a real route. */
  keptPaths(): string[] {
    return [...this.routes.keys()];
  }

  /**
   * The answer to this request of `route`: the kept one while the route's token matches, otherwise
   * `build()`'s, serialized once and kept (never kept when the token is null or the route does not keep
   * this request). The token is read before anything `build` reads, so a write racing with a build can
   * only leave an entry newer than its token, never older. Errors thrown by `build` are not kept.
   */
  async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: string,
    route: KeptRoute,
    build: () => Promise<BuiltResponse>,
  ): Promise<Buffer | string> {
    void reply.type(JSON_TYPE);
    const { key, token } = this.lookup(request, accountId, route);
    if (token !== null) {
      const entry = this.hit(key, token);
      if (entry) {
        setEtag(reply, entry.revision);
        return entry.json;
      }
    }
    this.missCount += 1;
    if (token === null) {
      const built = await build();
      setEtag(reply, built.revision ?? null);
      return JSON.stringify(built.body);
    }
    const entry = await this.buildOnce(key, token, build);
    setEtag(reply, entry.revision);
    return entry.json;
  }

  private buildOnce(key: string, token: string, build: () => Promise<BuiltResponse>): Promise<Entry> {
    const pending = this.building.get(key);
    if (pending && pending.token === token) return pending.done;
    const done = build().then((built) => {
      const json = Buffer.from(JSON.stringify(built.body), 'utf8');
      const entry: Entry = { token, json, revision: built.revision ?? null, bytes: json.length, used: false };
      this.store(key, entry);
      return entry;
    });
    const mine = { token, done };
    this.building.set(key, mine);
    const forget = () => {
      if (this.building.get(key) === mine) this.building.delete(key);
    };
    done.then(forget, forget);
    return done;
  }

  /** Sends the kept answer to this request if there is one and it is current; false leaves the request to its route. */
  sendKept(request: FastifyRequest, reply: FastifyReply, accountId: string): boolean {
    const route = this.routes.get(request.routeOptions.url ?? '');
    if (!route) return false;
    const { key, token } = this.lookup(request, accountId, route);
    const entry = token === null ? undefined : this.hit(key, token);
    if (!entry) return false;
    this.earlyCount += 1;
    void reply.type(JSON_TYPE);
    setEtag(reply, entry.revision);
    void reply.send(entry.json);
    return true;
  }

  isKeptRoute(request: FastifyRequest): boolean {
    return request.method === 'GET' && this.routes.has(request.routeOptions.url ?? '');
  }

  get stats(): { entries: number; bytes: number; hits: number; misses: number; servedBeforeRouting: number } {
    return { entries: this.entries.size, bytes: this.bytes, hits: this.hitCount, misses: this.missCount, servedBeforeRouting: this.earlyCount };
  }

  /** Where this request's answer is kept, and the token it must carry (null: never kept). */
  private lookup(request: FastifyRequest, accountId: string, route: KeptRoute): { key: string; token: string | null } {
    return { key: `${accountId} ${request.url}`, token: route.keeps && !route.keeps(request) ? null : route.token() };
  }

  private hit(key: string, token: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.token !== token) return undefined;
    this.hitCount += 1;
    entry.used = true;
    return entry;
  }

  private store(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    if (entry.bytes > MAX_ENTRY_BYTES || entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    // Map iteration is insertion order: oldest first; a used entry moves to the end with its flag cleared.
    while (this.bytes > this.maxBytes) {
      const [oldest, candidate] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldest);
      if (candidate.used && candidate !== entry) {
        candidate.used = false;
        this.entries.set(oldest, candidate);
      } else {
        this.bytes -= candidate.bytes;
      }
    }
  }
}

/**
 * Serves kept answers before Nest routes the request: after the rate limit and request id (onRequest),
 * for a GET of a kept route, when `accountOf` can tell the caller's account at once (a key looked up
 * within the last second, admitted by the same rules as the API key guard). Anything else — an unknown
 * key, an error to report, an answer not kept or stale — continues to the route, unchanged.
 */
export function installKeptAnswers(
  fastify: FastifyInstance,
  cache: ResponseCache,
  accountOf: (request: FastifyRequest) => string | undefined,
): void {
  fastify.addHook('preHandler', (request, reply, done) => {
    if (!cache.isKeptRoute(request)) return done();
    const accountId = accountOf(request);
    if (accountId === undefined || !cache.sendKept(request, reply, accountId)) return done();
  });
  fastify.addHook('onReady', (done) => {
    const missing = cache.keptPaths().filter((url) => !fastify.hasRoute({ url, method: 'GET' }));
    done(missing.length > 0 ? new Error(`Kept answers declared for routes that do not exist: ${missing.join(', ')}`) : undefined);
  });
}

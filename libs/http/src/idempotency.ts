import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { ConflictError, ValidationError } from '../../core/src/errors';
import { collectionOf } from '../../core/src/projection';
import { READ_STORE, ReadStore } from '../../read-store/src/read-store.port';

const COLLECTION = collectionOf<StoredResponse>('idempotency_keys');
const TTL_MS = 24 * 60 * 60 * 1000;
const REPLAYED_HEADERS = ['content-type', 'etag', 'location'];
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

interface StoredResponse {
  id: string;
  bodyHash: string;
  statusCode: number;
  headers: Record<string, string>;
  payload: string;
  expiresAt: number;
  [field: string]: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; bodyHash: string };
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A retry of an answered request: the filter sends the stored answer, byte for byte. */
export class IdempotentReplay extends Error {
  constructor(readonly stored: { statusCode: number; headers: Record<string, string>; payload: string }) {
    super('Idempotent replay');
  }
}

/**
 * Idempotency-Key on POST: the first 2xx answer is kept for 24 h under (API key, account, path, key);
 * a retry with the same body gets it back without writing anything, another body is a 409. Stored in
 * the read store so every instance sees it. The lookup is a guard registered after the API key guard
 * (a revoked key gets its 401, never a replay) — a guard, not an interceptor, because Nest wraps every
 * route of a global interceptor in async-context bindings that cost GETs a quarter of their time.
 * Answers are kept by the onSend hook from `installIdempotencyHooks`, which sees them serialized.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly inFlight = new Set<string>();
  private ready: Promise<void> | null = null;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Synchronous unless the request is a POST with a key: every other request pays no promise here. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method !== 'POST') return true;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return true;
    return this.claim(request, key);
  }

  private async claim(request: FastifyRequest, key: string | string[]): Promise<boolean> {
    if (typeof key !== 'string' || !KEY_SHAPE.test(key)) {
      throw ValidationError.of([{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
    }
    await this.ensureCollection();
    const account = request.headers['x-service-account'] ?? request.headers['x-checkly-account'] ?? '';
    const scope = sha256([request.headers.authorization ?? '', String(account), request.url.split('?')[0], key].join('\n'));
    const bodyHash = sha256(JSON.stringify(request.body ?? null));
    const stored = await this.store.get(COLLECTION, scope);
    if (stored && stored.doc.expiresAt > this.clock.now().getTime()) {
      if (stored.doc.bodyHash !== bodyHash) throw new ConflictError('Idempotency-Key was already used with a different body');
      throw new IdempotentReplay(stored.doc);
    }
    if (this.inFlight.has(scope)) throw new ConflictError('A request with this Idempotency-Key is still in progress');
    this.inFlight.add(scope);
    request.idempotency = { scope, bodyHash };
    return true;
  }

  /** onSend: keeps a 2xx answer of a request that carried a key; always frees the key. */
  async remember(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const pending = request.idempotency;
    if (!pending) return;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined || payload === null)) {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const now = this.clock.now().getTime();
        const doc: StoredResponse = {
          id: pending.scope,
          bodyHash: pending.bodyHash,
          statusCode: reply.statusCode,
          headers,
          payload: typeof payload === 'string' ? payload : '',
          expiresAt: now + TTL_MS,
        };
        await this.store.put(COLLECTION, doc, BigInt(now));
      }
    } finally {
      this.release(request);
    }
  }

  /** A request that failed before onSend still frees its key. */
  release(request: FastifyRequest): void {
    if (!request.idempotency) return;
    this.inFlight.delete(request.idempotency.scope);
    request.idempotency = undefined;
  }

  private ensureCollection(): Promise<void> {
    this.ready ??= this.store.ensureCollection({ name: COLLECTION, indexes: [] });
    return this.ready;
  }
}

/** Callback-style hooks: nearly every request has no Idempotency-Key, and pays no promise for it. */
export function installIdempotencyHooks(fastify: FastifyInstance, guard: IdempotencyGuard): void {
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    if (!request.idempotency) return done(null, payload);
    guard.remember(request, reply, payload).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
  fastify.addHook('onResponse', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (request.idempotency) guard.release(request);
    done();
  });
}

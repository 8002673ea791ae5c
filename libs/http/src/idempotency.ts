import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Observable, of } from 'rxjs';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../core/src/clock';
import { ConflictError, ValidationError } from '../../core/src/errors';
import { ReadStore } from '../../read-store/src/read-store.port';

const COLLECTION = 'idempotency_keys';
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
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; bodyHash: string };
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Idempotency-Key on POST: the first 2xx answer is kept for 24 h under (API key, account, path, key);
 * a retry with the same body gets it back without writing anything, another body is a 409.
 * Stored in the read store so every instance sees it. The lookup is an interceptor, so it runs after
 * the auth guard (a revoked key gets its 401, never a replay); answers are kept by an onSend hook,
 * which sees them serialized. Returns the interceptor, for `useGlobalInterceptors`.
 */
export async function installIdempotency(fastify: FastifyInstance, store: ReadStore, clock: Clock): Promise<IdempotencyInterceptor> {
  await store.ensureCollection({ name: COLLECTION, indexes: [] });
  const inFlight = new Set<string>();

  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = request.idempotency;
    if (!pending) return payload;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined || payload === null)) {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const now = clock.now().getTime();
        const doc: StoredResponse = {
          id: pending.scope,
          bodyHash: pending.bodyHash,
          statusCode: reply.statusCode,
          headers,
          payload: typeof payload === 'string' ? payload : '',
          expiresAt: now + TTL_MS,
        };
        await store.put(COLLECTION, doc as unknown as StoredResponse & { [k: string]: unknown }, BigInt(now));
      }
    } finally {
      inFlight.delete(pending.scope);
      request.idempotency = undefined;
    }
    return payload;
  });

  // A request that failed before onSend still frees its key.
  fastify.addHook('onResponse', async (request: FastifyRequest) => {
    if (request.idempotency) inFlight.delete(request.idempotency.scope);
  });
  return new IdempotencyInterceptor(store, clock, inFlight);
}

export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly inFlight: Set<string>,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method !== 'POST') return next.handle();
    const key = request.headers['idempotency-key'];
    if (key === undefined) return next.handle();
    if (typeof key !== 'string' || !KEY_SHAPE.test(key)) {
      throw ValidationError.of([{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
    }
    const account = request.headers['x-service-account'] ?? request.headers['x-checkly-account'] ?? '';
    const scope = sha256([request.headers.authorization ?? '', String(account), request.url.split('?')[0], key].join('\n'));
    const bodyHash = sha256(JSON.stringify(request.body ?? null));
    const stored = await this.store.get<StoredResponse & { [k: string]: unknown }>(COLLECTION, scope);
    if (stored && stored.doc.expiresAt > this.clock.now().getTime()) {
      if (stored.doc.bodyHash !== bodyHash) throw new ConflictError('Idempotency-Key was already used with a different body');
      const reply = context.switchToHttp().getResponse<FastifyReply>();
      void reply.status(stored.doc.statusCode).headers({ ...stored.doc.headers, 'idempotent-replayed': 'true' });
      // A string with its stored Content-Type is sent as is: the very bytes of the first answer.
      return of(stored.doc.payload);
    }
    if (this.inFlight.has(scope)) throw new ConflictError('A request with this Idempotency-Key is still in progress');
    this.inFlight.add(scope);
    request.idempotency = { scope, bodyHash };
    return next.handle();
  }
}

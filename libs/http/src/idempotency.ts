import { CanActivate, ExecutionContext, Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { ConflictError, ValidationError } from '../../core/src/errors';
import { READ_STORE, ReadStore } from '../../read-store/src/read-store.port';
import { IdempotencyRecord, IdempotencyRecords } from './idempotency-records';
import { IdempotentAttempt, newAttempt, runInAttempt } from './idempotent-attempt';

const REPLAYED_HEADERS = ['content-type', 'etag', 'location'];
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { record: IdempotencyRecord; version: bigint };
    idempotentAttempt?: IdempotentAttempt;
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
 * Idempotency-Key on POST: the first 2xx answer is kept for 24 h under (API key id, account, path, key);
 * a retry with the same body gets it back without writing anything, another body is a 409, and a retry
 * while an attempt holds the key is a 409. A retry of attempts that ended without an answer runs again,
 * making the same ids, and the command runner answers it from what they appended: one write, whatever
 * failed after it. Records live in the shared read store and are claimed by compare-and-set, so every
 * instance sees them and one attempt at a time holds a key (idempotency-records.ts).
 * The lookup is a guard registered after the API key guard (a revoked key gets its 401, never a replay)
 * — a guard, not an interceptor, because Nest wraps every route of a global interceptor in async-context
 * bindings that cost GETs a quarter of their time. Answers are kept by the onSend hook from
 * `installIdempotencyHooks`, which sees them serialized.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate, OnApplicationBootstrap, OnApplicationShutdown {
  readonly records: IdempotencyRecords;
  private pruner: NodeJS.Timeout | null = null;

  constructor(
    @Inject(READ_STORE) store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.records = new IdempotencyRecords(store);
  }

  onApplicationBootstrap(): void {
    this.pruner = setInterval(() => void this.records.prune(this.clock.now().getTime()).catch(() => undefined), PRUNE_INTERVAL_MS);
    this.pruner.unref();
  }

  onApplicationShutdown(): void {
    if (this.pruner) clearInterval(this.pruner);
  }

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
    // Who is calling as the API key guard resolved it, never the header's spelling.
    const caller = request.account ? `key:${request.account.keyId}\naccount:${request.account.accountId}` : 'public';
    const scope = sha256([caller, request.url.split('?')[0], key].join('\n'));
    const bodyHash = sha256(JSON.stringify(request.body ?? null));
    const claim = await this.records.claim(scope, bodyHash, request.id, this.clock.now().getTime());
    switch (claim.outcome) {
      case 'answered':
        throw new IdempotentReplay(claim.answer);
      case 'other-body':
        throw new ConflictError('Idempotency-Key was already used with a different body');
      case 'in-progress':
        throw new ConflictError('A request with this Idempotency-Key is still in progress');
    }
    request.idempotency = { record: claim.record, version: claim.version };
    const attempt = request.idempotentAttempt;
    if (attempt) {
      attempt.seed = claim.record.seed;
      attempt.createdAt = claim.record.createdAt;
      attempt.priorRequestIds = new Set(claim.priorRequestIds);
    }
    return true;
  }

  /** onSend: keeps a 2xx answer of a request that holds a key, or releases the key for a retry. */
  async remember(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claimed = request.idempotency;
    if (!claimed) return;
    request.idempotency = undefined;
    let answer: IdempotencyRecord['answer'] = null;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === undefined || payload === null)) {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      answer = { statusCode: reply.statusCode, headers, payload: typeof payload === 'string' ? payload : '' };
    }
    // The request's outcome stands whatever happens here: a record left pending is taken over once its lease ends.
    await this.records.finish(claimed, answer, reply.statusCode).catch((error: unknown) => request.log.warn({ err: error }, 'idempotency record not updated'));
  }

  /** A request that ended without onSend (the client went away) releases its key for a retry. */
  release(request: FastifyRequest): void {
    const claimed = request.idempotency;
    if (!claimed) return;
    request.idempotency = undefined;
    void this.records.finish(claimed, null, 500).catch(() => undefined);
  }
}

/**
 * Callback-style hooks: nearly every request has no Idempotency-Key, and pays nothing for it. A POST
 * with one runs its handler inside an attempt (idempotent-attempt.ts), entered in preHandler, after the
 * body is read, from where Fastify calls the route in the same turn.
 */
export function installIdempotencyHooks(fastify: FastifyInstance, guard: IdempotencyGuard): void {
  fastify.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.method !== 'POST' || request.headers['idempotency-key'] === undefined) return done();
    const attempt = newAttempt();
    request.idempotentAttempt = attempt;
    runInAttempt(attempt, () => done());
  });
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

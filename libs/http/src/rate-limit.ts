import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerTokenHash } from './bearer';
import { addressBucket, Budgets, Taken } from './budgets';
import { errorBody } from './error-body';

/** Paths with limits of their own (ping) or that must always answer (health, metrics). */
const EXEMPT = /^\/(ping|heartbeats\/ping|healthz|readyz|metrics)(\/|$|\?)/;
/** The API: everything else (pages, feeds, badges, subscribe, subscriber links, docs) is public. */
const API = /^\/(v1|next|accounts)(\/|$|\?)/;

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/** Real keys are few; addresses of a flood are many: each kind has a bounded table of its own. */
const MAX_KEYS = 100_000;
const MAX_ADDRESSES = 200_000;

interface RateLimitOptions {
  /** Per valid API key. */
  perKeyPerMinute: number;
  /** Per client address: API requests without a valid key. */
  anonymousPerMinute: number;
  /** Per client address: everything public. */
  publicPerMinute: number;
}

/** How the limit tells a valid key from junk: the API keys' own lookup (by SHA-256 of the token). */
export interface KeyCheck {
  cached(hash: string): { revoked: boolean } | undefined;
  byHash(hash: string): Promise<{ revoked: boolean } | null>;
}

/**
 * Valid keys are counted per key (the hash of the bearer token: "bearer" and "BEARER" name the same key);
 * anything else per client address (`request.ip`, which honours the trusted proxies). An unknown token is
 * charged to its address before it is looked up, so junk costs no more than its address's budget, and
 * only keys found valid ever enter the per-key table.
 */
export class RateLimiter {
  readonly keys: Budgets;
  readonly anonymous: Budgets;
  readonly public: Budgets;

  constructor(
    options: RateLimitOptions,
    private readonly check: KeyCheck,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = new Budgets(options.perKeyPerMinute, MAX_KEYS);
    this.anonymous = new Budgets(options.anonymousPerMinute, MAX_ADDRESSES);
    this.public = new Budgets(options.publicPerMinute, MAX_ADDRESSES);
  }

  /** The budget this request is charged to, synchronously when it can be told at once. */
  charge(request: FastifyRequest): Taken | Promise<Taken> | null {
    if (EXEMPT.test(request.url)) return null;
    const now = this.now();
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return (API.test(request.url) ? this.anonymous : this.public).take(addressBucket(request.ip), now);
    const hash = bearerTokenHash(request, token);
    const cached = this.check.cached(hash);
    if (this.keys.has(hash, now) || (cached && !cached.revoked)) return this.keys.take(hash, now);
    const address = addressBucket(request.ip);
    const taken = this.anonymous.take(address, now);
    if (!taken.ok) return taken;
    return this.check.byHash(hash).then(
      (key) => {
        if (!key || key.revoked) return taken;
        this.anonymous.refund(address);
        return this.keys.take(hash, this.now());
      },
      () => taken,
    );
  }
}

function answer(reply: FastifyReply, taken: Taken): boolean {
  void reply.header('ratelimit-limit', taken.limit).header('ratelimit-remaining', taken.remaining).header('ratelimit-reset', taken.resetSeconds);
  if (taken.ok) return true;
  const message = `Rate limit of ${taken.limit} requests per minute exceeded; retry in ${taken.resetSeconds} s`;
  void reply.code(429).header('retry-after', taken.resetSeconds).type('application/json; charset=utf-8').send(errorBody(429, message));
  return false;
}

export function installRateLimit(fastify: FastifyInstance, limiter: RateLimiter): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const taken = limiter.charge(request);
    if (taken === null) return done();
    if (!(taken instanceof Promise)) {
      if (answer(reply, taken)) done();
      return;
    }
    taken.then((t) => {
      if (answer(reply, t)) done();
    }, done);
  });
}

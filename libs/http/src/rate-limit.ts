import rateLimit from '@fastify/rate-limit';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerTokenHash } from './bearer';
import { errorBody } from './error-body';

/** Paths with limits of their own (ping) or that must always answer (health, docs, public pages). */
const EXEMPT = /^\/(ping|heartbeats\/ping|healthz|readyz|metrics|docs|openapi\.json|status)(\/|$|\?)/;

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/**
 * Per API key (the hash of its bearer token, not of the whole header: "bearer" and "BEARER" name the
 * same key and share its budget), falling back to the client address.
 */
export function rateLimitKey(request: FastifyRequest): string {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (token) return 'k:' + bearerTokenHash(request, token);
  return 'ip:' + request.ip;
}

export async function installRateLimit(fastify: FastifyInstance, perMinute: number): Promise<void> {
  await fastify.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    allowList: (request) => EXEMPT.test(request.url),
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => ({
      ...errorBody(429, `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`),
    }),
  });
}

import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { errorBody } from '../../../http/src/error-body';
import { sendError } from '../../../http/src/error-filter';
import { isLinkPreviewBot } from '../domain/link-preview-bots';
import { PingIntake } from '../write/ping-intake';
import { PingRateLimiter } from '../write/ping-rate-limiter';
import { CheckEntry } from '../write/check-registry';

export const MAX_PING_BODY_BYTES = 100 * 1024;
export const PING_PATHS = ['/ping/:token', '/heartbeats/ping/:token'];

/** A header's first value, at most 1 KB of it; null when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text.slice(0, 1024) : null;
}

/** A ping's answer, whichever path (the Fastify route, the fast path) writes it. */
export interface PingAnswer {
  status: number;
  headers: Record<string, string | number>;
  contentType: string;
  body: string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface PingDeps {
  intake: PingIntake;
  limiter: PingRateLimiter;
  clock: Clock;
}

/**
 * Everything after the check was found: the token's rate limit, then the append. Resolves once the
 * event is committed; rejects with what the append threw (a 503 when the store cannot commit).
 */
export async function answerPing(
  { intake, limiter, clock }: PingDeps,
  entry: CheckEntry,
  token: string,
  ping: { source: string | null; userAgent: string | null; requestId: string },
): Promise<PingAnswer> {
  const rate = limiter.take(token, clock.now().getTime());
  const headers: Record<string, string | number> = {};
  if (limiter.enabled) {
    headers['ratelimit-limit'] = rate.limit;
    headers['ratelimit-remaining'] = rate.remaining;
    headers['ratelimit-reset'] = rate.reset;
  }
  if (!rate.allowed) {
    headers['retry-after'] = rate.retryAfter;
    const message = `Ping rate limit exceeded (burst ${rate.limit}); retry in ${rate.retryAfter} s`;
    return { status: 429, headers, contentType: JSON_TYPE, body: JSON.stringify(errorBody(429, message)) };
  }
  const outcome = await intake.record(entry, ping);
  if (outcome.recorded) headers['x-heartbeat-event-id'] = outcome.eventId;
  return { status: 200, headers, contentType: 'text/plain; charset=utf-8', body: 'OK' };
}

/**
 * `GET|POST /ping/{token}` and its alias: public, plain-text "OK" once the event is committed.
 * Registered straight on Fastify in their own encapsulated context, so that — and only there —
 * a POST body of any type up to 100 KB is accepted and ignored, while every other route keeps the
 * JSON-only rule (415). Other methods fall through to the global 405.
 */
export function registerPingRoutes(fastify: FastifyInstance, deps: PingDeps): void {
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PING_BODY_BYTES }, (_request, _body, done) => done(null, undefined));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.statusCode === 413) {
        return reply.status(413).type(JSON_TYPE).send(errorBody(413, 'Ping bodies may be at most 100 KB'));
      }
      sendError(error, request, reply, fastify);
    });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const token = String((request.params as { token: string }).token).toLowerCase();
      const userAgent = headerValue(request.headers['user-agent']);
      if (isLinkPreviewBot(userAgent)) {
        return reply.status(403).type(JSON_TYPE).send(errorBody(403, 'Link previews do not count as heartbeats'));
      }
      const entry = isUuid(token) ? await deps.intake.lookup(token) : null;
      if (!entry) return reply.status(404).type(JSON_TYPE).send(errorBody(404, 'Unknown ping token'));
      const source = headerValue(request.headers.origin) ?? headerValue(request.headers.referer);
      const answer = await answerPing(deps, entry, token, { source, userAgent, requestId: String(request.id) });
      return reply.status(answer.status).headers(answer.headers).type(answer.contentType).send(answer.body);
    };

    for (const url of PING_PATHS) {
      // The per-key limit does not apply to pings (they have the per-token one above): with `rateLimit: false`
      // @fastify/rate-limit adds no hook to these routes at all, instead of one that computes a key to skip it.
      scope.route({ method: ['GET', 'POST'], url, exposeHeadRoute: false, config: { rateLimit: false }, handler });
    }
  });
}

import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { errorBody } from '../../../http/src/error-body';
import { sendError } from '../../../http/src/error-filter';
import { isLinkPreviewBot } from '../domain/link-preview-bots';
import { HeartbeatCommands } from '../write/heartbeat.commands';
import { PingRateLimiter } from '../write/ping-rate-limiter';

export const MAX_PING_BODY_BYTES = 100 * 1024;
export const PING_PATHS = ['/ping/:token', '/heartbeats/ping/:token'];

/** A header's first value, at most 1 KB of it; null when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text.slice(0, 1024) : null;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface PingDeps {
  commands: HeartbeatCommands;
  limiter: PingRateLimiter;
  clock: Clock;
}

/**
 * `GET|POST /ping/{token}` and its alias: public, plain-text "OK" once the event is committed.
 * A plain Fastify route (with the shared error handler) in its own encapsulated context, so that — and only there —
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
      const timer = isUuid(token) ? await deps.commands.timerOfToken(token) : null;
      if (!timer) return reply.status(404).type(JSON_TYPE).send(errorBody(404, 'Unknown ping token'));
      const rate = deps.limiter.take(token, deps.clock.now().getTime());
      if (deps.limiter.enabled) reply.headers({ 'ratelimit-limit': rate.limit, 'ratelimit-remaining': rate.remaining, 'ratelimit-reset': rate.reset });
      if (!rate.allowed) {
        const message = `Ping rate limit exceeded (burst ${rate.limit}); retry in ${rate.retryAfter} s`;
        return reply.status(429).header('retry-after', rate.retryAfter).type(JSON_TYPE).send(errorBody(429, message));
      }
      const source = headerValue(request.headers.origin) ?? headerValue(request.headers.referer);
      const outcome = await deps.commands.ping(timer, { source, userAgent, requestId: String(request.id) });
      if (outcome.recorded) reply.header('x-heartbeat-event-id', outcome.eventId);
      return reply.status(200).type('text/plain; charset=utf-8').send('OK');
    };

    for (const url of PING_PATHS) {
      // The per-key limit does not apply to pings (they have the per-token one above): with `rateLimit: false`
      // @fastify/rate-limit adds no hook to these routes at all, instead of one that computes a key to skip it.
      scope.route({ method: ['GET', 'POST'], url, exposeHeadRoute: false, config: { rateLimit: false }, handler });
    }
  });
}

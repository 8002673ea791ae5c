import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { errorBody } from '../../../http/src/error-body';
import { sendError } from '../../../http/src/error-filter';
import { isLinkPreviewBot } from '../domain/link-preview-bots';
import { PingIntake } from '../write/ping-intake';
import { PingRateLimiter } from '../write/ping-rate-limiter';

export const MAX_PING_BODY_BYTES = 100 * 1024;
export const PING_PATHS = ['/ping/:token', '/heartbeats/ping/:token'];

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text.slice(0, 1024) : null;
}

/**
 * `GET|POST /ping/{token}` and its alias: public, plain-text "OK" once the event is committed.
 * Registered straight on Fastify in their own encapsulated context, so that — and only there —
 * a POST body of any type up to 100 KB is accepted and ignored, while every other route keeps the
 * JSON-only rule (415). Other methods fall through to the global 405.
 */
export function registerPingRoutes(fastify: FastifyInstance, intake: PingIntake, limiter: PingRateLimiter, clock: Clock): void {
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PING_BODY_BYTES }, (_request, _body, done) => done(null, undefined));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.statusCode === 413) {
        return reply.status(413).type('application/json; charset=utf-8').send(errorBody(413, 'Ping bodies may be at most 100 KB'));
      }
      sendError(error, request, reply, fastify);
    });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const token = String((request.params as { token: string }).token).toLowerCase();
      const userAgent = header(request, 'user-agent');
      if (isLinkPreviewBot(userAgent)) {
        return reply.status(403).type('application/json; charset=utf-8').send(errorBody(403, 'Link previews do not count as heartbeats'));
      }
      const entry = isUuid(token) ? await intake.lookup(token) : null;
      if (!entry) return reply.status(404).type('application/json; charset=utf-8').send(errorBody(404, 'Unknown ping token'));
      const rate = limiter.take(token, clock.now().getTime());
      if (limiter.enabled) {
        void reply.headers({ 'ratelimit-limit': rate.limit, 'ratelimit-remaining': rate.remaining, 'ratelimit-reset': rate.reset });
      }
      if (!rate.allowed) {
        void reply.header('retry-after', rate.retryAfter);
        return reply
          .status(429)
          .type('application/json; charset=utf-8')
          .send(errorBody(429, `Ping rate limit exceeded (burst ${rate.limit}); retry in ${rate.retryAfter} s`));
      }
      const outcome = await intake.record(entry, {
        source: header(request, 'origin') ?? header(request, 'referer'),
        userAgent,
        requestId: String(request.id),
      });
      if (outcome.recorded) void reply.header('x-heartbeat-event-id', outcome.eventId);
      return reply.status(200).type('text/plain; charset=utf-8').send('OK');
    };

    for (const url of PING_PATHS) {
      // The per-key limit does not apply to pings (they have the per-token one above): with `rateLimit: false`
      // @fastify/rate-limit adds no hook to these routes at all, instead of one that computes a key to skip it.
      scope.route({ method: ['GET', 'POST'], url, exposeHeadRoute: false, config: { rateLimit: false }, handler });
    }
  });
}

import { CommandBus } from '@nestjs/cqrs';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { errorBody } from '../../../http/src/error-body';
import { sendError } from '../../../http/src/error-filter';
import { PingTargets } from '../read/ping-targets';
import { TimerDoc } from '../read/heartbeat.projections';
import { RunHeartbeatCommand } from '../write/heartbeat.handler';
import { SlugPings } from '../write/slug-pings';
import { PingRateLimiter } from './ping-rate-limiter';
import { headerValue, isLinkPreviewBot, MAX_PING_BODY_BYTES, PING_BODY_LIMIT, pingCommand, signalOf } from './ping-request';

/**
 * `/ping/{token}` and its alias; `/ping/{a}/{b}` is a token with a signal when `a` is a UUID, else an
 * account ping key and a slug (keys are never UUIDs); `/ping/{pingKey}/{slug}/{signal}`.
 */
export const PING_PATHS = ['/ping/:token', '/heartbeats/ping/:token', '/ping/:token/:segment', '/ping/:token/:segment/:signal'];
/** HEAD counts as GET, as Healthchecks has it: some monitors and scripts send it. */
export const PING_METHODS = ['GET', 'HEAD', 'POST'] as const;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Checks `?create=1` may create per account: a burst of 10, then one a minute (no flood of checks from a loop). */
export const SLUG_CREATE_BURST = 10;
export const SLUG_CREATES_PER_SECOND = 1 / 60;

export interface PingDeps {
  targets: PingTargets;
  commands: CommandBus;
  limiter: PingRateLimiter;
  /** Checks created by first pings, per account. */
  createLimiter: PingRateLimiter;
  clock: Clock;
  slugs: SlugPings;
}

const isFlag = (value: unknown) => value === '1' || value === 'true' || value === '';

/**
 * `GET|HEAD|POST /ping/{token}[/{signal}]`, `/ping/{pingKey}/{slug}[/{signal}]` and the alias: public,
 * plain-text "OK" once the event is committed. A plain Fastify route (with the shared error handler) in its
 * own encapsulated context, so that — and only there — a POST body of any type up to 100 KB is accepted,
 * while every other route keeps the JSON-only rule (415). Other methods fall through to the global 405.
 */
export function registerPingRoutes(fastify: FastifyInstance, deps: PingDeps): void {
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PING_BODY_BYTES }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.statusCode === 413) {
        return reply.status(413).type(JSON_TYPE).send(errorBody(413, 'Ping bodies may be at most 100 KB'));
      }
      sendError(error, request, reply, fastify);
    });

    const fail = (reply: FastifyReply, status: number, message: string, extra?: Parameters<typeof errorBody>[2]) =>
      reply.status(status).type(JSON_TYPE).send(errorBody(status, message, extra));

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('ping-body-limit', String(PING_BODY_LIMIT));
      // One name per position (the router shares a position's parameter): `segment` is a signal after a token, a slug after a key.
      const params = request.params as { token: string; segment?: string; signal?: string };
      const query = (request.query ?? {}) as Record<string, unknown>;
      const userAgent = headerValue(request.headers['user-agent']);
      if (isLinkPreviewBot(userAgent)) return fail(reply, 403, 'Link previews do not count as heartbeats');
      const rid = query.rid;
      if (rid !== undefined && !isUuid(rid)) return fail(reply, 400, 'rid must be a UUID', { details: [{ path: 'rid', message: 'rid must be a UUID' }] });
      // `/ping/{a}/{b}`: a UUID is a token with a signal; anything else a ping key with a slug.
      const first = String(params.token);
      const slugRoute = params.signal !== undefined || (params.segment !== undefined && !isUuid(first));
      const named = signalOf(slugRoute ? params.signal : params.segment);
      if ('error' in named) return fail(reply, named.error, named.message);
      let timer: TimerDoc | null;
      if (slugRoute) {
        const createLimit = (accountId: string) => deps.createLimiter.take(accountId, deps.clock.now().getTime());
        const target = await deps.slugs.resolve(first, String(params.segment), { create: isFlag(query.create), createLimit, requestId: String(request.id) });
        if (!target.found && target.reason === 'rate-limited') {
          reply.header('retry-after', target.retryAfter);
          return fail(reply, 429, `Checks created by a first ping are limited to ${SLUG_CREATE_BURST}, then one a minute; retry in ${target.retryAfter} s`);
        }
        // A check deleted since its slug was found has no live timer either.
        timer = target.found ? await deps.targets.timerOf(target.checkId) : null;
        if (!timer) return fail(reply, 404, 'Unknown ping key or slug');
      } else {
        const token = first.toLowerCase();
        timer = isUuid(token) ? await deps.targets.timerOfToken(token) : null;
        if (!timer) return fail(reply, 404, 'Unknown ping token');
      }
      const rate = deps.limiter.take(timer.pingToken ?? timer.id, deps.clock.now().getTime());
      if (deps.limiter.enabled) reply.headers({ 'ratelimit-limit': rate.limit, 'ratelimit-remaining': rate.remaining, 'ratelimit-reset': rate.reset });
      if (!rate.allowed) {
        reply.header('retry-after', rate.retryAfter);
        return fail(reply, 429, `Ping rate limit exceeded (burst ${rate.limit}); retry in ${rate.retryAfter} s`);
      }
      const source = headerValue(request.headers.origin) ?? headerValue(request.headers.referer);
      const body = Buffer.isBuffer(request.body) ? request.body : null;
      const command = pingCommand({ source, userAgent, ...named, rid: rid ? rid.toLowerCase() : null, body }, deps.clock.now().getTime());
      const actor = { accountId: timer.accountId ?? null, requestId: String(request.id) };
      const { decided } = await deps.commands.execute(new RunHeartbeatCommand(timer.id, command, actor, timer));
      // A ping of a deactivated check is answered but not recorded.
      const event = decided[0];
      if (event && 'eventId' in event.data) reply.header('x-heartbeat-event-id', event.data.eventId);
      return reply.status(200).type('text/plain; charset=utf-8').send('OK');
    };

    for (const url of PING_PATHS) {
      scope.route({ method: [...PING_METHODS], url, exposeHeadRoute: false, handler });
    }
  });
}

import { Inject, Injectable } from '@nestjs/common';
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { isUuid, newEventId } from '../../../core/src/ids';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { errorBody } from '../../../http/src/error-body';
import { sendError } from '../../../http/src/error-filter';
import { HeartbeatCommand, heartbeatDecider, heartbeatStream, PingSignal } from '../domain/heartbeat.decider';
import { CheckDoc, heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { heartbeatTimersProjection, TimerDoc, timerSnapshot } from '../read/heartbeat.projections';
import { SlugPings } from '../write/slug-pings';

export const MAX_PING_BODY_BYTES = 100 * 1024;
/**
 * `/ping/{token}` and its alias; `/ping/{a}/{b}` is a token with a signal when `a` is a UUID, else an
 * account ping key and a slug (keys are never UUIDs); `/ping/{pingKey}/{slug}/{signal}`.
 */
export const PING_PATHS = ['/ping/:token', '/heartbeats/ping/:token', '/ping/:token/:segment', '/ping/:token/:segment/:signal'];
/** The run signals a ping URL may end with, beside an exit code 0–255. */
export const PING_SIGNALS = ['start', 'fail', 'log'] as const;

/** A header's first value, at most 1 KB of it; null when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text.slice(0, 1024) : null;
}

/** Link unfurlers fetch URLs pasted into chats; their visits are not heartbeats. */
const BOTS = /slackbot|twitterbot|facebookexternalhit|facebot|discordbot|telegrambot|whatsapp|linkedinbot|googlebot/i;

export function isLinkPreviewBot(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && BOTS.test(userAgent);
}

/** Outcome of one take from a token bucket. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request is allowed (0 when allowed now). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (burst `capacity`, refilled at `perSecond`), in memory: each instance
 * enforces it for the pings it receives. Full buckets are forgotten, so memory follows activity.
 */
export class PingRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
  ) {}

  get enabled(): boolean {
    return this.capacity > 0 && this.perSecond > 0;
  }

  take(key: string, now: number): RateDecision {
    if (!this.enabled) return { allowed: true, limit: 0, remaining: 0, retryAfter: 0, reset: 0 };
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    const refilled = Math.min(this.capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.perSecond);
    const allowed = refilled >= 1;
    const tokens = allowed ? refilled - 1 : refilled;
    this.buckets.set(key, { tokens, at: now });
    return {
      allowed,
      limit: this.capacity,
      remaining: Math.floor(tokens),
      retryAfter: allowed ? 0 : Math.ceil((1 - tokens) / this.perSecond),
      reset: Math.ceil((this.capacity - tokens) / this.perSecond),
    };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const fullAfterMs = (this.capacity / this.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
  }
}

export interface PingRequest {
  source: string | null;
  userAgent: string | null;
  requestId: string | null;
  signal?: PingSignal;
  exitCode?: number;
  rid?: string | null;
  /** The raw POST body; its first PING_BODY_LIMIT bytes are kept. */
  body?: Buffer | null;
}

/** Contract §4.1: the first 10,000 bytes of a POST body are stored with its event (header `Ping-Body-Limit`). */
export const PING_BODY_LIMIT = 10_000;

/** A ping of a deactivated check is answered but not recorded. */
export type PingOutcome = { recorded: true; eventId: string } | { recorded: false };

/** How many ping tokens' checks are remembered: the tokens pinged lately, a few hundred KB at most. */
const KNOWN_TOKENS = 10_000;

/**
 * Records pings: finds the timer a ping starts from (by token, remembering each token's check, or by
 * check for slug URLs) and runs the Ping command of the heartbeat decider with it as the snapshot.
 */
@Injectable()
export class PingIntake {
  /** Ping token → check, oldest first: a hit is confirmed by the timer it names, read by key instead of by index. */
  private readonly checkOfToken = new Map<string, string>();

  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The timer of the live check a ping token belongs to, or null. */
  async timerOfToken(token: string): Promise<TimerDoc | null> {
    const known = this.checkOfToken.get(token);
    if (known !== undefined) {
      const timer = await this.timerOf(known);
      if (timer && timer.pingToken === token) return timer;
      this.checkOfToken.delete(token);
    }
    const [check] = await this.store.find<CheckDoc>(this.engine.collection(heartbeatChecksProjection), {
      filters: [{ field: 'pingToken', op: 'eq', value: token }],
      limit: 1,
    });
    // The timer takes a changed token when it is rescheduled: until then, the token it holds is the one it answers to.
    const timer = check ? await this.timerOf(check.id, check) : null;
    if (!timer || timer.pingToken !== token) return null;
    if (this.checkOfToken.size >= KNOWN_TOKENS) this.checkOfToken.delete(this.checkOfToken.keys().next().value as string);
    this.checkOfToken.set(token, timer.id);
    return timer;
  }

  /** The timer of a live check, or null; `check`, when the caller has just read it, is not read again. */
  async timerOf(checkId: string, check?: CheckDoc): Promise<TimerDoc | null> {
    const stored = await this.store.get<TimerDoc>(this.engine.collection(heartbeatTimersProjection), checkId);
    return stored && !stored.doc.deleted ? this.withAccount(stored.doc, check) : null;
  }

  /** Timers written before they carried their account take it from the check. */
  private async withAccount(timer: TimerDoc, check?: CheckDoc): Promise<TimerDoc | null> {
    if (timer.accountId) return timer;
    const owner = check ?? (await this.store.get<CheckDoc>(this.engine.collection(heartbeatChecksProjection), timer.id))?.doc;
    return owner ? { ...timer, accountId: owner.accountId } : null;
  }

  /** Resolves once the ping is committed; the timer just read is the snapshot of the first attempt. */
  async record(timer: TimerDoc, request: PingRequest): Promise<PingOutcome> {
    const now = this.clock.now().getTime();
    const command: HeartbeatCommand = { type: 'Ping', eventId: newEventId(now), at: new Date(now).toISOString(), source: request.source, userAgent: request.userAgent };
    if (request.signal) command.signal = request.signal;
    if (request.exitCode !== undefined) command.exitCode = request.exitCode;
    if (request.rid) command.rid = request.rid;
    if (request.body && request.body.length > 0) {
      command.body = request.body.subarray(0, PING_BODY_LIMIT).toString('utf8');
      if (request.body.length > PING_BODY_LIMIT) command.truncated = true;
    }
    const snapshot = timerSnapshot(this.store, this.engine, timer.id, timer);
    const actor = { accountId: timer.accountId ?? null, requestId: request.requestId };
    const { decided } = await this.runner.run(heartbeatStream(timer.id), heartbeatDecider, command, actor, { snapshot });
    const event = decided[0];
    if (!event || !('eventId' in event.data)) return { recorded: false };
    return { recorded: true, eventId: event.data.eventId };
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Checks `?create=1` may create per account: a burst of 10, then one a minute (no flood of checks from a loop). */
export const SLUG_CREATE_BURST = 10;
export const SLUG_CREATES_PER_SECOND = 1 / 60;

export interface PingDeps {
  intake: PingIntake;
  limiter: PingRateLimiter;
  /** Checks created by first pings, per account. */
  createLimiter: PingRateLimiter;
  clock: Clock;
  slugs: SlugPings;
}

type Signal = { signal?: PingSignal; exitCode?: number } | { error: 400 | 404; message: string };

/** The signal a path segment names: start, fail, log or an exit code 0–255. */
function signalOf(segment: string | undefined): Signal {
  if (segment === undefined) return {};
  const word = segment.toLowerCase();
  if ((PING_SIGNALS as readonly string[]).includes(word)) return { signal: word as PingSignal };
  if (/^[0-9]{1,10}$/.test(segment)) {
    const exitCode = Number(segment);
    return exitCode <= 255 ? { exitCode } : { error: 400, message: 'exit code must be an integer from 0 to 255' };
  }
  return { error: 404, message: 'Unknown ping signal (start, fail, log or an exit code 0–255)' };
}

const isFlag = (value: unknown) => value === '1' || value === 'true' || value === '';

/**
 * `GET|POST /ping/{token}[/{signal}]`, `/ping/{pingKey}/{slug}[/{signal}]` and the alias: public, plain-text
 * "OK" once the event is committed. A plain Fastify route (with the shared error handler) in its own
 * encapsulated context, so that — and only there — a POST body of any type up to 100 KB is accepted (its
 * first 10,000 bytes are stored with the event), while every other route keeps the JSON-only rule (415).
 * Other methods fall through to the global 405.
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

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('ping-body-limit', String(PING_BODY_LIMIT));
      // One name per position (the router shares a position's parameter): `segment` is a signal after a token, a slug after a key.
      const params = request.params as { token: string; segment?: string; signal?: string };
      const query = (request.query ?? {}) as Record<string, unknown>;
      const userAgent = headerValue(request.headers['user-agent']);
      if (isLinkPreviewBot(userAgent)) {
        return reply.status(403).type(JSON_TYPE).send(errorBody(403, 'Link previews do not count as heartbeats'));
      }
      const rid = query.rid;
      if (rid !== undefined && !isUuid(rid)) {
        return reply.status(400).type(JSON_TYPE).send(errorBody(400, 'rid must be a UUID', { details: [{ path: 'rid', message: 'rid must be a UUID' }] }));
      }
      // `/ping/{a}/{b}`: a UUID is a token with a signal; anything else a ping key with a slug.
      const first = String(params.token);
      const slugRoute = params.signal !== undefined || (params.segment !== undefined && !isUuid(first));
      const slug = slugRoute ? params.segment : undefined;
      const named = signalOf(slugRoute ? params.signal : params.segment);
      if ('error' in named) return reply.status(named.error).type(JSON_TYPE).send(errorBody(named.error, named.message));
      let timer: TimerDoc | null;
      if (slugRoute) {
        const createLimit = (accountId: string) => deps.createLimiter.take(accountId, deps.clock.now().getTime());
        const target = await deps.slugs.resolve(first, String(slug), { create: isFlag(query.create), createLimit, requestId: String(request.id) });
        if (!target.found && target.reason === 'rate-limited') {
          const message = `Checks created by a first ping are limited to ${SLUG_CREATE_BURST}, then one a minute; retry in ${target.retryAfter} s`;
          return reply.status(429).header('retry-after', target.retryAfter).type(JSON_TYPE).send(errorBody(429, message));
        }
        // A check deleted since its slug was found has no live timer either.
        timer = target.found ? await deps.intake.timerOf(target.checkId) : null;
        if (!timer) return reply.status(404).type(JSON_TYPE).send(errorBody(404, 'Unknown ping key or slug'));
      } else {
        const token = first.toLowerCase();
        timer = isUuid(token) ? await deps.intake.timerOfToken(token) : null;
        if (!timer) return reply.status(404).type(JSON_TYPE).send(errorBody(404, 'Unknown ping token'));
      }
      const rate = deps.limiter.take(timer.pingToken ?? timer.id, deps.clock.now().getTime());
      if (deps.limiter.enabled) reply.headers({ 'ratelimit-limit': rate.limit, 'ratelimit-remaining': rate.remaining, 'ratelimit-reset': rate.reset });
      if (!rate.allowed) {
        const message = `Ping rate limit exceeded (burst ${rate.limit}); retry in ${rate.retryAfter} s`;
        return reply.status(429).header('retry-after', rate.retryAfter).type(JSON_TYPE).send(errorBody(429, message));
      }
      const source = headerValue(request.headers.origin) ?? headerValue(request.headers.referer);
      const body = Buffer.isBuffer(request.body) ? request.body : null;
      const outcome = await deps.intake.record(timer, { source, userAgent, requestId: String(request.id), ...named, rid: rid ? rid.toLowerCase() : null, body });
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

import Fastify, { FastifyInstance } from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { ManualClock } from '../../../core/src/clock';
import { StoreUnavailableError } from '../../../core/src/errors';
import { EarlyRequests } from '../../../http/src/early-requests';
import { requestIdFor } from '../../../http/src/request-id';
import { initialTimer } from '../domain/heartbeat-timer';
import { CheckEntry } from '../write/check-registry';
import { PingIntake, PingOutcome, PingRequest } from '../write/ping-intake';
import { PingRateLimiter } from '../write/ping-rate-limiter';
import { pingFastPath } from './ping-fast-path';
import { registerPingRoutes } from './ping.routes';

const TOKEN = '0b5a3c52-7d1e-4f6a-9c3b-2e8d1f4a6b7c';
const UNLOADED = '1c6b4d63-8e2f-4a7b-8d4c-3f9e2a5b7c8d';

/**
 * The ping intake's two faces the routes use, over a fixed check: `peek` knows only TOKEN (what a
 * process holds in memory), `lookup` also UNLOADED (what the route loads). Records what it is asked.
 */
class RecordingIntake {
  readonly recorded: Omit<PingRequest, 'token'>[] = [];
  failWith: unknown = null;
  private readonly entry: CheckEntry = { checkId: 'check-1', stream: 'heartbeat-check-1', accountId: 'account-1', timer: { ...initialTimer(), activated: true, pingToken: TOKEN }, revision: 0n, stale: false };

  peek(token: string): CheckEntry | null {
    return token === TOKEN ? this.entry : null;
  }

  async lookup(token: string): Promise<CheckEntry | null> {
    return token === TOKEN || token === UNLOADED ? this.entry : null;
  }

  async record(_entry: CheckEntry, request: Omit<PingRequest, 'token'>): Promise<PingOutcome> {
    if (this.failWith) throw this.failWith;
    this.recorded.push(request);
    return { recorded: true, eventId: `event-${this.recorded.length}`, state: 'RECEIVED' };
  }
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

describe('ping fast path', () => {
  let app: FastifyInstance;
  let url: string;
  let intake: RecordingIntake;
  let early: EarlyRequests;
  /** Requests that reached Fastify. */
  let routed = 0;
  const logLines: Record<string, unknown>[] = [];

  beforeEach(async () => {
    intake = new RecordingIntake();
    early = new EarlyRequests();
    routed = 0;
    logLines.length = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    app = Fastify({ serverFactory: early.serverFactory, genReqId: requestIdFor, return503OnClosing: true });
    app.addHook('onRequest', (request, reply, done) => {
      routed += 1;
      void reply.header('x-request-id', request.id);
      done();
    });
    const deps = { intake: intake as unknown as PingIntake, limiter: new PingRateLimiter(2, 1), clock: new ManualClock(new Date('2026-11-21T10:00:00Z')) };
    registerPingRoutes(app, deps);
    early.add(pingFastPath(deps, logger));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterEach(async () => {
    await app.close();
  });

  async function ping(path: string, init: RequestInit = {}): Promise<Answer> {
    const response = await fetch(url + path, init);
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  }

  /** The headers a client can compare between two answers: no date, no generated id. */
  function comparable(headers: Record<string, string>): Record<string, string> {
    const { date: _date, 'x-request-id': _id, 'x-heartbeat-event-id': eventId, ...rest } = headers;
    return { ...rest, 'x-heartbeat-event-id': eventId === undefined ? 'none' : 'some' };
  }

  it('answers a bodyless GET or POST of a token in memory itself, as the route would', async () => {
    const fast = await ping(`/ping/${TOKEN.toUpperCase()}`, { headers: { 'user-agent': 'cron/1', origin: 'https://a.example' } });
    expect(routed).toBe(0);
    // The same ping with a body is the route's.
    const routedAnswer = await ping(`/ping/${TOKEN}`, { method: 'POST', body: 'x', headers: { 'user-agent': 'cron/1', referer: 'https://b.example' } });
    expect(routed).toBe(1);

    expect(fast.status).toBe(200);
    expect(fast.body).toBe('OK');
    expect(fast.headers['x-heartbeat-event-id']).toBe('event-1');
    expect(fast.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(comparable(fast.headers)).toEqual({ ...comparable(routedAnswer.headers), 'ratelimit-remaining': '1', 'ratelimit-reset': '1' });
    expect(routedAnswer.body).toBe(fast.body);
    expect(intake.recorded).toEqual([
      { source: 'https://a.example', userAgent: 'cron/1', requestId: fast.headers['x-request-id'] },
      { source: 'https://b.example', userAgent: 'cron/1', requestId: routedAnswer.headers['x-request-id'] },
    ]);
  });

  it('takes the alias, a trailing slash, a query and a bodyless POST; echoes a sane x-request-id', async () => {
    expect((await ping(`/heartbeats/ping/${TOKEN}/?run=7`, { headers: { 'x-request-id': 'job-42' } })).headers['x-request-id']).toBe('job-42');
    expect((await ping(`/ping/${TOKEN}`, { method: 'POST' })).status).toBe(200);
    expect(routed).toBe(0);
    expect(intake.recorded.map((request) => request.requestId)[0]).toBe('job-42');
  });

  it('leaves every other request to the route', async () => {
    const cases: [string, RequestInit][] = [
      [`/ping/${TOKEN}`, { method: 'PUT' }],
      [`/ping/${TOKEN}`, { method: 'HEAD' }],
      [`/ping/${TOKEN}`, { method: 'POST', body: 'payload' }],
      [`/ping/${UNLOADED}`, {}],
      [`/ping/${TOKEN}`, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } }],
      ['/ping/------------------------------------', {}],
      [`/ping/${TOKEN.replace('-', '%2D')}`, {}],
      [`/PING/${TOKEN}`, {}],
      [`/ping/${TOKEN}/extra`, {}],
    ];
    for (const [path, init] of cases) await ping(path, init);
    expect(routed).toBe(cases.length);
    // The route recorded the POST with a body, the token it loads (UNLOADED) and the encoded one, and
    // refused the rest as before.
    expect(intake.recorded).toHaveLength(3);
    expect((await ping(`/ping/${UNLOADED}`)).status).toBe(200);
    expect((await ping(`/ping/${TOKEN}`, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } })).status).toBe(403);
  });

  it('answers the rate limit as the route does', async () => {
    await ping(`/ping/${TOKEN}`);
    await ping(`/ping/${TOKEN}`);
    const limited = await ping(`/ping/${TOKEN}`);
    expect(routed).toBe(0);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(limited.body)).toEqual({ statusCode: 429, error: 'Too Many Requests', message: 'Ping rate limit exceeded (burst 2); retry in 1 s' });
    expect(intake.recorded).toHaveLength(2);
  });

  it('answers a store that cannot commit with 503 and the error shape, and logs it', async () => {
    intake.failWith = new StoreUnavailableError('disk full');
    const answer = await ping(`/ping/${TOKEN}`);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(JSON.parse(answer.body)).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'A backing store is unavailable, try again shortly',
      requestId: answer.headers['x-request-id'],
    });
    expect(logLines.some((line) => line.msg === 'request failed' && line.reqId === answer.headers['x-request-id'])).toBe(true);
  });

  it('logs one line per ping with the route, not the token', async () => {
    const answer = await ping(`/ping/${TOKEN}?a=1`);
    await new Promise((resolve) => setImmediate(resolve));
    const line = logLines.find((entry) => entry.msg === 'request');
    expect(line).toMatchObject({ reqId: answer.headers['x-request-id'], method: 'GET', path: '/ping/:token', status: 200 });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(logLines)).not.toContain(TOKEN);
  });

  it('claims nothing once the server is closing', async () => {
    early.closing();
    await ping(`/ping/${TOKEN}`);
    expect(routed).toBe(1);
  });
});

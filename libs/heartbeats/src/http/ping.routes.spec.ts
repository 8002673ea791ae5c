import { InMemoryEventStore } from '../../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from '../../../read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { heartbeatTimersProjection } from '../read/heartbeat.projections';
import { PingTargets } from '../read/ping-targets';
import { PingRateLimiter } from './ping-rate-limiter';
import { isLinkPreviewBot } from './ping-request';

describe('link preview bots', () => {
  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Twitterbot/1.0',
    'facebookexternalhit/1.1',
    'Facebot',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'TelegramBot (like TwitterBot)',
    'WhatsApp/2.23.20.0',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ])('recognises %s', (ua) => expect(isLinkPreviewBot(ua)).toBe(true));

  it.each(['curl/8.5.0', 'Wget/1.21', 'python-requests/2.31', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0'])('lets %s through', (ua) =>
    expect(isLinkPreviewBot(ua)).toBe(false),
  );

  it('lets a missing user agent through', () => expect(isLinkPreviewBot(null)).toBe(false));
});

describe('ping rate limiter (burst 10, 1/s)', () => {
  const T = 1_000_000;

  it('allows a burst of 10, then refuses with the seconds to wait', () => {
    const limiter = new PingRateLimiter(10, 1);
    for (let i = 0; i < 10; i++) expect(limiter.take('t', T).allowed).toBe(true);
    expect(limiter.take('t', T)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1, limit: 10 });
  });

  it('refills at one per second', () => {
    const limiter = new PingRateLimiter(10, 1);
    for (let i = 0; i < 10; i++) limiter.take('t', T);
    expect(limiter.take('t', T + 999).allowed).toBe(false);
    expect(limiter.take('t', T + 1000).allowed).toBe(true);
    expect(limiter.take('t', T + 1000).allowed).toBe(false);
  });

  it('keeps tokens apart', () => {
    const limiter = new PingRateLimiter(1, 1);
    expect(limiter.take('a', T).allowed).toBe(true);
    expect(limiter.take('b', T).allowed).toBe(true);
    expect(limiter.take('a', T).allowed).toBe(false);
  });

  it('never holds more than the burst', () => {
    const limiter = new PingRateLimiter(10, 1);
    limiter.take('t', T);
    for (let i = 0; i < 10; i++) expect(limiter.take('t', T + 3_600_000).allowed).toBe(true);
    expect(limiter.take('t', T + 3_600_000).allowed).toBe(false);
  });

  it('is off with a burst or rate of 0', () => {
    const limiter = new PingRateLimiter(0, 1);
    for (let i = 0; i < 100; i++) expect(limiter.take('t', T).allowed).toBe(true);
  });
});

describe('PingTargets.timerOfToken', () => {
  const CHECK = '01900000-0000-7000-8000-000000000001';

  async function intakeOver(timer: Record<string, unknown>) {
    const events = new InMemoryEventStore();
    const store = new InMemoryReadStore();
    const engine = new ProjectionEngine(store, events, [heartbeatChecksProjection, heartbeatTimersProjection], { info: () => undefined, error: () => undefined });
    await engine.start();
    await store.put(engine.collection(heartbeatChecksProjection), { id: CHECK, accountId: 'acc-1', pingToken: 'tok' }, 0n);
    await store.put(engine.collection(heartbeatTimersProjection), { id: CHECK, checkId: CHECK, pingToken: 'tok', deleted: false, ...timer }, 0n);
    const reads: string[] = [];
    const counting = new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads.push(`${String(name)} ${String(args[0]).split('_v')[0]}`);
          return value.apply(target, args);
        };
      },
    });
    return { intake: new PingTargets(counting, engine), reads };
  }

  it('given a timer written before it carried its account, when its token is first seen, then the account comes from the check found by token, read once', async () => {
    const { intake, reads } = await intakeOver({});

    expect(await intake.timerOfToken('tok')).toMatchObject({ id: CHECK, accountId: 'acc-1' });
    expect(reads).toEqual(['find heartbeat_checks', 'get heartbeat_timers']);
  });

  it('given a timer that holds another token (a change not yet rescheduled), when the check is found by the new one, then no timer', async () => {
    const { intake } = await intakeOver({ pingToken: 'old', accountId: 'acc-1' });

    expect(await intake.timerOfToken('tok')).toBeNull();
  });
});

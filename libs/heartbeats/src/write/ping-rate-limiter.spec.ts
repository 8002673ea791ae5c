import { PingRateLimiter } from './ping-rate-limiter';

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

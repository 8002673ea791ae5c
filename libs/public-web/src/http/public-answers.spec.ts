import { answerOf, notModified } from './public-answers';
import { SubscribeLimiter } from './subscribe-limiter';

describe('public answers', () => {
  it('matches If-None-Match lists, weak forms and *', () => {
    const etag = answerOf(200, 'text/html', 'x', {}).etag;
    expect(notModified(etag, etag)).toBe(true);
    expect(notModified(`"a", W/${etag}`, etag)).toBe(true);
    expect(notModified('*', etag)).toBe(true);
    expect(notModified('"other"', etag)).toBe(false);
    expect(notModified(undefined, etag)).toBe(false);
  });
});

describe('subscribe limiter', () => {
  it('allows 5 per address in 10 minutes, then says how long to wait', () => {
    const limiter = new SubscribeLimiter();
    for (let i = 0; i < 5; i++) expect(limiter.take('1.2.3.4', 1000 + i)).toBe(0);
    expect(limiter.take('1.2.3.4', 2000)).toBe(599);
    expect(limiter.take('5.6.7.8', 2000)).toBe(0);
    expect(limiter.take('1.2.3.4', 1000 + 600_000)).toBe(0);
  });
});

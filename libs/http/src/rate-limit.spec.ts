import { FastifyRequest } from 'fastify';
import { hashApiKey } from '../../accounts/src/accounts.api';
import { addressBucket, Budgets, Taken } from './budgets';
import { KeyCheck, RateLimiter } from './rate-limit';

const request = (authorization: string | undefined, ip = '10.0.0.1', url = '/v1/checks') =>
  ({ headers: authorization === undefined ? {} : { authorization }, ip, url }) as unknown as FastifyRequest;

/** The keys a store would hold: `vgl_real` and `vgl_other` are valid, `vgl_gone` revoked. */
const lookups: string[] = [];
const keys: KeyCheck = {
  cached: () => undefined,
  byHash: async (hash) => {
    lookups.push(hash);
    if (hash === hashApiKey('vgl_real') || hash === hashApiKey('vgl_other')) return { revoked: false };
    if (hash === hashApiKey('vgl_gone')) return { revoked: true };
    return null;
  },
};
const limits = { perKeyPerMinute: 5, anonymousPerMinute: 3, publicPerMinute: 4 };
const take = async (limiter: RateLimiter, req: FastifyRequest) => (await limiter.charge(req)) as Taken;

describe('RateLimiter', () => {
  it('counts a valid key per key however the scheme is spelled, and never stores the key itself', async () => {
    const limiter = new RateLimiter(limits, keys);
    const taken = [];
    for (const h of ['Bearer vgl_real', 'bearer vgl_real', 'BEARER  vgl_real', ' Bearer\tvgl_real ', 'Bearer vgl_real', 'Bearer vgl_real']) taken.push(await take(limiter, request(h)));
    expect(taken.map((t) => t.ok)).toEqual([true, true, true, true, true, false]);
    expect(taken.map((t) => t.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(limiter.keys.has(hashApiKey('vgl_real'), Date.now())).toBe(true);
    expect(limiter.keys.has('vgl_real', Date.now())).toBe(false);
    // A valid key's first request, charged to its address until the lookup said valid, is given back.
    expect((await take(limiter, request(undefined))).remaining).toBe(2);
    expect((await take(limiter, request('Bearer vgl_other'))).remaining).toBe(4);
  });

  it('counts junk, revoked and missing tokens per client address: a new random token buys no budget', async () => {
    const limiter = new RateLimiter(limits, keys);
    await take(limiter, request('Bearer vgl_real', '10.0.0.7'));
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await take(limiter, request(`Bearer junk-${i}`))).ok);
    expect(statuses).toEqual([true, true, true, false, false]);
    expect((await take(limiter, request('Bearer vgl_gone'))).ok).toBe(false);
    expect((await take(limiter, request(undefined))).ok).toBe(false);
    expect((await take(limiter, request('Bearer junk-x', '10.0.0.2'))).ok).toBe(true);
    // Once the address's budget is spent, junk is refused before any lookup.
    lookups.length = 0;
    await take(limiter, request('Bearer junk-y'));
    expect(lookups).toEqual([]);
    // A real key known in this window still gets its own budget from a spent address.
    expect((await take(limiter, request('Bearer vgl_real'))).ok).toBe(true);
  });

  it('keeps a real key counter whatever flood of junk tokens and addresses comes', async () => {
    const limiter = new RateLimiter(limits, keys);
    await take(limiter, request('Bearer vgl_real'));
    await take(limiter, request('Bearer vgl_real'));
    for (let i = 0; i < 5_000; i++) await take(limiter, request(`Bearer junk-${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
    expect(limiter.keys.size).toBe(1);
    expect((await take(limiter, request('Bearer vgl_real'))).remaining).toBe(2);
  });

  it('limits public routes per client address, and leaves pings and health alone', async () => {
    const limiter = new RateLimiter(limits, keys);
    const pub = [];
    for (let i = 0; i < 5; i++) pub.push((await take(limiter, request(undefined, '10.0.0.9', `/status/acme${i}`))).ok);
    expect(pub).toEqual([true, true, true, true, false]);
    expect((await take(limiter, request(undefined, '10.0.0.9', '/subscriptions/confirm/abc'))).ok).toBe(false);
    expect((await take(limiter, request(undefined, '10.0.0.8', '/badge.svg'))).ok).toBe(true);
    for (const url of ['/ping/abc', '/heartbeats/ping/abc', '/healthz', '/readyz', '/metrics']) expect(limiter.charge(request(undefined, '10.0.0.9', url))).toBeNull();
  });
});

describe('Budgets', () => {
  it('is bounded: ended windows go first, then the one open longest', () => {
    let now = 0;
    const budgets = new Budgets(10, 3);
    budgets.take('a', now);
    budgets.take('b', now);
    now = 30_000;
    budgets.take('c', now);
    budgets.take('d', now);
    expect(budgets.size).toBe(3);
    expect(budgets.has('a', now)).toBe(false);
    now = 61_000; // a and b ended
    budgets.take('e', now);
    expect(['c', 'd', 'e'].map((n) => budgets.has(n, now))).toEqual([true, true, true]);
  });

  it('counts IPv6 clients by /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe(addressBucket('2001:db8:1:2:bbbb::2'));
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
    expect(addressBucket('::ffff:10.1.2.3')).toBe('10.1.2.3');
  });
});

import { FastifyRequest } from 'fastify';
import { hashApiKey } from '../../accounts/src/accounts.api';
import { bearerTokenHash } from './bearer';
import { rateLimitKey } from './rate-limit';

const request = (authorization: string | undefined, ip = '10.0.0.1') =>
  ({ headers: authorization === undefined ? {} : { authorization }, ip }) as unknown as FastifyRequest;

describe('rateLimitKey', () => {
  it('is the same for one key however the header spells the scheme', () => {
    const keys = ['Bearer vgl_abc', 'bearer vgl_abc', 'BEARER  vgl_abc', ' Bearer\tvgl_abc '].map((h) => rateLimitKey(request(h)));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^k:/);
  });

  it('differs between keys, and never contains the key itself', () => {
    expect(rateLimitKey(request('Bearer vgl_abc'))).not.toBe(rateLimitKey(request('Bearer vgl_abd')));
    expect(rateLimitKey(request('Bearer vgl_abc'))).not.toContain('vgl_abc');
  });

  it('hashes the token as API keys are stored, once per request, and again for another token', () => {
    const req = request('Bearer vgl_abc');
    expect(rateLimitKey(req)).toBe(`k:${hashApiKey('vgl_abc')}`);
    expect(req.bearerHash).toEqual({ token: 'vgl_abc', hex: hashApiKey('vgl_abc') });
    expect(bearerTokenHash(req, 'vgl_abc')).toBe(hashApiKey('vgl_abc'));
    expect(bearerTokenHash(req, 'vgl_other')).toBe(hashApiKey('vgl_other'));
  });

  it('falls back to the client address without a usable bearer token', () => {
    expect(rateLimitKey(request(undefined))).toBe('ip:10.0.0.1');
    expect(rateLimitKey(request('Basic dXNlcjpwdw=='))).toBe('ip:10.0.0.1');
    expect(rateLimitKey(request('Bearer'))).toBe('ip:10.0.0.1');
  });
});

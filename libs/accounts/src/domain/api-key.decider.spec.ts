import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { fold } from '../../../core/src/decider';
import { specFor } from '../../../testing/src/given-when-then';
import { ApiKeyCreatedData, apiKeyDecider, ApiKeyEvent, apiKeyStream } from './api-key.decider';
import { generateApiKey, hashApiKey, keyPrefix } from './api-key-secret';

const KEY_ID = '01900000-0000-7000-8000-0000000000aa';
const key: ApiKeyCreatedData = {
  id: KEY_ID,
  accountIds: ['01900000-0000-7000-8000-000000000001'],
  role: 'READ_WRITE',
  name: 'ci',
  hash: 'a'.repeat(64),
  prefix: 'vgl_abcd',
};
const created: ApiKeyEvent = { type: 'ApiKeyCreated', data: key };
const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { id: KEY_ID } };
const spec = specFor(apiKeyDecider);

describe('API key decider', () => {
  it('given no events, when CreateApiKey, then ApiKeyCreated carrying the hash, never a secret', () => {
    spec.given([]).when({ type: 'CreateApiKey', key }).then([created]);
  });

  it('given ApiKeyCreated, when CreateApiKey with the same id, then a conflict', () => {
    spec.given([created]).when({ type: 'CreateApiKey', key }).thenThrows(ConflictError);
  });

  it('given ApiKeyCreated, when RevokeApiKey, then ApiKeyRevoked', () => {
    spec.given([created]).when({ type: 'RevokeApiKey', id: KEY_ID }).then([revoked]);
  });

  it('given a revoked key, when RevokeApiKey again, then nothing happens', () => {
    spec.given([created, revoked]).when({ type: 'RevokeApiKey', id: KEY_ID }).then([]);
  });

  it('given no events, when RevokeApiKey, then not found', () => {
    spec.given([]).when({ type: 'RevokeApiKey', id: KEY_ID }).thenThrows(NotFoundError);
  });

  it('given a revoked key, when CreateApiKey with its id, then a conflict (a revoked key never comes back)', () => {
    spec.given([created, revoked]).when({ type: 'CreateApiKey', key }).thenThrows(ConflictError);
  });

  it('evolves: created, then revoked', () => {
    expect(apiKeyDecider.initialState()).toEqual({ exists: false, revoked: false });
    expect(fold(apiKeyDecider, [created])).toEqual({ exists: true, revoked: false });
    expect(fold(apiKeyDecider, [created, revoked])).toEqual({ exists: true, revoked: true });
  });

  it('names its stream apikey-<id>', () => {
    expect(apiKeyStream(KEY_ID)).toBe(`apikey-${KEY_ID}`);
  });
});

describe('API key secrets', () => {
  it('are vgl_ and 256 random bits, different every time', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).toMatch(/^vgl_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('are stored as their SHA-256 in hex', () => {
    // sha256("abc"), a published test vector.
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('are recognised by their first 8 characters', () => {
    expect(keyPrefix('vgl_abcdefgh')).toBe('vgl_abcd');
  });
});

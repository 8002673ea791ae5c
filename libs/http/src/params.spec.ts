import { NotFoundError } from '../../core/src/errors';
import { actorOf, requireId } from './params';

describe('requireId', () => {
  it('accepts a UUID and lower-cases it', () => {
    expect(requireId('01900000-0000-7000-8000-00000000ABCD')).toBe('01900000-0000-7000-8000-00000000abcd');
    expect(requireId('2f1c5a8e-7d2b-4c1a-9f3e-0b6d8e4a1c22')).toBe('2f1c5a8e-7d2b-4c1a-9f3e-0b6d8e4a1c22');
  });

  it.each(['not-a-uuid', '', '01900000-0000-7000-8000-00000000000', '01900000-0000-7000-8000-0000000000001', '01900000_0000_7000_8000_000000000001', '00000000-0000-0000-0000-000000000000', "1' OR '1'='1"])(
    'answers the malformed id %j with a 404 naming the resource',
    (id) => {
      expect(() => requireId(id, 'Service')).toThrow(NotFoundError);
      expect(() => requireId(id, 'Service')).toThrow('Service not found');
    },
  );
});

describe('actorOf', () => {
  it('carries account, key and request into event metadata, and nothing else', () => {
    expect(actorOf({ accountId: 'a', keyId: 'k', keyName: 'ci', role: 'ADMIN', requestId: 'r' })).toEqual({
      accountId: 'a',
      keyId: 'k',
      keyName: 'ci',
      requestId: 'r',
    });
  });
});

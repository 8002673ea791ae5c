import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { fold } from '../../../core/src/decider';
import { specFor } from '../../../testing/src/given-when-then';
import { accountDecider, AccountEvent, accountStream } from './account.decider';

const ID = '01900000-0000-7000-8000-000000000001';
const created: AccountEvent = { type: 'AccountCreated', data: { id: ID, name: 'Acme' } };
const spec = specFor(accountDecider);

describe('account decider', () => {
  it('given no events, when CreateAccount, then AccountCreated with the id and name', () => {
    spec.given([]).when({ type: 'CreateAccount', id: ID, name: 'Acme' }).then([created]);
  });

  it('given AccountCreated, when CreateAccount again, then a conflict', () => {
    spec.given([created]).when({ type: 'CreateAccount', id: ID, name: 'Other' }).thenThrows(ConflictError, /already exists/);
  });

  it('evolves to an existing account with its name', () => {
    expect(accountDecider.initialState()).toEqual({ exists: false, name: null, pingKey: null });
    expect(fold(accountDecider, [created])).toEqual({ exists: true, name: 'Acme', pingKey: null });
  });

  it('ignores events it does not know', () => {
    const state = fold(accountDecider, [created]);
    expect(accountDecider.evolve(state, { type: 'SomethingElse', data: {} } as unknown as AccountEvent)).toBe(state);
  });

  it('names its stream account-<id>', () => {
    expect(accountStream(ID)).toBe(`account-${ID}`);
  });

  describe('ping key', () => {
    const KEY = 'AbCdEfGhIjKlMnOpQrSt_-';
    const issued: AccountEvent = { type: 'AccountPingKeyIssued', data: { id: ID, pingKey: KEY } };

    it('given an account without a key, when IssuePingKey, then the key is issued', () => {
      spec.given([created]).when({ type: 'IssuePingKey', id: ID, pingKey: KEY }).then([issued]);
    });

    it('given an account with a key, when IssuePingKey, then nothing (first use only)', () => {
      spec.given([created, issued]).when({ type: 'IssuePingKey', id: ID, pingKey: 'x'.repeat(22) }).then([]);
    });

    it('given an account with a key, when RotatePingKey, then the new key replaces it', () => {
      const next = 'z'.repeat(22);
      spec.given([created, issued]).when({ type: 'RotatePingKey', id: ID, pingKey: next }).then([{ type: 'AccountPingKeyIssued', data: { id: ID, pingKey: next } }]);
      expect(fold(accountDecider, [created, issued]).pingKey).toBe(KEY);
    });

    it('refuses a key for an account that does not exist, and a key of the wrong shape', () => {
      spec.given([]).when({ type: 'RotatePingKey', id: ID, pingKey: KEY }).thenThrows(NotFoundError);
      spec.given([created]).when({ type: 'RotatePingKey', id: ID, pingKey: '01900000-0000-7000-8000-000000000001' }).thenThrows(Error, /22/);
    });
  });
});

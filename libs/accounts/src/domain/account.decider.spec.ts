import { ConflictError } from '../../../core/src/errors';
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
    expect(accountDecider.initialState()).toEqual({ exists: false, name: null });
    expect(fold(accountDecider, [created])).toEqual({ exists: true, name: 'Acme' });
  });

  it('ignores events it does not know', () => {
    const state = fold(accountDecider, [created]);
    expect(accountDecider.evolve(state, { type: 'SomethingElse', data: {} } as unknown as AccountEvent)).toBe(state);
  });

  it('names its stream account-<id>', () => {
    expect(accountStream(ID)).toBe(`account-${ID}`);
  });
});

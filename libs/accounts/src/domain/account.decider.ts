import { Decider } from '../../../core/src/decider';
import { ConflictError } from '../../../core/src/errors';

export type AccountEvent = { type: 'AccountCreated'; data: { id: string; name: string } };

export type AccountCommand = { type: 'CreateAccount'; id: string; name: string };

export interface AccountState {
  exists: boolean;
  name: string | null;
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState: () => ({ exists: false, name: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateAccount':
        if (state.exists) throw new ConflictError(`Account ${command.id} already exists`);
        return [{ type: 'AccountCreated', data: { id: command.id, name: command.name } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AccountCreated':
        return { exists: true, name: event.data.name };
      default:
        return state;
    }
  },
};

export const accountStream = (id: string) => `account-${id}`;

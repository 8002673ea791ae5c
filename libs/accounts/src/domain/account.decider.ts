import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';

export type AccountEvent =
  | { type: 'AccountCreated'; data: { id: string; name: string } }
  /** The account's ping key for slug URLs (contract §4.1): first issued, or rotated. */
  | { type: 'AccountPingKeyIssued'; data: { id: string; pingKey: string } };

export type AccountCommand =
  | { type: 'CreateAccount'; id: string; name: string }
  /** Issues `pingKey` unless the account has one already (first use). */
  | { type: 'IssuePingKey'; id: string; pingKey: string }
  /** Replaces the ping key: slug URLs with the old one stop working at once. */
  | { type: 'RotatePingKey'; id: string; pingKey: string };

export interface AccountState {
  exists: boolean;
  name: string | null;
  pingKey: string | null;
}

/** 22 URL-safe characters (16 random bytes in base64url): never a UUID, so `/ping/{uuid}/…` stays a token route. */
export const PING_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState: () => ({ exists: false, name: null, pingKey: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateAccount':
        if (state.exists) throw new ConflictError(`Account ${command.id} already exists`);
        return [{ type: 'AccountCreated', data: { id: command.id, name: command.name } }];
      case 'IssuePingKey':
      case 'RotatePingKey':
        if (!state.exists) throw new NotFoundError('Account not found');
        if (!PING_KEY_PATTERN.test(command.pingKey)) throw new Error('A ping key must be 22 URL-safe characters');
        if (command.type === 'IssuePingKey' && state.pingKey) return [];
        return [{ type: 'AccountPingKeyIssued', data: { id: command.id, pingKey: command.pingKey } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AccountCreated':
        return { ...state, exists: true, name: event.data.name };
      case 'AccountPingKeyIssued':
        return { ...state, pingKey: event.data.pingKey };
      default:
        return state;
    }
  },
};

export const accountStream = (id: string) => `account-${id}`;

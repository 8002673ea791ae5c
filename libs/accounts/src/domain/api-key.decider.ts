import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { Role } from '../../../http/src/account-context';

export interface ApiKeyCreatedData {
  id: string;
  accountIds: string[];
  role: Role;
  name: string | null;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  hash: string;
  /** First characters, to recognise a key in lists. */
  prefix: string;
}

export type ApiKeyEvent =
  | { type: 'ApiKeyCreated'; data: ApiKeyCreatedData }
  | { type: 'ApiKeyRevoked'; data: { id: string } };

export type ApiKeyCommand = { type: 'CreateApiKey'; key: ApiKeyCreatedData } | { type: 'RevokeApiKey'; id: string };

export interface ApiKeyState {
  exists: boolean;
  revoked: boolean;
}

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ exists: false, revoked: false }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey':
        if (state.exists) throw new ConflictError(`API key ${command.key.id} already exists`);
        return [{ type: 'ApiKeyCreated', data: command.key }];
      case 'RevokeApiKey':
        if (!state.exists) throw new NotFoundError(`API key ${command.id} does not exist`);
        // Revoking twice changes nothing and is not an error.
        return state.revoked ? [] : [{ type: 'ApiKeyRevoked', data: { id: command.id } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated':
        return { exists: true, revoked: false };
      case 'ApiKeyRevoked':
        return { ...state, revoked: true };
      default:
        return state;
    }
  },
};

export const apiKeyStream = (id: string) => `apikey-${id}`;

import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError } from '../../../core/src/errors';

export const runnerKeyStream = (id: string): string => `runnerkey-${id}`;

/** A runner key: lets runner processes lease the runs of one location of one account. */
export interface RunnerKeyData {
  id: string;
  accountId: string;
  location: string;
  name: string | null;
  /** The location is private: its runners may probe private, loopback and link-local targets. */
  allowPrivateTargets: boolean;
  /** SHA-256 of the key, hex; the key itself is never stored. */
  hash: string;
  prefix: string;
}

export type RunnerKeyCommand = { type: 'CreateRunnerKey'; key: RunnerKeyData } | { type: 'RevokeRunnerKey'; id: string; accountId: string };

export type RunnerKeyEvent = { type: 'RunnerKeyCreated'; data: RunnerKeyData } | { type: 'RunnerKeyRevoked'; data: { id: string; accountId: string } };

export interface RunnerKeyState {
  accountId: string | null;
  revoked: boolean;
}

export const runnerKeyDecider: Decider<RunnerKeyState, RunnerKeyCommand, RunnerKeyEvent> = {
  initialState: () => ({ accountId: null, revoked: false }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateRunnerKey':
        if (state.accountId !== null) throw new ConflictError('Runner key already exists');
        return [{ type: 'RunnerKeyCreated', data: command.key }];
      case 'RevokeRunnerKey':
        // Another account's key is as unknown as a missing one; revoking twice changes nothing.
        if (state.accountId !== command.accountId) throw new NotFoundError('Runner key not found');
        return state.revoked ? [] : [{ type: 'RunnerKeyRevoked', data: { id: command.id, accountId: command.accountId } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RunnerKeyCreated':
        return { accountId: event.data.accountId, revoked: false };
      case 'RunnerKeyRevoked':
        return { ...state, revoked: true };
    }
  },
};

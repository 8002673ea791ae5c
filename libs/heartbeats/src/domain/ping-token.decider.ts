import { Decider } from '../../../core/src/decider';
import { ConflictError } from '../../../core/src/errors';

export type PingTokenEvent = { type: 'PingTokenClaimed'; data: { checkId: string } } | { type: 'PingTokenReleased'; data: { checkId: string } };

/** `staleHolder`: a holder the caller found no longer using the token (a crash left its claim behind). */
export type PingTokenCommand = { type: 'Claim'; checkId: string; staleHolder: string | null } | { type: 'Release'; checkId: string };

/** Who holds a ping token (`pingtoken-<token>`): tokens are unique across all accounts. */
export const pingTokenDecider: Decider<{ holder: string | null }, PingTokenCommand, PingTokenEvent> = {
  initialState: () => ({ holder: null }),
  evolve: (_state, event) => ({ holder: event.type === 'PingTokenClaimed' ? event.data.checkId : null }),
  decide(command, { holder }) {
    if (command.type === 'Release') return holder === command.checkId ? [{ type: 'PingTokenReleased', data: { checkId: command.checkId } }] : [];
    if (holder === command.checkId) return [];
    if (holder !== null && holder !== command.staleHolder) throw new ConflictError('pingToken is already used by another check');
    return [{ type: 'PingTokenClaimed', data: { checkId: command.checkId } }];
  },
};

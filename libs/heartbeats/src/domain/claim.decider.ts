import { Decider } from '../../../core/src/decider';
import { ConflictError } from '../../../core/src/errors';

/** `staleHolder`: a holder found no longer using the name (a crash left its claim behind); the claim handler sets it. */
export type ClaimCommand = { type: 'Claim'; checkId: string; staleHolder?: string | null } | { type: 'Release'; checkId: string };

type ClaimEvent<Claimed extends string, Released extends string, Data> = { type: Claimed; data: Data } | { type: Released; data: Data };

/**
 * Who holds a name that must be unique (a stream per name whose last event names the holder): a
 * claim is refused while another check holds it, a release is its holder's alone.
 */
function claimDecider<Claimed extends string, Released extends string, Data extends { checkId: string }>(
  claimed: Claimed,
  released: Released,
  data: (checkId: string) => Data,
  taken: string,
): Decider<{ holder: string | null }, ClaimCommand, ClaimEvent<Claimed, Released, Data>> {
  return {
    initialState: () => ({ holder: null }),
    evolve: (_state, event) => ({ holder: event.type === claimed ? event.data.checkId : null }),
    decide(command, { holder }) {
      if (command.type === 'Release') return holder === command.checkId ? [{ type: released, data: data(command.checkId) }] : [];
      if (holder === command.checkId) return [];
      if (holder !== null && holder !== (command.staleHolder ?? null)) throw new ConflictError(taken);
      return [{ type: claimed, data: data(command.checkId) }];
    },
  };
}

/** `pingtoken-<token>`: tokens are unique across all accounts. */
export const pingTokenDecider = claimDecider('PingTokenClaimed', 'PingTokenReleased', (checkId) => ({ checkId }), 'pingToken is already used by another check');

/** `checkslug-<account>-<slug>`: slugs are unique within an account. */
export const checkSlugDecider = (slug: string) =>
  claimDecider('CheckSlugClaimed', 'CheckSlugReleased', (checkId) => ({ checkId, slug }), 'slug is already used by another check of this account');

export const pingTokenStream = (token: string) => `pingtoken-${token}`;
export const checkSlugStream = (accountId: string, slug: string) => `checkslug-${accountId}-${slug}`;

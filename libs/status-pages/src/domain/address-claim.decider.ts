import { ConflictError } from '../../../core/src/errors';

/**
 * A page address that must be unique across all accounts: its `url` slug or its custom domain.
 * Each address value has its own stream; whoever appends the claim first (expected revision)
 * owns it, so two concurrent creates with the same url can never both succeed.
 */
export type AddressKind = 'url' | 'customDomain';

export type AddressClaimEvent =
  | { type: 'StatusPageAddressClaimed'; data: { kind: AddressKind; value: string; statusPageId: string; accountId: string } }
  | { type: 'StatusPageAddressReleased'; data: { kind: AddressKind; value: string; statusPageId: string } };

export interface AddressClaimState {
  holder: { statusPageId: string; accountId: string; claimedAt: string } | null;
}

/**
 * `holderUsesIt`: whether the current holder's page (read from its own stream just before) shows this
 * address. A claim its holder does not use is left over from a write that failed half-way or lost a
 * race; after STALE_CLAIM_MS it may be taken over, before that its holder may still be writing.
 */
export type AddressClaimCommand =
  | { type: 'ClaimAddress'; kind: AddressKind; value: string; statusPageId: string; accountId: string; now: Date; holderUsesIt: boolean }
  | { type: 'ReleaseAddress'; kind: AddressKind; value: string; statusPageId: string; holderUsesIt: boolean };

export const STALE_CLAIM_MS = 60_000;

export const addressClaimDecider = {
  initialState: (): AddressClaimState => ({ holder: null }),

  decide(command: AddressClaimCommand, state: AddressClaimState): AddressClaimEvent[] {
    const { kind, value, statusPageId } = command;
    const holder = state.holder;
    if (command.type === 'ReleaseAddress') {
      if (!holder || holder.statusPageId !== statusPageId || command.holderUsesIt) return [];
      return [{ type: 'StatusPageAddressReleased', data: { kind, value, statusPageId } }];
    }
    const claimed: AddressClaimEvent = {
      type: 'StatusPageAddressClaimed',
      data: { kind, value, statusPageId, accountId: command.accountId },
    };
    if (!holder) return [claimed];
    if (holder.statusPageId === statusPageId) {
      // Already ours. A claim we hold but do not use yet is renewed, so nobody takes it over as stale.
      return command.holderUsesIt ? [] : [claimed];
    }
    const stale = !command.holderUsesIt && command.now.getTime() - new Date(holder.claimedAt).getTime() >= STALE_CLAIM_MS;
    if (!stale) throw new ConflictError(`${kind} "${value}" is already taken`);
    return [claimed];
  },

  evolve(state: AddressClaimState, event: AddressClaimEvent & { metadata?: { occurredAt: string } }): AddressClaimState {
    switch (event.type) {
      case 'StatusPageAddressClaimed':
        return {
          holder: {
            statusPageId: event.data.statusPageId,
            accountId: event.data.accountId,
            claimedAt: event.metadata?.occurredAt ?? new Date(0).toISOString(),
          },
        };
      case 'StatusPageAddressReleased':
        return state.holder?.statusPageId === event.data.statusPageId ? { holder: null } : state;
      default:
        return state;
    }
  },
};

/** One stream per address value; domains are case-insensitive, so their stream is keyed in lower case. */
export function addressClaimStream(kind: AddressKind, value: string): string {
  return kind === 'url' ? `statuspage-url-${value}` : `statuspage-domain-${value.toLowerCase()}`;
}

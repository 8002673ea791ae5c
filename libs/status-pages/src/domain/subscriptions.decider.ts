import { Decider } from '../../../core/src/decider';
import { NotFoundError } from '../../../core/src/errors';

export type SubscriptionStatus = 'PENDING' | 'VERIFIED';
export type SubscriptionType = 'EMAIL' | 'WEBHOOK';

export interface SubscriptionData {
  id: string;
  /** EMAIL: `address` is the email; WEBHOOK: the URL it POSTs to. */
  type: SubscriptionType;
  address: string;
  status: SubscriptionStatus;
}

/**
 * A page's subscribers live in a stream of their own, beside the page's: signing up must not
 * change the page's revision (its ETag), and duplicates are decided against one folded list.
 */
export type SubscriptionsEvent =
  | { type: 'StatusPageSubscriptionsAdded'; data: { statusPageId: string; accountId: string; subscriptions: SubscriptionData[] } }
  | { type: 'StatusPageSubscriptionRemoved'; data: { statusPageId: string; id: string } }
  /** Double opt-in: the confirmation link was followed. */
  | { type: 'StatusPageSubscriptionVerified'; data: { statusPageId: string; id: string } }
  /** The page was deleted: every remaining subscription goes with it, and no more may be added. */
  | { type: 'StatusPageSubscriptionsClosed'; data: { statusPageId: string; ids: string[] } };

export type SubscriptionsCommand =
  | { type: 'AddSubscriptions'; statusPageId: string; accountId: string; candidates: SubscriptionData[] }
  | { type: 'RemoveSubscription'; statusPageId: string; accountId: string; id: string }
  /** Returns no event when already verified: a confirmation link works once. */
  | { type: 'VerifySubscription'; statusPageId: string; id: string }
  | { type: 'CloseSubscriptions'; statusPageId: string };

export interface SubscriptionsState {
  closed: boolean;
  accountId: string | null;
  /** Subscription id by lower-cased address. */
  byAddress: Map<string, string>;
  ids: Set<string>;
  pending: Set<string>;
}

/** Addresses are compared without regard to case: one mailbox, one subscription. */
export const addressKey = (address: string) => address.toLowerCase();

export const subscriptionsDecider: Decider<SubscriptionsState, SubscriptionsCommand, SubscriptionsEvent> = {
  initialState: () => ({ closed: false, accountId: null, byAddress: new Map(), ids: new Set(), pending: new Set() }),
  decide(command, state) {
    switch (command.type) {
      case 'AddSubscriptions': {
        if (state.closed) throw new NotFoundError('Status page not found');
        const seen = new Set(state.byAddress.keys());
        const accepted: SubscriptionData[] = [];
        for (const candidate of command.candidates) {
          const key = addressKey(candidate.address);
          if (seen.has(key)) continue;
          seen.add(key);
          accepted.push(candidate);
        }
        if (accepted.length === 0) return [];
        return [
          {
            type: 'StatusPageSubscriptionsAdded',
            data: { statusPageId: command.statusPageId, accountId: command.accountId, subscriptions: accepted },
          },
        ];
      }
      case 'RemoveSubscription':
        if (state.closed || state.accountId !== command.accountId || !state.ids.has(command.id)) {
          throw new NotFoundError('Subscription not found');
        }
        return [{ type: 'StatusPageSubscriptionRemoved', data: { statusPageId: command.statusPageId, id: command.id } }];
      case 'VerifySubscription':
        if (state.closed || !state.ids.has(command.id)) throw new NotFoundError('Subscription not found');
        if (!state.pending.has(command.id)) return [];
        return [{ type: 'StatusPageSubscriptionVerified', data: { statusPageId: command.statusPageId, id: command.id } }];
      case 'CloseSubscriptions':
        if (state.closed) return [];
        return [{ type: 'StatusPageSubscriptionsClosed', data: { statusPageId: command.statusPageId, ids: [...state.ids] } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'StatusPageSubscriptionsAdded': {
        const byAddress = new Map(state.byAddress);
        const ids = new Set(state.ids);
        const pending = new Set(state.pending);
        for (const s of event.data.subscriptions) {
          byAddress.set(addressKey(s.address), s.id);
          ids.add(s.id);
          if (s.status === 'PENDING') pending.add(s.id);
        }
        return { ...state, accountId: event.data.accountId, byAddress, ids, pending };
      }
      case 'StatusPageSubscriptionVerified': {
        const pending = new Set(state.pending);
        pending.delete(event.data.id);
        return { ...state, pending };
      }
      case 'StatusPageSubscriptionRemoved': {
        const byAddress = new Map([...state.byAddress].filter(([, id]) => id !== event.data.id));
        const ids = new Set(state.ids);
        ids.delete(event.data.id);
        const pending = new Set(state.pending);
        pending.delete(event.data.id);
        return { ...state, byAddress, ids, pending };
      }
      case 'StatusPageSubscriptionsClosed':
        return { ...state, closed: true, byAddress: new Map(), ids: new Set(), pending: new Set() };
      default:
        return state;
    }
  },
};

export const subscriptionsStream = (statusPageId: string) => `statuspage-subscriptions-${statusPageId}`;

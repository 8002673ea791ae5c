import { Projection } from '../../../core/src/projection';
import { PendingSubscription, SUBSCRIPTIONS_EVENT_TYPES, subscriptionsDecider, SubscriptionsEvent, SubscriptionsState } from '../domain/subscriptions.decider';

/** A page's subscriptions state as one document: the snapshot its writes start from. */
export interface SubscriptionStateDoc {
  id: string;
  closed: boolean;
  accountId: string | null;
  /** Subscription id by address key. */
  byAddress: Record<string, string>;
  pending: Record<string, PendingSubscription>;
  [field: string]: unknown;
}

export function toSubscriptionsState(doc: SubscriptionStateDoc): SubscriptionsState {
  const byAddress = new Map(Object.entries(doc.byAddress));
  return { closed: doc.closed, accountId: doc.accountId, byAddress, ids: new Set(byAddress.values()), pending: new Map(Object.entries(doc.pending)) };
}

function toDoc(id: string, state: SubscriptionsState): SubscriptionStateDoc {
  return { id, closed: state.closed, accountId: state.accountId, byAddress: Object.fromEntries(state.byAddress), pending: Object.fromEntries(state.pending) };
}

const EMPTY: SubscriptionStateDoc = { id: '', closed: false, accountId: null, byAddress: {}, pending: {} };

/**
 * The decider's state of each page's subscriptions stream, kept by the decider's own evolve: a write folds
 * only the events after it (usually none) instead of the page's whole subscription history.
 */
export const subscriptionStatesProjection: Projection<SubscriptionStateDoc, SubscriptionsEvent> = {
  name: 'status_page_subscription_states',
  version: 1,
  handles: SUBSCRIPTIONS_EVENT_TYPES,
  indexes: [],
  ids: (event) => [event.data.statusPageId],
  evolve: (doc, event, id) => toDoc(id, subscriptionsDecider.evolve(toSubscriptionsState(doc ?? EMPTY), event)),
};

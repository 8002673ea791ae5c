import { RecordedEvent } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { SUBSCRIPTIONS_EVENT_TYPES, SubscriptionStatus, SubscriptionsEvent, SubscriptionType } from '../domain/subscriptions.decider';

/** A subscription as the API shows it. */
export interface SubscriptionView {
  id: string;
  type: SubscriptionType;
  address: string;
  status: SubscriptionStatus;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionDoc extends SubscriptionView {
  statusPageId: string;
  accountId: string;
  [field: string]: unknown;
}

export function subscriptionView(doc: SubscriptionDoc): SubscriptionView {
  return { id: doc.id, type: doc.type, address: doc.address, status: doc.status, created_at: doc.created_at, updated_at: doc.updated_at };
}

function touched(e: RecordedEvent<SubscriptionsEvent>): string[] {
  switch (e.type) {
    case 'StatusPageSubscriptionsAdded':
      return e.data.subscriptions.map((s) => s.id);
    case 'StatusPageSubscriptionRemoved':
    case 'StatusPageSubscriptionVerified':
    case 'StatusPageSubscriptionConfirmationRequested':
      return [e.data.id];
    case 'StatusPageSubscriptionsClosed':
    case 'StatusPageSubscriptionsExpired':
      return e.data.ids;
    default:
      return [];
  }
}

/** One document per subscription, all from their page's subscriptions stream. */
export const subscriptionsProjection: Projection<SubscriptionDoc, SubscriptionsEvent> = {
  name: 'status_page_subscriptions',
  version: 2,
  handles: SUBSCRIPTIONS_EVENT_TYPES,
  indexes: [{ field: 'statusPageId' }, { field: 'created_at' }],
  sortField: 'created_at',
  ids: touched,
  evolve(doc, e, id) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'StatusPageSubscriptionsAdded': {
        const s = e.data.subscriptions.find((candidate) => candidate.id === id);
        if (!s) return doc;
        return {
          id: s.id,
          statusPageId: e.data.statusPageId,
          accountId: e.data.accountId,
          type: s.type,
          address: s.address,
          status: s.status,
          created_at: at,
          updated_at: at,
        };
      }
      case 'StatusPageSubscriptionVerified':
        return doc && { ...doc, status: 'VERIFIED', updated_at: at };
      // A PENDING one's updated_at is its last confirmation request: what its expiry counts from.
      case 'StatusPageSubscriptionConfirmationRequested':
        return doc && doc.status === 'PENDING' ? { ...doc, updated_at: at } : doc;
      case 'StatusPageSubscriptionRemoved':
      case 'StatusPageSubscriptionsClosed':
      case 'StatusPageSubscriptionsExpired':
        return null;
      default:
        return doc;
    }
  },
};

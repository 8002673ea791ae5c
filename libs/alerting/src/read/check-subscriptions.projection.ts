import { Projection } from '../../../core/src/projection';
import type { AlertChannelSubscription, HeartbeatCheckEvent } from '../../../heartbeats/src/heartbeats.api';

/** A check's alert channel subscriptions, indexed by channel: a channel's `subscriptions` view. */
export interface CheckSubscriptionsDoc {
  id: string;
  accountId: string;
  channelIds: string[];
  subscriptions: AlertChannelSubscription[];
  [field: string]: unknown;
}

function of(id: string, accountId: string, subscriptions: AlertChannelSubscription[] | undefined): CheckSubscriptionsDoc {
  const list = subscriptions ?? [];
  return { id, accountId, channelIds: list.map((s) => s.alertChannelId), subscriptions: list };
}

/** Built from the checks' own events: the check is the one source of truth of a subscription. */
export const checkSubscriptionsProjection: Projection<CheckSubscriptionsDoc, HeartbeatCheckEvent> = {
  name: 'alert_check_subscriptions',
  version: 1,
  handles: ['HeartbeatCheckCreated', 'HeartbeatCheckUpdated', 'HeartbeatCheckDeleted'],
  indexes: [{ field: 'accountId' }, { field: 'channelIds', array: true }],
  ids: (event) => [event.data.id],
  evolve(doc, e) {
    switch (e.type) {
      case 'HeartbeatCheckCreated':
        return of(e.data.id, e.data.accountId, e.data.config.alertChannelSubscriptions);
      case 'HeartbeatCheckUpdated':
        return doc && of(doc.id, doc.accountId, e.data.config.alertChannelSubscriptions);
      case 'HeartbeatCheckDeleted':
        return null;
      default:
        return doc;
    }
  },
};

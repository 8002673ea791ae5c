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
  /** Added VERIFIED without double opt-in (`autoVerify`): the id (or name) of the ADMIN key that did it. */
  autoVerifiedBy?: string;
}

/**
 * A page's subscribers live in a stream of their own, beside the page's: signing up must not
 * change the page's revision (its ETag), and duplicates are decided against one folded list.
 */
export type SubscriptionsEvent =
  /** `requestedAt` (ISO; absent on events written before it was recorded): when their confirmations were asked for. */
  | { type: 'StatusPageSubscriptionsAdded'; data: { statusPageId: string; accountId: string; subscriptions: SubscriptionData[]; requestedAt?: string } }
  /** A PENDING address subscribed again: a fresh confirmation (new link) is sent to it. */
  | {
      type: 'StatusPageSubscriptionConfirmationRequested';
      data: { statusPageId: string; accountId: string; id: string; type: SubscriptionType; address: string; requestedAt: string };
    }
  | { type: 'StatusPageSubscriptionRemoved'; data: { statusPageId: string; id: string } }
  /** Double opt-in: the confirmation link was followed. */
  | { type: 'StatusPageSubscriptionVerified'; data: { statusPageId: string; id: string } }
  /** PENDING subscriptions never confirmed within PENDING_EXPIRY_MS of their last confirmation request. */
  | { type: 'StatusPageSubscriptionsExpired'; data: { statusPageId: string; ids: string[] } }
  /** The page was deleted: every remaining subscription goes with it, and no more may be added. */
  | { type: 'StatusPageSubscriptionsClosed'; data: { statusPageId: string; ids: string[] } };

export const SUBSCRIPTIONS_EVENT_TYPES: readonly SubscriptionsEvent['type'][] = [
  'StatusPageSubscriptionsAdded',
  'StatusPageSubscriptionConfirmationRequested',
  'StatusPageSubscriptionRemoved',
  'StatusPageSubscriptionVerified',
  'StatusPageSubscriptionsExpired',
  'StatusPageSubscriptionsClosed',
];

export type SubscriptionsCommand =
  /** `requestedAt`: now (ISO), to space out confirmations re-sent to a PENDING address. */
  | { type: 'AddSubscriptions'; statusPageId: string; accountId: string; candidates: SubscriptionData[]; requestedAt: string }
  | { type: 'RemoveSubscription'; statusPageId: string; accountId: string; id: string }
  /** Returns no event when already verified: a confirmation link works once. */
  | { type: 'VerifySubscription'; statusPageId: string; id: string }
  | { type: 'CloseSubscriptions'; statusPageId: string };

export interface SubscriptionsState {
  closed: boolean;
  accountId: string | null;
  /** Subscription id by addressKey. */
  byAddress: Map<string, string>;
  ids: Set<string>;
  /** PENDING subscriptions and when their last confirmation was asked for (ms; 0 when not recorded). */
  pending: Map<string, PendingSubscription>;
}

export interface PendingSubscription {
  type: SubscriptionType;
  address: string;
  requestedAt: number;
}

/** A PENDING address that subscribes again gets a fresh confirmation at most this often. */
export const CONFIRM_RESEND_MS = 10 * 60_000;

/**
 * A PENDING subscription not confirmed within 7 days of its last confirmation request expires: the next
 * write to the page's subscriptions removes it, and lists no longer show it. Its links (48 h) are long dead.
 */
export const PENDING_EXPIRY_MS = 7 * 24 * 3_600_000;

/** PENDING subscriptions whose last confirmation request is PENDING_EXPIRY_MS or more before `now` (ms). */
export function expiredPending(state: SubscriptionsState, now: number): string[] {
  return [...state.pending].filter(([, p]) => now - p.requestedAt >= PENDING_EXPIRY_MS).map(([id]) => id);
}

/**
 * One mailbox, one subscription: emails compare without regard to case. A URL's path and query are
 * case-sensitive: webhooks compare as WHATWG-normalised URLs (scheme and host lower-cased, default port dropped).
 */
export function addressKey(address: string, type: SubscriptionType = 'EMAIL'): string {
  if (type !== 'WEBHOOK') return address.toLowerCase();
  return URL.canParse(address) ? new URL(address).href : address;
}

export const subscriptionsDecider: Decider<SubscriptionsState, SubscriptionsCommand, SubscriptionsEvent> = {
  initialState: () => ({ closed: false, accountId: null, byAddress: new Map(), ids: new Set(), pending: new Map() }),
  decide(command, state) {
    switch (command.type) {
      case 'AddSubscriptions': {
        if (state.closed) throw new NotFoundError('Status page not found');
        const { statusPageId, accountId, requestedAt } = command;
        // Expired PENDING subscriptions go first: their addresses may sign up afresh.
        const expired = expiredPending(state, Date.parse(requestedAt));
        const gone = new Set(expired);
        const seen = new Set([...state.byAddress].filter(([, id]) => !gone.has(id)).map(([key]) => key));
        const accepted: SubscriptionData[] = [];
        const resent: SubscriptionsEvent[] = [];
        const asked = new Set<string>();
        for (const candidate of command.candidates) {
          const key = addressKey(candidate.address, candidate.type);
          if (seen.has(key)) {
            const id = state.byAddress.get(key);
            const pending = id === undefined ? undefined : state.pending.get(id);
            // Still PENDING (say the link expired, or the email went missing): a new link, spaced out.
            if (id !== undefined && pending && !asked.has(id) && candidate.status === 'PENDING' && Date.parse(requestedAt) - pending.requestedAt >= CONFIRM_RESEND_MS) {
              asked.add(id);
              resent.push({ type: 'StatusPageSubscriptionConfirmationRequested', data: { statusPageId, accountId, id, type: pending.type, address: pending.address, requestedAt } });
            }
            continue;
          }
          seen.add(key);
          accepted.push(candidate);
        }
        const events: SubscriptionsEvent[] = expired.length === 0 ? [] : [{ type: 'StatusPageSubscriptionsExpired', data: { statusPageId, ids: expired } }];
        if (accepted.length > 0) events.push({ type: 'StatusPageSubscriptionsAdded', data: { statusPageId, accountId, subscriptions: accepted, requestedAt } });
        return [...events, ...resent];
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
        const pending = new Map(state.pending);
        const requestedAt = event.data.requestedAt ? Date.parse(event.data.requestedAt) : 0;
        for (const s of event.data.subscriptions) {
          byAddress.set(addressKey(s.address, s.type), s.id);
          ids.add(s.id);
          if (s.status === 'PENDING') pending.set(s.id, { type: s.type, address: s.address, requestedAt });
        }
        return { ...state, accountId: event.data.accountId, byAddress, ids, pending };
      }
      case 'StatusPageSubscriptionConfirmationRequested': {
        const before = state.pending.get(event.data.id);
        if (!before) return state;
        const pending = new Map(state.pending);
        pending.set(event.data.id, { ...before, requestedAt: Date.parse(event.data.requestedAt) });
        return { ...state, pending };
      }
      case 'StatusPageSubscriptionVerified': {
        const pending = new Map(state.pending);
        pending.delete(event.data.id);
        return { ...state, pending };
      }
      case 'StatusPageSubscriptionRemoved':
        return without(state, [event.data.id]);
      case 'StatusPageSubscriptionsExpired':
        return without(state, event.data.ids);
      case 'StatusPageSubscriptionsClosed':
        return { ...state, closed: true, byAddress: new Map(), ids: new Set(), pending: new Map() };
      default:
        return state;
    }
  },
};

function without(state: SubscriptionsState, removed: string[]): SubscriptionsState {
  const gone = new Set(removed);
  const byAddress = new Map([...state.byAddress].filter(([, id]) => !gone.has(id)));
  const ids = new Set([...state.ids].filter((id) => !gone.has(id)));
  const pending = new Map([...state.pending].filter(([id]) => !gone.has(id)));
  return { ...state, byAddress, ids, pending };
}

export const subscriptionsStream = (statusPageId: string) => `statuspage-subscriptions-${statusPageId}`;

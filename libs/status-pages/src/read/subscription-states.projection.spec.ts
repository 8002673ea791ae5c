import { project, recorded } from '../../../testing/src/given-when-then';
import { SubscriptionData, subscriptionsDecider, SubscriptionsEvent, subscriptionsStream } from '../domain/subscriptions.decider';
import { subscriptionStatesProjection, toSubscriptionsState } from './subscription-states.projection';

const PAGE = '01900000-0000-7000-8000-0000000000a1';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const S = (n: number) => `01900000-0000-7000-8000-00000000050${n}`;
const sub = (n: number, address: string, status: SubscriptionData['status']): SubscriptionData => ({ id: S(n), type: 'EMAIL', address, status });
const AT = '2026-03-01T10:00:00.000Z';
const history: SubscriptionsEvent[] = [
  { type: 'StatusPageSubscriptionsAdded', data: { statusPageId: PAGE, accountId: ACCOUNT, subscriptions: [sub(1, 'a@example.com', 'PENDING'), sub(2, 'B@example.com', 'VERIFIED')], requestedAt: AT } },
  { type: 'StatusPageSubscriptionsAdded', data: { statusPageId: PAGE, accountId: ACCOUNT, subscriptions: [sub(3, 'c@example.com', 'PENDING'), sub(4, 'd@example.com', 'PENDING')], requestedAt: AT } },
  { type: 'StatusPageSubscriptionVerified', data: { statusPageId: PAGE, id: S(3) } },
  { type: 'StatusPageSubscriptionConfirmationRequested', data: { statusPageId: PAGE, accountId: ACCOUNT, id: S(4), type: 'EMAIL', address: 'd@example.com', requestedAt: '2026-03-02T10:00:00.000Z' } },
  { type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: S(2) } },
  { type: 'StatusPageSubscriptionsExpired', data: { statusPageId: PAGE, ids: [S(1)] } },
];
const events = (list: SubscriptionsEvent[]) => recorded(subscriptionsStream(PAGE), list, { at: () => AT, accountId: ACCOUNT });
const fold = (list: SubscriptionsEvent[]) => list.reduce((state, event) => subscriptionsDecider.evolve(state, event), subscriptionsDecider.initialState());

describe('subscription states projection (the snapshot of subscription writes)', () => {
  it('given a page\'s history, then one document holding exactly the decider\'s state', () => {
    for (let n = 1; n <= history.length; n++) {
      const docs = project(subscriptionStatesProjection, events(history.slice(0, n)));
      expect([...docs.keys()]).toEqual([PAGE]);
      expect(toSubscriptionsState(docs.get(PAGE)!)).toEqual(fold(history.slice(0, n)));
    }
  });

  it('given the page closed, then the document says so and holds no subscriber', () => {
    const closed: SubscriptionsEvent = { type: 'StatusPageSubscriptionsClosed', data: { statusPageId: PAGE, ids: [S(3), S(4)] } };
    const doc = project(subscriptionStatesProjection, events([...history, closed])).get(PAGE)!;
    expect(doc).toEqual({ id: PAGE, closed: true, accountId: ACCOUNT, byAddress: {}, pending: {} });
  });
});

import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { SubscriptionData, SubscriptionsEvent, subscriptionsStream } from '../domain/subscriptions.decider';
import { SubscriptionDoc, subscriptionsProjection } from './subscriptions.projection';

const PAGE = '01900000-0000-7000-8000-0000000000a1';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const S1 = '01900000-0000-7000-8000-000000000501';
const S2 = '01900000-0000-7000-8000-000000000502';
const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T11:00:00.000Z', '2026-03-03T12:00:00.000Z'];
const sub = (id: string, address: string, status: SubscriptionData['status']): SubscriptionData => ({ id, type: 'EMAIL', address, status });
const added: SubscriptionsEvent = {
  type: 'StatusPageSubscriptionsAdded',
  data: { statusPageId: PAGE, accountId: ACCOUNT, subscriptions: [sub(S1, 'a@example.com', 'PENDING'), sub(S2, 'b@example.com', 'VERIFIED')] },
};
const removed: SubscriptionsEvent = { type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: S1 } };
const closed: SubscriptionsEvent = { type: 'StatusPageSubscriptionsClosed', data: { statusPageId: PAGE, ids: [S2] } };
const events = (...list: SubscriptionsEvent[]) => recorded(subscriptionsStream(PAGE), list, { at: (i) => times[i], accountId: ACCOUNT });

describe('subscriptions projection', () => {
  it('given a bulk add, then one document per subscription', () => {
    const docs = project(subscriptionsProjection, events(added));
    expect([...docs.values()]).toEqual([
      { id: S1, statusPageId: PAGE, accountId: ACCOUNT, type: 'EMAIL', address: 'a@example.com', status: 'PENDING', created_at: times[0], updated_at: times[0] },
      { id: S2, statusPageId: PAGE, accountId: ACCOUNT, type: 'EMAIL', address: 'b@example.com', status: 'VERIFIED', created_at: times[0], updated_at: times[0] },
    ]);
  });

  it('given a removal, then that subscription is gone and the others stay', () => {
    expect([...project(subscriptionsProjection, events(added, removed)).keys()]).toEqual([S2]);
  });

  it('given the list closed with its page, then every remaining subscription is gone', () => {
    expect(project(subscriptionsProjection, events(added, removed, closed)).size).toBe(0);
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [subscriptionsProjection]);
    });
    afterEach(() => harness.close());

    it('a replay after removal and close brings nothing back', async () => {
      await harness.append(subscriptionsStream(PAGE), [added], times[0]);
      const byPage = () => harness.find<SubscriptionDoc>('status_page_subscriptions', { filters: [{ field: 'statusPageId', op: 'eq', value: PAGE }], limit: 10 });
      expect((await byPage()).map((d) => d.id)).toEqual([S1, S2]);
      await harness.append(subscriptionsStream(PAGE), [removed], times[1]);
      await harness.replayAll();
      expect((await byPage()).map((d) => d.id)).toEqual([S2]);
      await harness.append(subscriptionsStream(PAGE), [closed], times[2]);
      await harness.replayAll();
      expect(await byPage()).toEqual([]);
    });
  });
});

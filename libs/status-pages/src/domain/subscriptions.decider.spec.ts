import { NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { addressKey, CONFIRM_RESEND_MS, PENDING_EXPIRY_MS, SubscriptionData, subscriptionsDecider, SubscriptionsEvent, subscriptionsStream } from './subscriptions.decider';

const PAGE = '01900000-0000-7000-8000-0000000000a1';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const OTHER = '01900000-0000-7000-8000-000000000002';
const sub = (n: number, address: string, status: SubscriptionData['status'] = 'PENDING'): SubscriptionData => ({
  id: `01900000-0000-7000-8000-0000000005${String(n).padStart(2, '0')}`,
  type: 'EMAIL',
  address,
  status,
});
const AT = '2026-01-01T00:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();
const added = (...subscriptions: SubscriptionData[]): SubscriptionsEvent => ({
  type: 'StatusPageSubscriptionsAdded',
  data: { statusPageId: PAGE, accountId: ACCOUNT, subscriptions, requestedAt: AT },
});
const hook = (n: number, address: string, status: SubscriptionData['status'] = 'PENDING'): SubscriptionData => ({ ...sub(n, address, status), type: 'WEBHOOK' });
const add = (candidates: SubscriptionData[], requestedAt = AT) => ({ type: 'AddSubscriptions' as const, statusPageId: PAGE, accountId: ACCOUNT, candidates, requestedAt });
const resent = (s: SubscriptionData, requestedAt: string): SubscriptionsEvent => ({
  type: 'StatusPageSubscriptionConfirmationRequested',
  data: { statusPageId: PAGE, accountId: ACCOUNT, id: s.id, type: s.type, address: s.address, requestedAt },
});
const spec = specFor(subscriptionsDecider);

describe('subscriptions decider', () => {
  it('keeps subscribers in a stream of their own, beside the page', () => {
    expect(subscriptionsStream(PAGE)).toBe(`statuspage-subscriptions-${PAGE}`);
  });

  describe('pending subscriptions expire (issue 32, item 2)', () => {
    it('given a PENDING subscription 7 days old, then the next add removes it and takes its address afresh', () => {
      const old = sub(1, 'a@example.com');
      const verified = sub(2, 'v@example.com', 'VERIFIED');
      const again = sub(3, 'A@example.com');
      spec
        .given([added(old, verified)])
        .when(add([again], later(PENDING_EXPIRY_MS)))
        .then([
          { type: 'StatusPageSubscriptionsExpired', data: { statusPageId: PAGE, ids: [old.id] } },
          { type: 'StatusPageSubscriptionsAdded', data: { statusPageId: PAGE, accountId: ACCOUNT, subscriptions: [again], requestedAt: later(PENDING_EXPIRY_MS) } },
        ]);
    });

    it('given a PENDING subscription asked again 2 days ago, then it has not expired', () => {
      const old = sub(1, 'a@example.com');
      const newcomer = sub(4, 'new@example.com');
      spec
        .given([added(old), resent(old, later(PENDING_EXPIRY_MS - 2 * 86_400_000))])
        .when(add([newcomer], later(PENDING_EXPIRY_MS)))
        .then([added(newcomer)].map((e) => ({ ...e, data: { ...e.data, requestedAt: later(PENDING_EXPIRY_MS) } }) as SubscriptionsEvent));
    });

    it('given an expired subscription, then it can be neither verified nor removed', () => {
      const old = sub(1, 'a@example.com');
      const expired: SubscriptionsEvent = { type: 'StatusPageSubscriptionsExpired', data: { statusPageId: PAGE, ids: [old.id] } };
      spec.given([added(old), expired]).when({ type: 'VerifySubscription', statusPageId: PAGE, id: old.id }).thenThrows(NotFoundError);
      spec.given([added(old), expired]).when({ type: 'RemoveSubscription', statusPageId: PAGE, accountId: ACCOUNT, id: old.id }).thenThrows(NotFoundError);
    });
  });

  describe('AddSubscriptions', () => {
    it('given nothing, then the candidates are added', () => {
      const candidates = [sub(1, 'a@example.com'), sub(2, 'b@example.com', 'VERIFIED')];
      spec.given([]).when(add(candidates)).then([added(...candidates)]);
    });

    it('given subscribers, then addresses already there (in any case) and repeats in the batch are left out', () => {
      spec
        .given([added(sub(1, 'a@example.com'))])
        .when(add([sub(2, 'A@Example.com'), sub(3, 'c@example.com'), sub(4, 'C@example.COM')]))
        .then([added(sub(3, 'c@example.com'))]);
    });

    it('given only duplicates, then nothing', () => {
      spec.given([added(sub(1, 'a@example.com'))]).when(add([sub(2, 'a@example.com')])).then([]);
    });

    it('given a removed subscriber, then the address may subscribe again', () => {
      spec
        .given([added(sub(1, 'a@example.com')), { type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: sub(1, '').id } }])
        .when(add([sub(2, 'a@example.com')]))
        .then([added(sub(2, 'a@example.com'))]);
    });

    it('compares webhook URLs by scheme and host without regard to case, path and query exactly', () => {
      spec
        .given([added(hook(1, 'https://x.io/hook?a=B'))])
        .when(add([hook(2, 'https://x.io/Hook?a=B'), hook(3, 'HTTPS://X.IO/hook?a=B'), hook(4, 'https://x.io/hook?a=b'), hook(5, 'https://X.io:443/Hook?a=B')]))
        .then([added(hook(2, 'https://x.io/Hook?a=B'), hook(4, 'https://x.io/hook?a=b'))]);
      expect(addressKey('HTTPS://X.IO/hook', 'WEBHOOK')).toBe(addressKey('https://x.io/hook', 'WEBHOOK'));
      expect(addressKey('https://x.io/Hook', 'WEBHOOK')).not.toBe(addressKey('https://x.io/hook', 'WEBHOOK'));
      expect(addressKey('Ops@Example.com')).toBe('ops@example.com');
    });

    it('given a PENDING address whose link expired, then subscribing again asks for a fresh confirmation, not a second subscription', () => {
      const first = sub(1, 'a@example.com');
      spec
        .given([added(first)])
        .when(add([sub(2, 'A@example.com'), sub(3, 'a@example.com'), sub(4, 'b@example.com')], later(49 * 3_600_000)))
        .then([
          { type: 'StatusPageSubscriptionsAdded', data: { statusPageId: PAGE, accountId: ACCOUNT, subscriptions: [sub(4, 'b@example.com')], requestedAt: later(49 * 3_600_000) } },
          resent(first, later(49 * 3_600_000)),
        ]);
    });

    it('given a PENDING address asked less than the resend interval ago, then nothing: no spam', () => {
      const first = sub(1, 'a@example.com');
      spec.given([added(first)]).when(add([sub(2, 'a@example.com')], later(CONFIRM_RESEND_MS - 1))).then([]);
      spec.given([added(first)]).when(add([sub(2, 'a@example.com')], later(CONFIRM_RESEND_MS))).then([resent(first, later(CONFIRM_RESEND_MS))]);
      spec
        .given([added(first), resent(first, later(60 * 60_000))])
        .when(add([sub(2, 'a@example.com')], later(60 * 60_000 + CONFIRM_RESEND_MS - 1)))
        .then([]);
    });

    it('given a VERIFIED address, a verified one, or autoVerify, then nothing is re-sent', () => {
      const verified: SubscriptionsEvent = { type: 'StatusPageSubscriptionVerified', data: { statusPageId: PAGE, id: sub(1, '').id } };
      const much = later(72 * 3_600_000);
      spec.given([added(sub(1, 'a@example.com')), verified]).when(add([sub(2, 'a@example.com')], much)).then([]);
      spec.given([added(sub(1, 'a@example.com', 'VERIFIED'))]).when(add([sub(2, 'a@example.com')], much)).then([]);
      spec.given([added(sub(1, 'a@example.com'))]).when(add([sub(2, 'a@example.com', 'VERIFIED')], much)).then([]);
    });

    it('given a PENDING webhook, then adding it again re-sends its confirmation POST too', () => {
      const first = hook(1, 'https://x.io/hook');
      spec.given([added(first)]).when(add([hook(2, 'HTTPS://X.IO/hook')], later(CONFIRM_RESEND_MS))).then([resent(first, later(CONFIRM_RESEND_MS))]);
    });

    it('given a closed list (page deleted), then not found', () => {
      spec
        .given([{ type: 'StatusPageSubscriptionsClosed', data: { statusPageId: PAGE, ids: [] } }])
        .when(add([sub(1, 'a@example.com')]))
        .thenThrows(NotFoundError);
    });
  });

  describe('RemoveSubscription', () => {
    it('given the subscription, then removed', () => {
      spec
        .given([added(sub(1, 'a@example.com'))])
        .when({ type: 'RemoveSubscription', statusPageId: PAGE, accountId: ACCOUNT, id: sub(1, '').id })
        .then([{ type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: sub(1, '').id } }]);
    });

    it('given no such subscription, an already removed one, or another account, then not found', () => {
      const removed: SubscriptionsEvent = { type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: sub(1, '').id } };
      spec.given([]).when({ type: 'RemoveSubscription', statusPageId: PAGE, accountId: ACCOUNT, id: sub(1, '').id }).thenThrows(NotFoundError);
      spec.given([added(sub(1, 'a@example.com')), removed]).when({ type: 'RemoveSubscription', statusPageId: PAGE, accountId: ACCOUNT, id: sub(1, '').id }).thenThrows(NotFoundError);
      spec.given([added(sub(1, 'a@example.com'))]).when({ type: 'RemoveSubscription', statusPageId: PAGE, accountId: OTHER, id: sub(1, '').id }).thenThrows(NotFoundError);
    });
  });

  describe('CloseSubscriptions', () => {
    it('given subscribers, then closed naming every remaining one', () => {
      spec
        .given([added(sub(1, 'a@example.com'), sub(2, 'b@example.com')), { type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: sub(1, '').id } }])
        .when({ type: 'CloseSubscriptions', statusPageId: PAGE })
        .then([{ type: 'StatusPageSubscriptionsClosed', data: { statusPageId: PAGE, ids: [sub(2, '').id] } }]);
    });

    it('given a page that never had subscribers, then closed with none', () => {
      spec.given([]).when({ type: 'CloseSubscriptions', statusPageId: PAGE }).then([{ type: 'StatusPageSubscriptionsClosed', data: { statusPageId: PAGE, ids: [] } }]);
    });

    it('given a closed list, then nothing', () => {
      spec.given([{ type: 'StatusPageSubscriptionsClosed', data: { statusPageId: PAGE, ids: [] } }]).when({ type: 'CloseSubscriptions', statusPageId: PAGE }).then([]);
    });
  });

  describe('VerifySubscription (double opt-in)', () => {
    const verify = (id: string) => ({ type: 'VerifySubscription' as const, statusPageId: PAGE, id });
    it('given a pending subscription, then it is verified once', () => {
      spec.given([added(sub(1, 'a@example.com'))]).when(verify(sub(1, 'a').id)).then([{ type: 'StatusPageSubscriptionVerified', data: { statusPageId: PAGE, id: sub(1, 'a').id } }]);
    });
    it('given it was verified already (or added verified), then nothing: a link works once', () => {
      const verified: SubscriptionsEvent = { type: 'StatusPageSubscriptionVerified', data: { statusPageId: PAGE, id: sub(1, 'a').id } };
      spec.given([added(sub(1, 'a@example.com')), verified]).when(verify(sub(1, 'a').id)).then([]);
      spec.given([added(sub(2, 'b@example.com', 'VERIFIED'))]).when(verify(sub(2, 'b').id)).then([]);
    });
    it('given it was removed, then 404', () => {
      spec
        .given([added(sub(1, 'a@example.com')), { type: 'StatusPageSubscriptionRemoved', data: { statusPageId: PAGE, id: sub(1, 'a').id } }])
        .when(verify(sub(1, 'a').id))
        .thenThrows(NotFoundError);
    });
  });
});

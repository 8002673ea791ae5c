import { ConflictError } from '../../../core/src/errors';
import { recorded } from '../../../testing/src/given-when-then';
import { AddressClaimCommand, AddressClaimEvent, addressClaimDecider, addressClaimStream, STALE_CLAIM_MS } from './address-claim.decider';

const PAGE = '01900000-0000-7000-8000-0000000000a1';
const OTHER_PAGE = '01900000-0000-7000-8000-0000000000a2';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const OTHER_ACCOUNT = '01900000-0000-7000-8000-000000000002';
const CLAIMED_AT = '2026-01-01T00:00:00.000Z';
const stream = addressClaimStream('url', 'acme');

const claimedBy = (statusPageId: string, accountId: string): AddressClaimEvent => ({
  type: 'StatusPageAddressClaimed',
  data: { kind: 'url', value: 'acme', statusPageId, accountId },
});
const releasedBy = (statusPageId: string): AddressClaimEvent => ({ type: 'StatusPageAddressReleased', data: { kind: 'url', value: 'acme', statusPageId } });

function decide(history: AddressClaimEvent[], command: AddressClaimCommand) {
  const events = recorded(stream, history, { at: () => CLAIMED_AT }) as unknown as (AddressClaimEvent & { metadata: { occurredAt: string } })[];
  return addressClaimDecider.decide(command, events.reduce(addressClaimDecider.evolve, addressClaimDecider.initialState()));
}

const claim = (statusPageId: string, accountId: string, holderUsesIt: boolean, afterMs = 1000): AddressClaimCommand => ({
  type: 'ClaimAddress',
  kind: 'url',
  value: 'acme',
  statusPageId,
  accountId,
  holderUsesIt,
  now: new Date(new Date(CLAIMED_AT).getTime() + afterMs),
});
const release = (statusPageId: string, holderUsesIt: boolean): AddressClaimCommand => ({ type: 'ReleaseAddress', kind: 'url', value: 'acme', statusPageId, holderUsesIt });

describe('address claim decider', () => {
  it('keys url streams by slug and domain streams by the lower-cased domain', () => {
    expect(addressClaimStream('url', 'acme')).toBe('statuspage-url-acme');
    expect(addressClaimStream('customDomain', 'Status.Acme.COM')).toBe('statuspage-domain-status.acme.com');
  });

  describe('ClaimAddress', () => {
    it('given nothing, then claimed', () => {
      expect(decide([], claim(PAGE, ACCOUNT, false))).toEqual([claimedBy(PAGE, ACCOUNT)]);
    });

    it('given a released claim, then claimed again', () => {
      expect(decide([claimedBy(OTHER_PAGE, OTHER_ACCOUNT), releasedBy(OTHER_PAGE)], claim(PAGE, ACCOUNT, false))).toEqual([claimedBy(PAGE, ACCOUNT)]);
    });

    it('given a claim by a page that shows the address, then a conflict, in any account', () => {
      expect(() => decide([claimedBy(OTHER_PAGE, OTHER_ACCOUNT)], claim(PAGE, ACCOUNT, true))).toThrow(ConflictError);
      expect(() => decide([claimedBy(OTHER_PAGE, ACCOUNT)], claim(PAGE, ACCOUNT, true, 10 * STALE_CLAIM_MS))).toThrow('url "acme" is already taken');
    });

    it('given a fresh claim its holder does not show yet (a write in flight), then a conflict', () => {
      expect(() => decide([claimedBy(OTHER_PAGE, OTHER_ACCOUNT)], claim(PAGE, ACCOUNT, false, STALE_CLAIM_MS - 1))).toThrow(ConflictError);
    });

    it('given a stale claim its holder does not show (left by a failed write), then taken over', () => {
      expect(decide([claimedBy(OTHER_PAGE, OTHER_ACCOUNT)], claim(PAGE, ACCOUNT, false, STALE_CLAIM_MS))).toEqual([claimedBy(PAGE, ACCOUNT)]);
    });

    it('given our own claim that the page shows, then nothing', () => {
      expect(decide([claimedBy(PAGE, ACCOUNT)], claim(PAGE, ACCOUNT, true))).toEqual([]);
    });

    it('given our own claim that the page does not show yet, then renewed so it cannot go stale under us', () => {
      expect(decide([claimedBy(PAGE, ACCOUNT)], claim(PAGE, ACCOUNT, false, 5 * STALE_CLAIM_MS))).toEqual([claimedBy(PAGE, ACCOUNT)]);
    });
  });

  describe('ReleaseAddress', () => {
    it('given our claim that the page no longer shows, then released', () => {
      expect(decide([claimedBy(PAGE, ACCOUNT)], release(PAGE, false))).toEqual([releasedBy(PAGE)]);
    });

    it('given our claim that the page still shows, then nothing', () => {
      expect(decide([claimedBy(PAGE, ACCOUNT)], release(PAGE, true))).toEqual([]);
    });

    it("given another page's claim, then nothing", () => {
      expect(decide([claimedBy(OTHER_PAGE, OTHER_ACCOUNT)], release(PAGE, false))).toEqual([]);
    });

    it('given nothing or a released claim, then nothing', () => {
      expect(decide([], release(PAGE, false))).toEqual([]);
      expect(decide([claimedBy(PAGE, ACCOUNT), releasedBy(PAGE)], release(PAGE, false))).toEqual([]);
    });
  });

  it('a stale release by a former holder does not free a claim another page took over', () => {
    const events = recorded(stream, [claimedBy(PAGE, ACCOUNT), claimedBy(OTHER_PAGE, OTHER_ACCOUNT), releasedBy(PAGE)]) as never[];
    const state = events.reduce(addressClaimDecider.evolve, addressClaimDecider.initialState());
    expect(state.holder?.statusPageId).toBe(OTHER_PAGE);
  });
});

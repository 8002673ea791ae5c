import { ConflictError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { checkSlugDecider, pingTokenDecider } from './claim.decider';

describe('ping token decider', () => {
  const spec = specFor(pingTokenDecider);
  const claimedBy = (checkId: string) => ({ type: 'PingTokenClaimed' as const, data: { checkId } });

  it('lets a free token be claimed, and a claim be repeated by its holder', () => {
    spec.given([]).when({ type: 'Claim', checkId: 'a', staleHolder: null }).then([claimedBy('a')]);
    spec.given([claimedBy('a')]).when({ type: 'Claim', checkId: 'a', staleHolder: null }).then([]);
  });
  it('refuses a held token unless its holder was found stale', () => {
    spec.given([claimedBy('a')]).when({ type: 'Claim', checkId: 'b', staleHolder: null }).thenThrows(ConflictError);
    spec.given([claimedBy('a')]).when({ type: 'Claim', checkId: 'b', staleHolder: 'a' }).then([claimedBy('b')]);
  });
  it('releases only for its holder', () => {
    spec.given([claimedBy('a')]).when({ type: 'Release', checkId: 'b' }).then([]);
    spec.given([claimedBy('a')]).when({ type: 'Release', checkId: 'a' }).then([{ type: 'PingTokenReleased', data: { checkId: 'a' } }]);
  });
});

describe('check slug decider', () => {
  const spec = specFor(checkSlugDecider('backup'));
  const claimedBy = (checkId: string) => ({ type: 'CheckSlugClaimed' as const, data: { checkId, slug: 'backup' } });

  it('lets a free slug be claimed once, and refuses it to another check while held', () => {
    spec.given([]).when({ type: 'Claim', checkId: 'a', staleHolder: null }).then([claimedBy('a')]);
    spec.given([claimedBy('a')]).when({ type: 'Claim', checkId: 'a', staleHolder: null }).then([]);
    spec.given([claimedBy('a')]).when({ type: 'Claim', checkId: 'b', staleHolder: null }).thenThrows(ConflictError);
  });
  it('takes over a stale claim, and is free again once released', () => {
    spec.given([claimedBy('a')]).when({ type: 'Claim', checkId: 'b', staleHolder: 'a' }).then([claimedBy('b')]);
    const released = { type: 'CheckSlugReleased' as const, data: { checkId: 'a', slug: 'backup' } };
    spec.given([claimedBy('a')]).when({ type: 'Release', checkId: 'a' }).then([released]);
    spec.given([claimedBy('a'), released]).when({ type: 'Claim', checkId: 'b', staleHolder: null }).then([claimedBy('b')]);
    spec.given([claimedBy('b')]).when({ type: 'Release', checkId: 'a' }).then([]);
  });
});

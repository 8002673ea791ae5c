import { ConflictError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { outageDecider } from './outage.decider';
import { pingTokenDecider } from './ping-token.decider';

describe('outage decider', () => {
  const spec = specFor(outageDecider);
  const claimed = { type: 'HeartbeatOutageClaimed' as const, data: { checkId: 'c' } };
  const opened = { type: 'HeartbeatOutageIncidentOpened' as const, data: { incidentId: 'i' } };

  it('claims an outage once', () => {
    spec.given([]).when({ type: 'Claim', checkId: 'c' }).then([claimed]);
    spec.given([claimed]).when({ type: 'Claim', checkId: 'c' }).then([]);
  });
  it('records its incident once', () => spec.given([claimed, opened]).when({ type: 'RecordIncident', incidentId: 'j' }).then([]));
  it('resolves an opened outage once, and never one without an incident', () => {
    spec.given([claimed, opened]).when({ type: 'Resolve' }).then([{ type: 'HeartbeatOutageResolved', data: {} }]);
    spec.given([claimed, opened, { type: 'HeartbeatOutageResolved', data: {} }]).when({ type: 'Resolve' }).then([]);
    spec.given([claimed]).when({ type: 'Resolve' }).then([]);
  });
});

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

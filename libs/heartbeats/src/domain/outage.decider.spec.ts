import { specFor } from '../../../testing/src/given-when-then';
import { outageDecider } from './outage.decider';

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

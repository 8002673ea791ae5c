import { fold } from '../../../core/src/decider';
import { legacyOutage } from './legacy-outage';

describe('legacy outage record', () => {
  const claimed = { type: 'HeartbeatOutageClaimed' as const, data: { checkId: 'c' } };
  const opened = { type: 'HeartbeatOutageIncidentOpened' as const, data: { incidentId: 'i' } };
  const resolved = { type: 'HeartbeatOutageResolved' as const, data: {} };

  it('given a claim only (a crash before the incident), then no incident', () => expect(fold(legacyOutage, [claimed])).toEqual({ incidentId: null }));
  it('given its incident recorded, then that incident, resolved or not', () => {
    expect(fold(legacyOutage, [claimed, opened])).toEqual({ incidentId: 'i' });
    expect(fold(legacyOutage, [claimed, opened, resolved])).toEqual({ incidentId: 'i' });
  });
});

import { DomainEvent } from '../../../core/src/event';
import { IncidentEvent } from '../../../incidents/src/incidents.api';
import { project, recorded } from '../../../testing/src/given-when-then';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { IncidentOutageDoc, incidentOutagesProjection, INCIDENT_OUTAGES } from './incident-outages.projection';

const ACCOUNT = 'account-1';
const created: IncidentEvent = { type: 'IncidentCreated', data: { incidentId: 'i1', accountId: ACCOUNT, name: 'Down', severity: 'CRITICAL', serviceIds: ['s1'] } };
const posted = (updateId: string, status: 'INVESTIGATING' | 'RESOLVED' | 'MONITORING', at: string): IncidentEvent => ({
  type: 'IncidentUpdatePosted',
  data: { incidentId: 'i1', updateId, description: 'x', status, publicIncidentUpdateDate: at, notifySubscribers: false },
});

/** given these events of incident i1, then its rollup (null: none). */
function given(events: IncidentEvent[]): IncidentOutageDoc | null {
  return project(incidentOutagesProjection, recorded('incident-i1', events as DomainEvent[], { accountId: ACCOUNT })).get('i1') ?? null;
}

describe('incident outages projection (daily rollups of the uptime bars)', () => {
  it('splits a resolved incident across the UTC days it covered', () => {
    const doc = given([created, posted('u1', 'INVESTIGATING', '2026-11-18T22:00:00.000Z'), posted('u2', 'RESOLVED', '2026-11-19T01:30:00.000Z')]);
    expect(doc).toEqual(
      expect.objectContaining({
        days: [
          { day: '2026-11-18', seconds: 7200 },
          { day: '2026-11-19', seconds: 5400 },
        ],
        openSince: null,
        touchedDays: ['2026-11-18', '2026-11-19'],
        accountLastDay: `${ACCOUNT}:2026-11-19`,
      }),
    );
  });

  it('keeps an open period open, indexed after every day', () => {
    const doc = given([created, posted('u1', 'INVESTIGATING', '2026-11-18T22:00:00.000Z')]);
    expect(doc).toEqual(expect.objectContaining({ days: [], openSince: '2026-11-18T22:00:00.000Z', accountLastDay: `${ACCOUNT}:9999-12-31` }));
  });

  it('counts a re-opened incident twice and the gap between not at all', () => {
    const doc = given([
      created,
      posted('u1', 'INVESTIGATING', '2026-11-18T10:00:00.000Z'),
      posted('u2', 'RESOLVED', '2026-11-18T11:00:00.000Z'),
      posted('u3', 'MONITORING', '2026-11-18T15:00:00.000Z'),
      posted('u4', 'RESOLVED', '2026-11-18T15:30:00.000Z'),
    ]);
    expect(doc?.days).toEqual([{ day: '2026-11-18', seconds: 5400 }]);
  });

  it('follows backfilled, edited and deleted updates by their public date', () => {
    const base = [created, posted('u2', 'RESOLVED', '2026-11-18T12:00:00.000Z'), posted('u1', 'INVESTIGATING', '2026-11-18T11:00:00.000Z')];
    expect(given(base)?.days).toEqual([{ day: '2026-11-18', seconds: 3600 }]);
    const edited: IncidentEvent = { type: 'IncidentUpdateEdited', data: { incidentId: 'i1', updateId: 'u1', description: 'x', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-11-18T10:00:00.000Z' } };
    expect(given([...base, edited])?.days).toEqual([{ day: '2026-11-18', seconds: 7200 }]);
    const deleted: IncidentEvent = { type: 'IncidentUpdateDeleted', data: { incidentId: 'i1', updateId: 'u2' } };
    expect(given([...base, deleted])?.openSince).toBe('2026-11-18T11:00:00.000Z');
  });

  it('takes severity and service changes, and drops a deleted incident', () => {
    const changed: IncidentEvent = { type: 'IncidentDetailsChanged', data: { incidentId: 'i1', severity: 'MINOR', serviceIds: ['s2', 's3'] } };
    expect(given([created, changed])).toEqual(expect.objectContaining({ severity: 'MINOR', serviceIds: ['s2', 's3'] }));
    expect(given([created, { type: 'IncidentDeleted', data: { incidentId: 'i1' } }])).toBeNull();
  });

  describe.each(HARNESS_ADAPTERS)('on the %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [incidentOutagesProjection]);
    });
    afterEach(() => harness.close());

    it('is found by the indexed 90-day range, and a replay of every event changes nothing', async () => {
      await harness.append('incident-i1', [created, posted('u1', 'INVESTIGATING', '2026-11-18T10:00:00.000Z'), posted('u2', 'RESOLVED', '2026-11-18T12:00:00.000Z')], undefined, ACCOUNT);
      const query = {
        filters: [
          { field: 'accountLastDay', op: 'gte' as const, value: `${ACCOUNT}:2026-08-23` },
          { field: 'accountLastDay', op: 'lt' as const, value: `${ACCOUNT};` },
        ],
        limit: 10,
      };
      const before = await harness.find<IncidentOutageDoc>(INCIDENT_OUTAGES, query);
      expect(before.map((d) => d.days)).toEqual([[{ day: '2026-11-18', seconds: 7200 }]]);
      await harness.replayAll();
      expect(await harness.find<IncidentOutageDoc>(INCIDENT_OUTAGES, query)).toEqual(before);
      const later = { ...query, filters: [{ ...query.filters[0], value: `${ACCOUNT}:2026-11-19` }, query.filters[1]] };
      expect(await harness.find(INCIDENT_OUTAGES, later)).toEqual([]);
    });
  });
});

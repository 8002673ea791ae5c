import { DomainEvent, RecordedEvent } from '../../../core/src/event';
import { InMemoryEventStore } from '../../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from '../../../read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { incidentDecider, IncidentEvent } from '../domain/incident.decider';
import { IncidentDoc, incidentsProjection, toIncidentState } from './incidents.projection';

const ACCOUNT = 'account-1';
const INCIDENT = 'incident-1';
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();

const created: IncidentEvent = {
  type: 'IncidentCreated',
  data: { incidentId: INCIDENT, accountId: ACCOUNT, name: 'API down', severity: 'MAJOR', serviceIds: ['s1', 's2'] },
};
const posted = (updateId: string, status: 'INVESTIGATING' | 'IDENTIFIED' | 'MONITORING' | 'RESOLVED', date: string, notifySubscribers = false): IncidentEvent => ({
  type: 'IncidentUpdatePosted',
  data: { incidentId: INCIDENT, updateId, description: `about ${updateId}`, status, publicIncidentUpdateDate: date, notifySubscribers },
});

/** Recorded as the store would: one stream, revisions from 0, event i occurring at minute i. */
function recorded(events: IncidentEvent[]): RecordedEvent<IncidentEvent>[] {
  return events.map((event, i) => ({
    ...event,
    stream: `incident-${INCIDENT}`,
    revision: BigInt(i),
    position: BigInt(i + 1),
    metadata: { accountId: ACCOUNT, occurredAt: at(i) },
  }));
}

/** given these events, then this document (null: none). */
function project(events: IncidentEvent[]): IncidentDoc | null {
  let doc: IncidentDoc | null = null;
  for (const event of recorded(events)) doc = incidentsProjection.evolve(doc, event, INCIDENT);
  return doc;
}

describe('incidents projection', () => {
  it('builds the incident from its creation batch', () => {
    expect(project([created, posted('u1', 'INVESTIGATING', at(0), true)])).toEqual({
      id: INCIDENT,
      accountId: ACCOUNT,
      name: 'API down',
      severity: 'MAJOR',
      serviceIds: ['s1', 's2'],
      lastUpdateStatus: 'INVESTIGATING',
      accountState: `${ACCOUNT}:open`,
      accountResolvedAt: null,
      incidentUpdates: [
        { id: 'u1', description: 'about u1', status: 'INVESTIGATING', publicIncidentUpdateDate: at(0), notifySubscribers: true, created_at: at(1), seq: 0 },
      ],
      posted: 1,
      startedAt: at(0),
      created_at: at(0),
      updated_at: at(1),
    });
  });

  it('dates the incident by its earliest update: a backfilled one sits where it happened', () => {
    const backfilled = project([created, posted('u1', 'INVESTIGATING', '2026-02-01T08:00:00.000Z'), posted('u2', 'RESOLVED', '2026-02-01T09:00:00.000Z')])!;
    expect([backfilled.startedAt, backfilled.created_at]).toEqual(['2026-02-01T08:00:00.000Z', at(0)]);
    const earlier = project([created, posted('u1', 'INVESTIGATING', at(30)), posted('u2', 'IDENTIFIED', at(10))])!;
    expect(earlier.startedAt).toBe(at(10));
  });

  it('derives lastUpdateStatus from the chronologically latest update, not the last one posted', () => {
    const doc = project([created, posted('u1', 'MONITORING', at(30)), posted('u2', 'IDENTIFIED', at(10))])!;
    expect(doc.incidentUpdates.map((u) => u.id)).toEqual(['u2', 'u1']);
    expect(doc.lastUpdateStatus).toBe('MONITORING');
  });

  it('resolves and re-opens', () => {
    const resolved = project([created, posted('u1', 'INVESTIGATING', at(0)), posted('u2', 'RESOLVED', at(5))])!;
    expect([resolved.lastUpdateStatus, resolved.accountState, resolved.accountResolvedAt]).toEqual(['RESOLVED', `${ACCOUNT}:resolved`, `${ACCOUNT}:${at(5)}`]);
    const reopened = project([created, posted('u1', 'INVESTIGATING', at(0)), posted('u2', 'RESOLVED', at(5)), posted('u3', 'IDENTIFIED', at(6))])!;
    expect([reopened.lastUpdateStatus, reopened.accountState, reopened.accountResolvedAt]).toEqual(['IDENTIFIED', `${ACCOUNT}:open`, null]);
  });

  it('dates a resolution by the public date of the resolving update, so a backfilled one is not recent', () => {
    const doc = project([created, posted('u1', 'INVESTIGATING', '2025-01-01T10:00:00.000Z'), posted('u2', 'RESOLVED', '2025-01-01T11:00:00.000Z')])!;
    expect(doc.accountResolvedAt).toBe(`${ACCOUNT}:2025-01-01T11:00:00.000Z`);
  });

  it('re-derives the status when the latest update is edited or deleted, and stamps updated_at', () => {
    const base = [created, posted('u1', 'INVESTIGATING', at(0)), posted('u2', 'RESOLVED', at(5))];
    const edited = project([...base, { type: 'IncidentUpdateEdited', data: { incidentId: INCIDENT, updateId: 'u2', description: 'x', status: 'MONITORING', publicIncidentUpdateDate: at(5) } }])!;
    expect([edited.lastUpdateStatus, edited.updated_at]).toEqual(['MONITORING', at(3)]);
    expect(edited.incidentUpdates[1]).toMatchObject({ description: 'x', created_at: at(2) });
    const deleted = project([...base, { type: 'IncidentUpdateDeleted', data: { incidentId: INCIDENT, updateId: 'u2' } }])!;
    expect([deleted.lastUpdateStatus, deleted.incidentUpdates.length, deleted.updated_at]).toEqual(['INVESTIGATING', 1, at(3)]);
  });

  it('changes only the fields an IncidentDetailsChanged names', () => {
    const doc = project([created, posted('u1', 'INVESTIGATING', at(0)), { type: 'IncidentDetailsChanged', data: { incidentId: INCIDENT, serviceIds: ['s2'] } }])!;
    expect([doc.name, doc.severity, doc.serviceIds, doc.updated_at]).toEqual(['API down', 'MAJOR', ['s2'], at(2)]);
  });

  it('drops the document when the incident is deleted, and ignores events without a document', () => {
    expect(project([created, posted('u1', 'INVESTIGATING', at(0)), { type: 'IncidentDeleted', data: { incidentId: INCIDENT } }])).toBeNull();
    expect(project([posted('u1', 'INVESTIGATING', at(0))])).toBeNull();
  });

  it("holds the decider's state after every event, so a write can start from the document instead of the stream", () => {
    const history: IncidentEvent[] = [
      created,
      posted('u1', 'INVESTIGATING', at(0)),
      posted('u2', 'RESOLVED', at(20)),
      posted('u3', 'IDENTIFIED', at(10)),
      { type: 'IncidentDetailsChanged', data: { incidentId: INCIDENT, name: 'API slow', serviceIds: ['s2'] } },
      { type: 'IncidentUpdateEdited', data: { incidentId: INCIDENT, updateId: 'u2', description: 'fixed', status: 'MONITORING', publicIncidentUpdateDate: at(5) } },
      { type: 'IncidentUpdateDeleted', data: { incidentId: INCIDENT, updateId: 'u1' } },
      posted('u4', 'RESOLVED', at(30)),
    ];
    for (let n = 1; n <= history.length; n++) {
      const folded = history.slice(0, n).reduce(incidentDecider.evolve, incidentDecider.initialState());
      expect(toIncidentState(project(history.slice(0, n))!)).toEqual(folded);
    }
  });

  describe('through the projection engine', () => {
    let events: InMemoryEventStore;
    let store: InMemoryReadStore;
    let engine: ProjectionEngine;
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

    beforeEach(async () => {
      events = new InMemoryEventStore();
      store = new InMemoryReadStore();
      engine = new ProjectionEngine(store, events, [incidentsProjection], silent);
      await engine.start();
    });

    const append = async (list: DomainEvent[], minute: number) => {
      await events.appendToStream(
        `incident-${INCIDENT}`,
        list.map((e) => ({ type: e.type, data: e.data as Record<string, unknown>, metadata: { accountId: ACCOUNT, occurredAt: at(minute) } })),
      );
      await engine.catchUp();
    };
    const stored = () => store.get<IncidentDoc>(engine.collection('incidents'), INCIDENT);

    it('is not changed by duplicate or stale replays of the log', async () => {
      await append([created, posted('u1', 'INVESTIGATING', at(0))], 0);
      await append([posted('u2', 'RESOLVED', at(1))], 1);
      await append([{ type: 'IncidentDetailsChanged', data: { incidentId: INCIDENT, name: 'Renamed' } }], 2);
      const before = await stored();
      expect(before!.revision).toBe(3n);

      // Everything again (duplicates), then from the middle (stale): the guard keeps the newer document.
      for (const from of [0n, 2n]) {
        await store.resetCheckpoint(engine.collection('incidents'));
        await store.setCheckpoint(engine.collection('incidents'), from);
        await engine.catchUp();
        expect(await stored()).toEqual(before);
      }
    });

    it('does not bring a deleted incident back on replay', async () => {
      await append([created, posted('u1', 'INVESTIGATING', at(0))], 0);
      await append([{ type: 'IncidentDeleted', data: { incidentId: INCIDENT } }], 1);
      await store.resetCheckpoint(engine.collection('incidents'));
      await engine.catchUp();
      expect(await stored()).toBeNull();
    });

    it('lists the account by status and service through the declared indexes', async () => {
      await append([created, posted('u1', 'INVESTIGATING', at(0))], 0);
      const collection = engine.collection('incidents');
      const find = (filters: Parameters<InMemoryReadStore['find']>[1]['filters']) => store.find<IncidentDoc>(collection, { filters, sort: { field: 'startedAt', direction: 'desc' }, limit: 5 });
      expect(await find([{ field: 'accountState', op: 'eq', value: `${ACCOUNT}:open` }, { field: 'serviceIds', op: 'contains', value: 's2' }])).toHaveLength(1);
      expect(await find([{ field: 'accountState', op: 'eq', value: `${ACCOUNT}:resolved` }])).toHaveLength(0);
      expect(await find([{ field: 'accountId', op: 'eq', value: ACCOUNT }, { field: 'serviceIds', op: 'contains', value: 's3' }])).toHaveLength(0);
    });
  });
});

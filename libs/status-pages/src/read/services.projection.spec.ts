import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { ServiceEvent, serviceStream } from '../domain/service.decider';
import { ServiceDoc, servicesProjection } from './services.projection';

const ID = '01900000-0000-7000-8000-000000000051';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const created: ServiceEvent = { type: 'ServiceCreated', data: { id: ID, accountId: ACCOUNT, name: 'API' } };
const renamed: ServiceEvent = { type: 'ServiceUpdated', data: { id: ID, name: 'Public API' } };
const deleted: ServiceEvent = { type: 'ServiceDeleted', data: { id: ID } };
const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T11:00:00.000Z', '2026-03-03T12:00:00.000Z'];
const events = (...list: ServiceEvent[]) => recorded(serviceStream(ID), list, { at: (i) => times[i], accountId: ACCOUNT });

describe('services projection', () => {
  it('given ServiceCreated, then the service with created_at = updated_at = the event time', () => {
    expect(project(servicesProjection, events(created)).get(ID)).toEqual({
      id: ID,
      accountId: ACCOUNT,
      name: 'API',
      description: null,
      created_at: times[0],
      updated_at: times[0],
    });
  });

  it('given a rename, then the new name and updated_at, created_at kept', () => {
    expect(project(servicesProjection, events(created, renamed)).get(ID)).toEqual({
      id: ID,
      accountId: ACCOUNT,
      name: 'Public API',
      description: null,
      created_at: times[0],
      updated_at: times[1],
    });
  });

  it('given a deletion, then no document', () => {
    expect(project(servicesProjection, events(created, renamed, deleted)).has(ID)).toBe(false);
  });

  it('given a rename of an unknown service, then still no document', () => {
    const [, update] = events(created, renamed);
    expect(servicesProjection.evolve(null, update, ID)).toBeNull();
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [servicesProjection]);
    });
    afterEach(() => harness.close());

    it('lists an account newest first, by the declared sort', async () => {
      const other = '01900000-0000-7000-8000-000000000052';
      await harness.append(serviceStream(ID), [created], times[0]);
      await harness.append(serviceStream(other), [{ type: 'ServiceCreated', data: { id: other, accountId: ACCOUNT, name: 'Web' } }], times[1]);
      const list = await harness.find<ServiceDoc>('services', {
        filters: [{ field: 'accountId', op: 'eq', value: ACCOUNT }],
        sort: { field: 'created_at', direction: 'desc' },
        limit: 10,
      });
      expect(list.map((s) => s.name)).toEqual(['Web', 'API']);
    });

    it('a stale ServiceCreated replayed after a rename keeps the new name', async () => {
      await harness.append(serviceStream(ID), [created], times[0]);
      await harness.append(serviceStream(ID), [renamed], times[1]);
      const before = await harness.get<ServiceDoc>('services', ID);
      expect(before).toEqual({ doc: expect.objectContaining({ name: 'Public API', updated_at: times[1] }), revision: 1n });
      await harness.replayAll();
      expect(await harness.get('services', ID)).toEqual(before);
    });

    it('a replay after the deletion does not bring the service back', async () => {
      await harness.append(serviceStream(ID), [created, renamed], times[0]);
      await harness.append(serviceStream(ID), [deleted], times[2]);
      expect(await harness.get('services', ID)).toBeNull();
      await harness.replayAll();
      expect(await harness.get('services', ID)).toBeNull();
      expect(await harness.find('services', { filters: [{ field: 'accountId', op: 'eq', value: ACCOUNT }], limit: 10 })).toEqual([]);
    });
  });
});

import { project, recorded } from '../../../testing/src/given-when-then';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { IncidentTemplateEvent, incidentTemplateStream, TemplateContent } from '../domain/incident-template.decider';
import { IncidentTemplateDoc, incidentTemplatesProjection } from './incident-templates.projection';

const ID = '01900000-0000-7000-8000-000000000071';
const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const SERVICE = '01900000-0000-7000-8000-000000000051';
const content: TemplateContent = { name: 'Failover', title: 'Database degraded', severity: 'MAJOR', status: 'IDENTIFIED', body: 'Failing over.', serviceIds: [SERVICE], notifySubscribers: true };
const created: IncidentTemplateEvent = { type: 'IncidentTemplateCreated', data: { templateId: ID, accountId: ACCOUNT, ...content } };
const changed: IncidentTemplateEvent = { type: 'IncidentTemplateChanged', data: { templateId: ID, ...content, name: 'DB failover', serviceIds: [] } };
const deleted: IncidentTemplateEvent = { type: 'IncidentTemplateDeleted', data: { templateId: ID } };
const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T11:00:00.000Z', '2026-03-03T12:00:00.000Z'];
const events = (...list: IncidentTemplateEvent[]) => recorded(incidentTemplateStream(ID), list, { at: (i) => times[i], accountId: ACCOUNT });

describe('incident templates projection', () => {
  it('given IncidentTemplateCreated, then the template with created_at = updated_at = the event time', () => {
    expect(project(incidentTemplatesProjection, events(created)).get(ID)).toEqual({ id: ID, accountId: ACCOUNT, ...content, created_at: times[0], updated_at: times[0] });
  });

  it('given a change, then the new content and updated_at, created_at and account kept', () => {
    expect(project(incidentTemplatesProjection, events(created, changed)).get(ID)).toEqual({
      id: ID,
      accountId: ACCOUNT,
      ...content,
      name: 'DB failover',
      serviceIds: [],
      created_at: times[0],
      updated_at: times[1],
    });
  });

  it('given a deletion, then no document; a change of an unknown template makes none', () => {
    expect(project(incidentTemplatesProjection, events(created, changed, deleted)).has(ID)).toBe(false);
    const [, change] = events(created, changed);
    expect(incidentTemplatesProjection.evolve(null, change, ID)).toBeNull();
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [incidentTemplatesProjection]);
    });
    afterEach(() => harness.close());

    it('lists one account newest first; a replay keeps the change and does not bring a deleted template back', async () => {
      const other = '01900000-0000-7000-8000-000000000072';
      const otherAccount = '01900000-0000-7000-8000-000000000002';
      await harness.append(incidentTemplateStream(ID), [created], times[0]);
      await harness.append(incidentTemplateStream(ID), [changed], times[1]);
      await harness.append(incidentTemplateStream(other), [{ type: 'IncidentTemplateCreated', data: { templateId: other, accountId: otherAccount, ...content } }], times[2]);
      const mine = () => harness.find<IncidentTemplateDoc>('incident_templates', { filters: [{ field: 'accountId', op: 'eq', value: ACCOUNT }], sort: { field: 'created_at', direction: 'desc' }, limit: 10 });
      expect((await mine()).map((t) => t.name)).toEqual(['DB failover']);
      await harness.replayAll();
      expect(await harness.get('incident_templates', ID)).toEqual({ doc: expect.objectContaining({ name: 'DB failover', updated_at: times[1] }), revision: 1n });
      await harness.append(incidentTemplateStream(ID), [deleted], times[2]);
      await harness.replayAll();
      expect(await mine()).toEqual([]);
      expect((await harness.get<IncidentTemplateDoc>('incident_templates', other))?.doc.accountId).toBe(otherAccount);
    });
  });
});

import { RecordedEvent } from '../../../core/src/event';
import { project, recorded } from '../../../testing/src/given-when-then';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { HIDDEN_VALUE, MAX_SNAPSHOT_FIELDS } from './audit-changes';
import { AuditEntryDoc, auditEntriesProjection, AuditResourceDoc, auditResourcesProjection, DIFFS_KEPT, entryId } from './audit.projections';

const ACC = '01900000-0000-7000-8000-0000000000a1';
const INC = '01900000-0000-7000-8000-0000000000b1';
const UPD = '01900000-0000-7000-8000-0000000000c1';
const USER = '01900000-0000-7000-8000-0000000000d1';
const stream = `incident-${INC}`;

const created = { type: 'IncidentCreated', data: { incidentId: INC, accountId: ACC, name: 'Slow', severity: 'MAJOR', serviceIds: [] } };
const posted = { type: 'IncidentUpdatePosted', data: { incidentId: INC, updateId: UPD, description: 'Looking', status: 'INVESTIGATING', publicIncidentUpdateDate: '2026-01-01T00:00:00.000Z', notifySubscribers: false } };
const changed = { type: 'IncidentDetailsChanged', data: { incidentId: INC, severity: 'CRITICAL' } };
const edited = { type: 'IncidentUpdateEdited', data: { incidentId: INC, updateId: UPD, description: 'Found it', status: 'IDENTIFIED', publicIncidentUpdateDate: '2026-01-01T00:00:00.000Z' } };

/** Events as a person (console session) and as a key would have appended them. */
function byPerson(events: RecordedEvent[]): RecordedEvent[] {
  return events.map((e) => ({ ...e, metadata: { ...e.metadata, accountId: ACC, userId: USER } }));
}
const byKey = (events: RecordedEvent[]) => events.map((e) => ({ ...e, metadata: { ...e.metadata, accountId: ACC, keyId: 'k1', keyName: 'deploy' } }));

describe('audit projections', () => {
  const events = [...byKey(recorded(stream, [created, posted])), ...byPerson(recorded(stream, [created, posted, changed, edited]).slice(2))];

  it('given an incident created by a key and changed by a person, then one entry per change with its author', () => {
    const entries = [...project(auditEntriesProjection, events).values()];
    expect(entries.map((e) => [e.eventType, e.actorKey, e.resource])).toEqual([
      ['IncidentCreated', 'key:k1', `incident:${INC}`],
      ['IncidentUpdatePosted', 'key:k1', `incident:${INC}`],
      ['IncidentDetailsChanged', `person:${USER}`, `incident:${INC}`],
      ['IncidentUpdateEdited', `person:${USER}`, `incident:${INC}`],
    ]);
    expect(entries[0]).toMatchObject({ accountId: ACC, actor: { kind: 'key', id: 'k1', name: 'deploy' }, action: 'incident created', id: entryId(stream, 0n) });
  });

  it('given the same events, then the resource snapshot gives each change before → after, field by field', () => {
    const doc = project(auditResourcesProjection, events).get(stream)!;
    expect(doc.name).toBe('Slow');
    const diff = (revision: number) => doc.diffs.find((d) => d.revision === String(revision))!.changes;
    expect(diff(0)).toContainEqual({ field: 'name', before: null, after: 'Slow' });
    expect(diff(2)).toEqual([{ field: 'severity', before: 'MAJOR', after: 'CRITICAL' }]);
    expect(diff(3)).toEqual([
      { field: 'update 000000c1.description', before: 'Looking', after: 'Found it' },
      { field: 'update 000000c1.status', before: 'INVESTIGATING', after: 'IDENTIFIED' },
    ]);
  });

  it('given an incident template created, changed and deleted, then entries of incident-template:<id> named by the template, and its diff', () => {
    const TPL = '01900000-0000-7000-8000-0000000000e1';
    const content = { name: 'Failover', title: 'DB degraded', severity: 'MAJOR', status: 'IDENTIFIED', body: 'Failing over.', serviceIds: [], notifySubscribers: false };
    const trail = byPerson(recorded(`incidenttemplate-${TPL}`, [
      { type: 'IncidentTemplateCreated', data: { templateId: TPL, accountId: ACC, ...content } },
      { type: 'IncidentTemplateChanged', data: { templateId: TPL, ...content, title: 'Database degraded' } },
      { type: 'IncidentTemplateDeleted', data: { templateId: TPL } },
    ]));
    const entries = [...project(auditEntriesProjection, trail).values()];
    expect(entries.map((e) => [e.action, e.resource, e.actorKey])).toEqual([
      ['incident template created', `incident-template:${TPL}`, `person:${USER}`],
      ['incident template changed', `incident-template:${TPL}`, `person:${USER}`],
      ['incident template deleted', `incident-template:${TPL}`, `person:${USER}`],
    ]);
    const doc = project(auditResourcesProjection, trail).get(`incidenttemplate-${TPL}`)!;
    expect(doc.name).toBe('Failover');
    expect(doc.diffs[1].changes).toEqual([{ field: 'title', before: 'DB degraded', after: 'Database degraded' }]);
  });

  it('when a part is deleted, then its fields go from their value to not set', () => {
    const deleted = byPerson(recorded(stream, [created, posted, { type: 'IncidentUpdateDeleted', data: { incidentId: INC, updateId: UPD } }]));
    const doc = project(auditResourcesProjection, deleted).get(stream)!;
    expect(doc.diffs[2].changes).toContainEqual({ field: 'update 000000c1.status', before: 'INVESTIGATING', after: null });
    expect(Object.keys(doc.fields).some((f) => f.startsWith('update'))).toBe(false);
  });

  it('when the resource is deleted, then every field goes to not set and its entries keep its last name', () => {
    const gone = byPerson(recorded(stream, [created, changed, { type: 'IncidentDeleted', data: { incidentId: INC } }]));
    const doc = project(auditResourcesProjection, gone).get(stream)!;
    expect(doc).toMatchObject({ name: 'Slow', fields: {} });
    expect(doc.diffs[2].changes).toEqual(expect.arrayContaining([{ field: 'name', before: 'Slow', after: null }, { field: 'severity', before: 'CRITICAL', after: null }]));
    expect(project(auditEntriesProjection, gone).size).toBe(3);
  });

  it('hides secrets and their hashes, and keeps no pings, sign-ins or events without an account', () => {
    const invite = { type: 'InvitationCreated', data: { accountId: ACC, invitationId: 'inv1', email: 'a@b.c', role: 'ADMIN', hash: 'abc', expiresAt: 'x', by: null } };
    const team = byPerson(recorded(`team-${ACC}`, [invite]));
    expect(JSON.stringify(project(auditResourcesProjection, team).get(`team-${ACC}`))).not.toContain('abc');
    expect(project(auditEntriesProjection, team).get(entryId(`team-${ACC}`, 0n))!.set).toContainEqual({ field: 'invitation inv1.hash', before: null, after: HIDDEN_VALUE });
    const monitor = { type: 'MonitorCreated', data: { id: INC, accountId: ACC, config: { name: 'api', request: { url: 'https://x', nested: { basicAuth: { username: 'u', password: 'p4ss' }, list: [{ apiToken: 't0k' }] } } } } };
    const monitorDoc = JSON.stringify(project(auditResourcesProjection, byKey(recorded(`monitor-${INC}`, [monitor]))).get(`monitor-${INC}`));
    expect(monitorDoc).toContain('request.url');
    expect(monitorDoc).not.toMatch(/p4ss|t0k/);
    const ping = byKey(recorded(`heartbeat-${INC}`, [{ type: 'HeartbeatPingReceived', data: {} }]));
    const signIn = recorded(`user-${USER}`, [{ type: 'SessionStarted', data: {} }]);
    const noAccount = recorded(`service-${INC}`, [{ type: 'ServiceCreated', data: { id: INC, name: 'x' } }]);
    expect(project(auditEntriesProjection, [...ping, ...signIn, ...noAccount]).size).toBe(0);
  });

  it('stays bounded: the latest changes keep their diffs, and the snapshot its latest fields', () => {
    const many = Array.from({ length: DIFFS_KEPT + 20 }, (_, i) => ({ type: 'ServiceUpdated', data: { id: INC, name: `n${i}`, [`f${i}`]: 'x'.repeat(500), [`g${i}`]: 1 } }));
    const doc = project(auditResourcesProjection, byKey(recorded(`service-${INC}`, many))).get(`service-${INC}`)!;
    expect(doc.diffs).toHaveLength(DIFFS_KEPT);
    expect(doc.diffs[0].revision).toBe('20');
    expect(Object.keys(doc.fields).length).toBeLessThanOrEqual(MAX_SNAPSHOT_FIELDS);
    expect(doc.fields[`f${DIFFS_KEPT + 19}`]!.length).toBeLessThanOrEqual(200);
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [auditEntriesProjection, auditResourcesProjection]);
    });
    afterEach(() => harness.close());

    it('lists an account’s entries newest first by resource and time, and a replay changes nothing', async () => {
      await harness.append(stream, [created, posted], '2026-01-01T00:00:00.000Z', ACC);
      await harness.append(`service-${INC}`, [{ type: 'ServiceCreated', data: { id: INC, accountId: 'other', name: 'x' } }], '2026-01-02T00:00:00.000Z', 'other');
      await harness.append(stream, [changed], '2026-01-03T00:00:00.000Z', ACC);
      const find = (filters: { field: string; op: 'eq' | 'gte' | 'lt'; value: string }[]) =>
        harness.find<AuditEntryDoc>(auditEntriesProjection, { filters: [{ field: 'accountId', op: 'eq', value: ACC }, ...filters], sort: { field: 'at', direction: 'desc' }, limit: 10 });
      expect((await find([])).map((e) => e.eventType)).toEqual(['IncidentDetailsChanged', 'IncidentUpdatePosted', 'IncidentCreated']);
      expect((await find([{ field: 'at', op: 'gte', value: '2026-01-02' }])).map((e) => e.eventType)).toEqual(['IncidentDetailsChanged']);
      expect(await find([{ field: 'resource', op: 'eq', value: `service:${INC}` }])).toEqual([]);
      const doc = (await harness.get<AuditResourceDoc>(auditResourcesProjection, stream))!;
      expect(doc.revision).toBe(2n);
      expect(doc.doc.diffs.map((d) => d.revision)).toEqual(['0', '1', '2']);
      await harness.replayAll();
      expect((await harness.get<AuditResourceDoc>(auditResourcesProjection, stream))!.doc.diffs).toHaveLength(3);
      expect(await find([])).toHaveLength(3);
    });
  });
});

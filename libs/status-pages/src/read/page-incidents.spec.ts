import { incidentsOfPage, PageIncident, PageIncidents } from './page-incidents';

const A = '01900000-0000-7000-8000-000000000051';
const B = '01900000-0000-7000-8000-000000000052';
const C = '01900000-0000-7000-8000-000000000053';
const incident = (id: string, created_at: string, ...serviceIds: string[]): PageIncident => ({
  id,
  created_at,
  name: `incident ${id}`,
  severity: 'MINOR',
  lastUpdateStatus: 'INVESTIGATING',
  services: serviceIds.map((s) => ({ id: s, accountId: 'acc', name: s, created_at, updated_at: created_at, checks: [] })),
  incidentUpdates: [],
  updated_at: created_at,
});

describe('page incidents', () => {
  it('a page gets the incidents touching any of its services, newest first, ties by id descending', () => {
    const list = [
      incident('i1', '2026-03-01T00:00:00.000Z', A),
      incident('i2', '2026-03-03T00:00:00.000Z', C),
      incident('i3', '2026-03-02T00:00:00.000Z', C, B),
      incident('i4', '2026-03-02T00:00:00.000Z', A),
    ];
    expect(incidentsOfPage(list, [A, B]).map((i) => i.id)).toEqual(['i4', 'i3', 'i1']);
    expect(incidentsOfPage(list, [C]).map((i) => i.id)).toEqual(['i2', 'i3']);
    expect(incidentsOfPage(list, [])).toEqual([]);
  });

  it('without a registered source, pages have no incidents', async () => {
    expect(await new PageIncidents().touching('acc', [A], new Date())).toEqual([]);
  });

  it('asks every source once for all services and drops an incident two sources both report', async () => {
    const registry = new PageIncidents();
    const calls: unknown[][] = [];
    registry.register(async (...args) => {
      calls.push(args);
      return [incident('i1', '2026-03-01T00:00:00.000Z', A)];
    }, () => ['incidents_a']);
    registry.register(async () => [incident('i1', '2026-03-01T00:00:00.000Z', A), incident('i2', '2026-03-02T00:00:00.000Z', B)], () => ['incidents_b']);
    expect(registry.readFrom()).toEqual(['incidents_a', 'incidents_b']);
    const since = new Date('2026-02-22T00:00:00.000Z');
    expect((await registry.touching('acc', [A, B], since)).map((i) => i.id)).toEqual(['i1', 'i2']);
    expect(calls).toEqual([['acc', [A, B], since]]);
    expect(await registry.touching('acc', [], since)).toEqual([]);
    expect(calls).toHaveLength(1);
  });
});

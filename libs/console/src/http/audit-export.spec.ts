import { NamedEntry } from '../read/audit-reads';
import { CSV_HEADER, csvRows, ndjsonLine } from './audit-export';
import { filterQuery, instantOf, parseAuditFilter } from './audit-filter';

const entry = (over: Partial<NamedEntry> = {}): NamedEntry => ({
  id: 'incident-1@000000000001',
  at: '2026-05-01T08:00:00.000Z',
  actor: { kind: 'key', id: 'k1', name: 'deploy' },
  actorKey: 'key:k1',
  author: 'API key deploy',
  resource: { type: 'incident', id: '1', name: 'Slow, "very" slow' },
  eventType: 'IncidentDetailsChanged',
  action: 'incident details changed',
  changes: [{ field: 'name', before: 'Slow', after: '=HYPERLINK("http://evil")' }],
  ...over,
});

describe('audit exports', () => {
  it('write CSV cells quoted where needed and never as a spreadsheet formula', () => {
    expect(CSV_HEADER.split(',')).toHaveLength(11);
    expect(csvRows(entry())).toBe(`2026-05-01T08:00:00.000Z,API key deploy,key:k1,incident,1,"Slow, ""very"" slow",incident details changed,IncidentDetailsChanged,name,Slow,"'=HYPERLINK(""http://evil"")"\r\n`);
  });

  it('write one CSV row for a change of no field, and a before no longer kept as empty', () => {
    expect(csvRows(entry({ changes: [] })).split('\r\n')).toHaveLength(2);
    expect(csvRows(entry({ changes: [{ field: 'x', before: undefined, after: '1' }] }))).toMatch(/,x,,1\r\n$/);
  });

  it('write NDJSON one entry a line, a before no longer kept absent', () => {
    const line = ndjsonLine(entry({ changes: [{ field: 'x', before: undefined, after: 'a\nb' }] }));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line).changes).toEqual([{ field: 'x', after: 'a\nb' }]);
  });
});

describe('the audit filter', () => {
  it('reads datetime-local values as UTC, and refuses anything else', () => {
    expect(instantOf('2026-05-01T08:05')).toBe('2026-05-01T08:05:00.000Z');
    expect(instantOf('2026-05-01T08:05:00.000Z')).toBe('2026-05-01T08:05:00.000Z');
    for (const bad of ['2026-13-01T08:05', 'yesterday', '2026-05-01', '2026-05-01T08:05+02:00']) expect(instantOf(bad)).toBeNull();
  });

  it('keeps what was typed, names each bad field, and builds the query of the next page', () => {
    const parsed = parseAuditFilter({ resource: 'Incident:ABC', actor: 'person:u1', from: '2026-05-01T09:00', to: '2026-05-01T08:00', after: '!!' });
    expect(parsed.filter).toEqual({ resource: 'incident:abc', actor: 'person:u1', from: '2026-05-01T09:00:00.000Z', to: '2026-05-01T08:00:00.000Z' });
    expect(Object.keys(parsed.errors).sort()).toEqual(['after', 'to']);
    expect(parseAuditFilter({ resource: 'spaceship:1', actor: 'root' }).errors).toEqual({ resource: expect.stringContaining('incident'), actor: expect.any(String) });
    expect(filterQuery({ resource: 'incident', actor: '', from: '2026-05-01T08:00', to: '' })).toBe('resource=incident&from=2026-05-01T08%3A00');
  });
});

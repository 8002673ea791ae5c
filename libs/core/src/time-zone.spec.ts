import { canonicalTimeZone, localTime, offsetAt, zonedInstant } from './time-zone';

const wall = (year: number, month: number, day: number, hour = 0, minute = 0) => ({ year, month, day, hour, minute, second: 0, millisecond: 0 });
const iso = (ms: number) => new Date(ms).toISOString();

describe('time zones', () => {
  it('canonicalTimeZone accepts IANA names in any case and refuses the rest', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Base', '+02:00', '', 'x'.repeat(65), 3, null]) expect(canonicalTimeZone(bad)).toBeNull();
  });

  it('localTime and offsetAt read the zone at an instant', () => {
    expect(localTime(Date.parse('2026-07-01T10:15:30.250Z'), 'Europe/Berlin')).toEqual({ ...wall(2026, 7, 1, 12, 15), second: 30, millisecond: 250 });
    expect(offsetAt(Date.parse('2026-07-01T10:00:00Z'), 'Australia/Lord_Howe')).toBe(10.5 * 3_600_000);
    expect(offsetAt(Date.parse('2026-12-01T10:00:00Z'), 'Australia/Lord_Howe')).toBe(11 * 3_600_000);
  });

  it('zonedInstant: plain times, the first of a repeated time, a time in a gap moved forward by the gap', () => {
    expect(iso(zonedInstant(wall(2026, 7, 1, 12), 'Europe/Berlin'))).toBe('2026-07-01T10:00:00.000Z');
    expect(iso(zonedInstant(wall(2026, 10, 25, 2, 30), 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(zonedInstant(wall(2026, 3, 29, 2, 30), 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(zonedInstant(wall(2026, 3, 8, 2, 30), 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(zonedInstant(wall(2026, 10, 4, 2, 15), 'Australia/Lord_Howe'))).toBe('2026-10-03T15:45:00.000Z'); // 02:45 +11
    expect(iso(zonedInstant(wall(2026, 4, 5, 1, 45), 'Australia/Lord_Howe'))).toBe('2026-04-04T14:45:00.000Z');
  });
});

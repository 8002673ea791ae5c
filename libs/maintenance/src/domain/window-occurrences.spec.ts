import { activeAt, maintenanceEnd, nextOccurrences, occurrencesBetween, WindowTiming } from './window-occurrences';

const window = (over: Partial<WindowTiming> = {}): WindowTiming => ({
  startsAt: '2026-03-01T01:00:00.000Z', // 02:00 in Berlin (CET)
  endsAt: '2026-03-01T03:00:00.000Z', // 04:00 CET
  repeatInterval: null,
  repeatUnit: null,
  repeatEndsAt: null,
  timezone: 'Europe/Berlin',
  ...over,
});
const at = (iso: string) => new Date(iso);
const spans = (list: { start: Date; end: Date }[]) => list.map((o) => `${o.start.toISOString()}/${o.end.toISOString()}`);

describe('maintenance window occurrences', () => {
  describe('one-off', () => {
    it('is active from its start (inclusive) to its end (exclusive)', () => {
      const w = window();
      expect(activeAt(w, at('2026-03-01T00:59:59.999Z'))).toBeNull();
      expect(activeAt(w, at('2026-03-01T01:00:00.000Z'))).toEqual({ start: at('2026-03-01T01:00:00Z'), end: at('2026-03-01T03:00:00Z') });
      expect(activeAt(w, at('2026-03-01T02:59:59.999Z'))).not.toBeNull();
      expect(activeAt(w, at('2026-03-01T03:00:00.000Z'))).toBeNull();
      expect(activeAt(w, at('2027-03-01T01:30:00.000Z'))).toBeNull();
    });

    it('lists itself until it is over', () => {
      expect(spans(nextOccurrences(window(), at('2026-01-01T00:00:00Z'), 5))).toEqual(['2026-03-01T01:00:00.000Z/2026-03-01T03:00:00.000Z']);
      expect(nextOccurrences(window(), at('2026-03-01T03:00:00Z'), 5)).toEqual([]);
    });
  });

  describe('daily in Europe/Berlin, 02:00–04:00 local', () => {
    const daily = window({ repeatInterval: 1, repeatUnit: 'DAY' });

    it('keeps 02:00–04:00 local across the spring-forward night (02:00 does not exist: 03:00 → 04:00)', () => {
      expect(spans(nextOccurrences(daily, at('2026-03-28T00:00:00Z'), 3))).toEqual([
        '2026-03-28T01:00:00.000Z/2026-03-28T03:00:00.000Z',
        '2026-03-29T01:00:00.000Z/2026-03-29T02:00:00.000Z', // 03:00 CEST (02:00 moved forward by the gap) – 04:00 CEST
        '2026-03-30T00:00:00.000Z/2026-03-30T02:00:00.000Z',
      ]);
    });

    it('keeps 02:00–04:00 local across the autumn night (02:00 is its first occurrence, a 3-hour window)', () => {
      expect(spans(nextOccurrences(daily, at('2026-10-25T00:00:00Z'), 2))).toEqual([
        '2026-10-25T00:00:00.000Z/2026-10-25T03:00:00.000Z',
        '2026-10-26T01:00:00.000Z/2026-10-26T03:00:00.000Z',
      ]);
    });

    it('activeAt finds the occurrence far from the first one, and nothing between occurrences', () => {
      expect(activeAt(daily, at('2026-07-14T00:30:00Z'))).toEqual({ start: at('2026-07-14T00:00:00Z'), end: at('2026-07-14T02:00:00Z') });
      expect(activeAt(daily, at('2026-07-14T02:00:00Z'))).toBeNull();
      expect(activeAt(daily, at('2031-12-24T01:59:00Z'))).toEqual({ start: at('2031-12-24T01:00:00Z'), end: at('2031-12-24T03:00:00Z') });
    });

    it('stops after repeatEndsAt (an occurrence starting at repeatEndsAt is the last)', () => {
      const bounded = { ...daily, repeatEndsAt: '2026-03-03T01:00:00.000Z' };
      expect(nextOccurrences(bounded, at('2026-03-01T00:00:00Z'), 10)).toHaveLength(3);
      expect(activeAt(bounded, at('2026-03-03T01:30:00Z'))).not.toBeNull();
      expect(activeAt(bounded, at('2026-03-04T01:30:00Z'))).toBeNull();
    });
  });

  describe('weekly and monthly', () => {
    it('every 2 weeks in America/New_York keeps 22:00–23:30 local across the March change', () => {
      // Saturday 2026-02-28 22:00 EST = 03:00Z next day.
      const w = window({ startsAt: '2026-03-01T03:00:00.000Z', endsAt: '2026-03-01T04:30:00.000Z', timezone: 'America/New_York', repeatInterval: 2, repeatUnit: 'WEEK' });
      expect(spans(nextOccurrences(w, at('2026-02-01T00:00:00Z'), 3))).toEqual([
        '2026-03-01T03:00:00.000Z/2026-03-01T04:30:00.000Z',
        '2026-03-15T02:00:00.000Z/2026-03-15T03:30:00.000Z',
        '2026-03-29T02:00:00.000Z/2026-03-29T03:30:00.000Z',
      ]);
      expect(activeAt(w, at('2026-03-08T02:30:00Z'))).toBeNull();
    });

    it('monthly on the 31st falls on each month’s last day', () => {
      const w = window({ startsAt: '2026-01-31T10:00:00.000Z', endsAt: '2026-01-31T11:00:00.000Z', timezone: 'UTC', repeatInterval: 1, repeatUnit: 'MONTH' });
      expect(nextOccurrences(w, at('2026-01-01T00:00:00Z'), 4).map((o) => o.start.toISOString())).toEqual([
        '2026-01-31T10:00:00.000Z',
        '2026-02-28T10:00:00.000Z',
        '2026-03-31T10:00:00.000Z',
        '2026-04-30T10:00:00.000Z',
      ]);
      expect(activeAt(w, at('2026-02-28T10:30:00Z'))?.start).toEqual(at('2026-02-28T10:00:00Z'));
      expect(activeAt(w, at('2026-03-28T10:30:00Z'))).toBeNull();
    });

    it('in Australia/Lord_Howe, a daily 02:00–02:45 window on the spring-forward day starts at 02:30', () => {
      const w = window({ startsAt: '2026-10-01T15:30:00.000Z', endsAt: '2026-10-01T16:15:00.000Z', timezone: 'Australia/Lord_Howe', repeatInterval: 1, repeatUnit: 'DAY' });
      // 2026-10-04 02:00 does not exist there (02:00 → 02:30).
      const sunday = nextOccurrences(w, at('2026-10-03T14:00:00Z'), 1)[0];
      expect(sunday.start.toISOString()).toBe('2026-10-03T15:30:00.000Z');
      expect(sunday.end.toISOString()).toBe('2026-10-03T15:45:00.000Z');
    });
  });

  it('occurrencesBetween lists what overlaps a range', () => {
    const daily = window({ repeatInterval: 1, repeatUnit: 'DAY', timezone: 'UTC' });
    expect(occurrencesBetween(daily, at('2026-03-02T02:00:00Z'), at('2026-03-04T01:00:00Z')).map((o) => o.start.toISOString())).toEqual([
      '2026-03-02T01:00:00.000Z',
      '2026-03-03T01:00:00.000Z',
    ]);
  });

  it('maintenanceEnd chains back-to-back and overlapping windows, and is null outside them', () => {
    const first = window({ timezone: 'UTC' }); // 01:00–03:00Z
    const next = window({ startsAt: '2026-03-01T03:00:00.000Z', endsAt: '2026-03-01T04:00:00.000Z', timezone: 'UTC' });
    const overlapping = window({ startsAt: '2026-03-01T03:30:00.000Z', endsAt: '2026-03-01T05:00:00.000Z', timezone: 'UTC' });
    const later = window({ startsAt: '2026-03-01T06:00:00.000Z', endsAt: '2026-03-01T07:00:00.000Z', timezone: 'UTC' });
    const all = [first, next, overlapping, later];
    expect(maintenanceEnd(all, at('2026-03-01T02:00:00Z'))).toEqual(at('2026-03-01T05:00:00Z'));
    expect(maintenanceEnd(all, at('2026-03-01T05:30:00Z'))).toBeNull();
    expect(maintenanceEnd([], at('2026-03-01T02:00:00Z'))).toBeNull();
  });
});

import { currentStatus, DayBar, indicatorOf, overallUptime, uptimeBars } from './component-status';
import { IncidentOutageDoc } from './incident-outages.projection';

const outage = (over: Partial<IncidentOutageDoc>): IncidentOutageDoc => ({
  id: 'i1',
  accountId: 'a',
  severity: 'CRITICAL',
  serviceIds: ['s1'],
  timeline: [],
  posted: 0,
  days: [],
  openSince: null,
  touchedDays: [],
  accountLastDay: 'a:2026-11-18',
  ...over,
});

const NOW = new Date('2026-11-20T12:00:00.000Z');
const services = [
  { id: 's1', created_at: '2026-01-01T00:00:00.000Z' },
  { id: 's2', created_at: '2026-11-19T08:00:00.000Z' },
];
const barOn = (bars: DayBar[] | undefined, day: string) => bars?.find((b) => b.day === day);

describe('component status and uptime bars', () => {
  it('maps severities to Statuspage statuses, maintenance below any incident', () => {
    expect(currentStatus([], false)).toBe('operational');
    expect(currentStatus(['MINOR', 'MAJOR'], false)).toBe('partial_outage');
    expect(currentStatus(['MEDIUM'], true)).toBe('degraded_performance');
    expect(currentStatus([], true)).toBe('under_maintenance');
    expect(indicatorOf(['operational', 'major_outage'])).toBe('critical');
    expect(indicatorOf(['under_maintenance'])).toBe('none');
  });

  it('gives 90 days ending today, weighting downtime by severity', () => {
    const bars = uptimeBars(
      services,
      [
        outage({ severity: 'CRITICAL', days: [{ day: '2026-11-18', seconds: 7200 }], touchedDays: ['2026-11-18'] }),
        outage({ id: 'i2', severity: 'MAJOR', days: [{ day: '2026-11-18', seconds: 7200 }], touchedDays: ['2026-11-18'] }),
      ],
      NOW,
    );
    const s1 = bars.get('s1')!;
    expect(s1).toHaveLength(90);
    expect(s1[0].day).toBe('2026-08-23');
    expect(s1[89].day).toBe('2026-11-20');
    // 2 h × 100 % + 2 h × 50 % of 24 h.
    expect(barOn(s1, '2026-11-18')).toEqual({ day: '2026-11-18', status: 'major_outage', uptime: 87.5, incidents: 2 });
    expect(barOn(s1, '2026-11-19')).toEqual({ day: '2026-11-19', status: 'operational', uptime: 100, incidents: 0 });
  });

  it('counts an open period up to now, today against the part of the day gone by', () => {
    const bars = uptimeBars(services, [outage({ serviceIds: ['s1', 's2'], openSince: '2026-11-20T06:00:00.000Z', touchedDays: ['2026-11-20'], accountLastDay: 'a:9999-12-31' })], NOW);
    expect(barOn(bars.get('s1'), '2026-11-20')).toEqual({ day: '2026-11-20', status: 'major_outage', uptime: 50, incidents: 1 });
  });

  it('shows no data before a service existed, and averages the days that have data', () => {
    const s2 = uptimeBars(services, [], NOW).get('s2')!;
    expect(s2.filter((b) => b.status === 'no_data')).toHaveLength(88);
    expect(overallUptime(s2)).toBe(100);
    expect(overallUptime(s2.slice(0, 10))).toBeNull();
  });
});

import { CheckConfig } from '../domain/heartbeat-check.decider';
import { nextDueAt, TimerFacts } from './next-due';

const config = (heartbeat: Partial<CheckConfig['heartbeat']>, activated = true): CheckConfig => ({
  name: 'Backup',
  activated,
  muted: false,
  tags: [],
  description: null,
  heartbeat: { period: null, periodUnit: null, schedule: null, timezone: null, grace: 1, graceUnit: 'hours', pingToken: 'tok', ...heartbeat },
  triggerIncident: null,
  alertSettings: null,
  alertChannelSubscriptions: [],
});
const timer = (over: Partial<TimerFacts> = {}): TimerFacts => ({ activated: true, deleted: false, timerStart: null, periodMs: 300_000, lastPingAt: null, ...over });
const CREATED = '2026-11-25T12:00:00.000Z';

describe('nextDueAt', () => {
  const daily = config({ schedule: '30 2 * * *', timezone: 'Europe/Berlin' });

  it('a schedule check before any ping: the first occurrence after creation', () => {
    expect(nextDueAt(daily, CREATED, null)?.toISOString()).toBe('2026-11-26T01:30:00.000Z');
  });

  it('a schedule check after a ping: the occurrence after the one the ping stood for', () => {
    const pinged = timer({ lastPingAt: Date.parse('2026-11-26T01:30:20Z'), timerStart: Date.parse('2026-11-26T01:30:20Z') });
    expect(nextDueAt(daily, CREATED, pinged)?.toISOString()).toBe('2026-11-27T01:30:00.000Z');
  });

  it('a period check: timer start + period, null before its first ping', () => {
    const periodic = config({ period: 5, periodUnit: 'minutes' });
    expect(nextDueAt(periodic, CREATED, timer())).toBeNull();
    expect(nextDueAt(periodic, CREATED, timer({ timerStart: Date.parse('2026-11-25T12:10:00Z') }))?.toISOString()).toBe('2026-11-25T12:15:00.000Z');
  });

  it('a deactivated check expects nothing', () => {
    expect(nextDueAt(config({ schedule: '@daily' }, false), CREATED, null)).toBeNull();
  });
});

import { CheckConfig } from './heartbeat-check.decider';
import { deadlineOf, evolveTimer, initialTimer, isDue, pingedTimer, pingState, scheduleChange, TimerState, tolerance } from './heartbeat-timer';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MIN = 60_000;

/** A timer that has been pinged at T0, period `periodMs`, grace `graceMs`. */
function pinged(periodMs: number, graceMs: number, over: Partial<TimerState> = {}): TimerState {
  return { ...initialTimer(), checkId: 'c', pingToken: 't', periodMs, graceMs, activated: true, checkRevision: 0, timerStart: T0, everPinged: true, lastPingAt: T0, ...over };
}

const schedule = (data: Partial<{ periodMs: number; graceMs: number; activated: boolean; deleted: boolean; restartAt: string | null; checkRevision: number }>) => ({
  type: 'HeartbeatScheduleChanged',
  data: { checkId: 'c', pingToken: 't', periodMs: 5 * MIN, graceMs: MIN, activated: true, deleted: false, restartAt: null, checkRevision: 0, ...data },
});
const ping = (at: number) => ({ type: 'HeartbeatPingReceived', data: { eventId: 'p', checkId: 'c', state: 'RECEIVED', at: new Date(at).toISOString(), source: null, userAgent: null } });
const failed = (deadline: number, eventId = 'f') => ({ type: 'HeartbeatFailed', data: { eventId, checkId: 'c', deadline: new Date(deadline).toISOString(), first: true } });

describe('tolerance', () => {
  it('is 10% of the period', () => expect(tolerance(5 * MIN)).toBe(30_000));
  it('is at least 1 s', () => expect(tolerance(5_000)).toBe(1000));
  it('is at most 5 min', () => expect(tolerance(24 * 60 * MIN)).toBe(5 * MIN));
});

describe('ping state', () => {
  // period 5 min → expectedAt = T0 + 5 min, tol = 30 s; grace 2 min → deadline = T0 + 7 min.
  const timer = pinged(5 * MIN, 2 * MIN);
  const expected = T0 + 5 * MIN;
  const tol = 30_000;
  const deadline = expected + 2 * MIN;

  it.each([
    ['well before expectedAt − tol', T0 + MIN, 'EARLY'],
    ['1 ms before expectedAt − tol', expected - tol - 1, 'EARLY'],
    ['exactly expectedAt − tol', expected - tol, 'RECEIVED'],
    ['exactly expectedAt', expected, 'RECEIVED'],
    ['exactly expectedAt + tol', expected + tol, 'RECEIVED'],
    ['1 ms after expectedAt + tol', expected + tol + 1, 'GRACE'],
    ['exactly the deadline', deadline, 'GRACE'],
    ['1 ms after the deadline', deadline + 1, 'LATE'],
    ['an hour after the deadline', deadline + 60 * MIN, 'LATE'],
  ])('%s → %s', (_label, at, state) => expect(pingState(timer, at)).toBe(state));

  it('is RECEIVED for the first ping ever, whatever the time', () => {
    expect(pingState({ ...timer, everPinged: false, timerStart: null, lastPingAt: null }, T0)).toBe('RECEIVED');
  });

  it('is RECEIVED for the first ping after a FAILING (recovery), even if early', () => {
    const afterFailure = evolveTimer(timer, failed(deadline));
    expect(pingState(afterFailure, deadline + 1000)).toBe('RECEIVED');
  });

  it('with no grace, a ping within +tol of expectedAt is RECEIVED and one after it LATE', () => {
    const noGrace = pinged(5 * MIN, 0);
    expect(pingState(noGrace, expected + tol)).toBe('RECEIVED');
    expect(pingState(noGrace, expected + tol + 1)).toBe('LATE');
  });

  it('uses the clamped tolerance for short and long periods', () => {
    const short = pinged(30_000, 0); // tol 3 s
    expect(pingState(short, T0 + 27_000 - 1)).toBe('EARLY');
    expect(pingState(short, T0 + 27_000)).toBe('RECEIVED');
    const long = pinged(24 * 60 * MIN, 0); // tol 5 min
    expect(pingState(long, T0 + 24 * 60 * MIN - 5 * MIN - 1)).toBe('EARLY');
    expect(pingState(long, T0 + 24 * 60 * MIN - 5 * MIN)).toBe('RECEIVED');
  });
});

describe('deadline and watchdog due', () => {
  const timer = pinged(5 * MIN, 2 * MIN);
  const deadline = T0 + 7 * MIN;

  it('deadline = timer start + period + grace', () => expect(deadlineOf(timer)).toBe(deadline));
  it('is not due at the deadline itself', () => expect(isDue(timer, deadline)).toBe(false));
  it('is due 1 ms after it', () => expect(isDue(timer, deadline + 1)).toBe(true));
  it('has no deadline before the first ping', () => expect(deadlineOf({ ...timer, everPinged: false, timerStart: null })).toBeNull());
  it('has no deadline while deactivated', () => expect(deadlineOf({ ...timer, activated: false })).toBeNull());
  it('has no deadline once deleted', () => expect(deadlineOf({ ...timer, deleted: true })).toBeNull());

  it('a FAILING restarts the timer at the deadline, so the next deadline is one period + grace later', () => {
    const next = evolveTimer(timer, failed(deadline));
    expect(next.timerStart).toBe(deadline);
    expect(deadlineOf(next)).toBe(deadline + 7 * MIN);
    expect(next.failing).toBe(true);
    expect(next.failingSince).toBe('f');
  });

  it('a second FAILING keeps the outage begun by the first', () => {
    const next = evolveTimer(evolveTimer(timer, failed(deadline, 'first')), failed(deadline + 7 * MIN, 'second'));
    expect(next.failingSince).toBe('first');
  });

  it('pingedTimer is the ping case of evolveTimer, every field alike', () => {
    const failing = evolveTimer(timer, failed(deadline));
    expect(pingedTimer(failing, deadline + 5000)).toEqual(evolveTimer(failing, ping(deadline + 5000)));
    expect(Object.keys(pingedTimer(failing, deadline + 5000))).toEqual(Object.keys(initialTimer()));
  });

  it('a ping restarts the timer at the ping and ends the outage', () => {
    const next = evolveTimer(evolveTimer(timer, failed(deadline)), ping(deadline + 5000));
    expect(next.timerStart).toBe(deadline + 5000);
    expect(next.failing).toBe(false);
    expect(next.failingSince).toBeNull();
  });
});

describe('schedule', () => {
  const config = (over: Partial<CheckConfig['heartbeat']> = {}, activated = true): CheckConfig => ({
    name: 'x',
    activated,
    muted: false,
    tags: [],
    description: null,
    heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes', pingToken: 't', ...over },
    triggerIncident: null,
    alertSettings: null,
    alertChannelSubscriptions: [],
  });
  const now = new Date(T0 + 3 * MIN);

  it('copies a new check without starting a timer (the first ping starts it)', () => {
    const change = scheduleChange('c', config(), 0, initialTimer(), now)!;
    expect(change).toMatchObject({ periodMs: 5 * MIN, graceMs: MIN, activated: true, deleted: false, restartAt: null, checkRevision: 0 });
    expect(deadlineOf(evolveTimer(initialTimer(), { type: 'HeartbeatScheduleChanged', data: change }))).toBeNull();
  });

  it('writes nothing when the timer already reflects the check revision', () => {
    expect(scheduleChange('c', config(), 0, pinged(5 * MIN, MIN), now)).toBeNull();
  });

  it('restarts a running timer when the period changes', () => {
    const change = scheduleChange('c', config({ period: 10 }), 1, pinged(5 * MIN, MIN), now)!;
    expect(change.restartAt).toBe(now.toISOString());
    const next = evolveTimer(pinged(5 * MIN, MIN), { type: 'HeartbeatScheduleChanged', data: change });
    expect(deadlineOf(next)).toBe(now.getTime() + 11 * MIN);
  });

  it('keeps the timer when only the grace changes, moving the deadline', () => {
    const change = scheduleChange('c', config({ grace: 3 }), 1, pinged(5 * MIN, MIN), now)!;
    expect(change.restartAt).toBeNull();
    expect(deadlineOf(evolveTimer(pinged(5 * MIN, MIN), schedule({ ...change })))).toBe(T0 + 8 * MIN);
  });

  it('stops the timer on deactivation and restarts it at re-activation', () => {
    const off = evolveTimer(pinged(5 * MIN, MIN), { type: 'HeartbeatScheduleChanged', data: scheduleChange('c', config({}, false), 1, pinged(5 * MIN, MIN), now)! });
    expect(deadlineOf(off)).toBeNull();
    const change = scheduleChange('c', config(), 2, off, new Date(T0 + 60 * MIN))!;
    expect(change.restartAt).toBe(new Date(T0 + 60 * MIN).toISOString());
    expect(deadlineOf(evolveTimer(off, { type: 'HeartbeatScheduleChanged', data: change }))).toBe(T0 + 66 * MIN);
  });

  it('does not start a timer at activation of a check never pinged', () => {
    const off = evolveTimer(initialTimer(), schedule({ activated: false }));
    expect(scheduleChange('c', config(), 1, off, now)!.restartAt).toBeNull();
  });

  it('marks the timer deleted when the check is gone', () => {
    const change = scheduleChange('c', null, 3, pinged(5 * MIN, MIN), now)!;
    expect(change).toMatchObject({ deleted: true, activated: false, pingToken: 't' });
    expect(deadlineOf(evolveTimer(pinged(5 * MIN, MIN), { type: 'HeartbeatScheduleChanged', data: change }))).toBeNull();
  });
});

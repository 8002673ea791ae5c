import { specFor } from '../../../testing/src/given-when-then';
import { CheckConfig } from './heartbeat-check.decider';
import { deadlineOf } from './heartbeat-timer';
import { initialTimer } from './heartbeat-timer';
import { HeartbeatEvent, Outage, outageOf } from './heartbeat.events';
import { heartbeatDecider } from './heartbeat.decider';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MIN = 60_000;
const at = (ms: number) => new Date(ms).toISOString();
const spec = specFor(heartbeatDecider);

const scheduled = (over: Partial<{ activated: boolean; deleted: boolean; checkRevision: number; restartAt: string | null }> = {}): HeartbeatEvent => ({
  type: 'HeartbeatScheduleChanged',
  data: { checkId: 'c', pingToken: 't', periodMs: 5 * MIN, graceMs: MIN, activated: true, deleted: false, restartAt: null, checkRevision: 0, ...over },
});
const pinged = (ms: number, state: 'RECEIVED' | 'EARLY' | 'GRACE' | 'LATE' = 'RECEIVED'): HeartbeatEvent => ({
  type: 'HeartbeatPingReceived',
  data: { eventId: `p${ms}`, checkId: 'c', state, at: at(ms), source: null, userAgent: null },
});
const failed = (deadline: number, first = true, carried: { outage?: Outage; reopens?: string } = {}): HeartbeatEvent => ({
  type: 'HeartbeatFailed',
  data: { eventId: `f${deadline}`, checkId: 'c', deadline: at(deadline), first, ...carried },
});
const outage = (start: number, failedRuns: number, reopens?: string): Outage => ({ id: `f${start}`, startedAt: at(start), failedRuns, ...(reopens ? { reopens } : {}) });
const recovered = (ms: number, ended: Outage): HeartbeatEvent => ({ type: 'HeartbeatPingReceived', data: { ...pinged(ms).data, recoveredFrom: ended.id, outage: ended } as never });
const ping = (ms: number) => ({ type: 'Ping' as const, eventId: `p${ms}`, at: at(ms), source: null, userAgent: null });
const fail = (deadline: number) => ({ type: 'Fail' as const, eventId: `f${deadline}`, deadline });
const config = (over: Partial<CheckConfig['heartbeat']> = {}, activated = true) =>
  ({ activated, heartbeat: { period: 5, periodUnit: 'minutes', grace: 1, graceUnit: 'minutes', pingToken: 't', ...over } }) as unknown as CheckConfig;

describe('heartbeat decider', () => {
  describe('Ping', () => {
    it('records the first ping as RECEIVED', () => spec.given([scheduled()]).when(ping(T0)).then([pinged(T0)]));

    it('states a ping by the timing rules', () =>
      spec.given([scheduled(), pinged(T0)]).when(ping(T0 + MIN)).then([pinged(T0 + MIN, 'EARLY')]));

    it('names the outage a ping ends', () =>
      spec
        .given([scheduled(), pinged(T0), failed(T0 + 6 * MIN)])
        .when(ping(T0 + 7 * MIN))
        .then([{ ...pinged(T0 + 7 * MIN), data: { ...pinged(T0 + 7 * MIN).data, recoveredFrom: `f${T0 + 6 * MIN}`, outage: outage(T0 + 6 * MIN, 1) } } as HeartbeatEvent]));

    it('records nothing for a deactivated check', () => spec.given([scheduled({ activated: false })]).when(ping(T0)).then([]));
    it('records nothing for a deleted check', () => spec.given([scheduled({ deleted: true })]).when(ping(T0)).then([]));
    it('records nothing before the schedule is known', () => spec.given([]).when(ping(T0)).then([]));
  });

  describe('Fail', () => {
    it('fails the deadline that passed, first of its outage', () =>
      spec.given([scheduled(), pinged(T0)]).when(fail(T0 + 6 * MIN)).then([failed(T0 + 6 * MIN)]));

    it('marks a later deadline of the same outage as not first', () =>
      spec.given([scheduled(), pinged(T0), failed(T0 + 6 * MIN)]).when(fail(T0 + 12 * MIN)).then([failed(T0 + 12 * MIN, false, { outage: outage(T0 + 6 * MIN, 2) })]));

    it('decides nothing once a ping moved the deadline', () =>
      spec.given([scheduled(), pinged(T0), pinged(T0 + 5 * MIN)]).when(fail(T0 + 6 * MIN)).then([]));

    it('decides nothing when another watchdog failed that deadline already', () =>
      spec.given([scheduled(), pinged(T0), failed(T0 + 6 * MIN)]).when(fail(T0 + 6 * MIN)).then([]));

    it('decides nothing for a timer that never ran', () => spec.given([scheduled()]).when(fail(T0)).then([]));
  });

  describe('the outage its events carry', () => {
    const F1 = T0 + 6 * MIN;

    it('a later FAILING carries the outage with its runs counted, a signalled one too', () => {
      spec.given([scheduled(), pinged(T0), failed(F1), failed(F1 + 6 * MIN, false)]).when(fail(F1 + 12 * MIN)).then([failed(F1 + 12 * MIN, false, { outage: outage(F1, 3) })]);
      const [signalled] = heartbeatDecider.decide({ ...ping(F1 + MIN), signal: 'fail' }, [scheduled(), pinged(T0), failed(F1)].reduce(heartbeatDecider.evolve, initialTimer()));
      expect(signalled!.data).toMatchObject({ first: false, outage: outage(F1, 2) });
    });

    it('the ping ending an outage carries its start and runs', () =>
      spec.given([scheduled(), pinged(T0), failed(F1), failed(F1 + 6 * MIN, false)]).when(ping(F1 + 8 * MIN)).then([recovered(F1 + 8 * MIN, outage(F1, 2))]));

    it('a first FAILING within 30 minutes of the last recovery reopens that outage’s incident', () =>
      spec.given([scheduled(), pinged(T0), failed(F1), recovered(F1 + MIN, outage(F1, 1))]).when(fail(F1 + 7 * MIN)).then([failed(F1 + 7 * MIN, true, { reopens: `f${F1}` })]));

    it('a later flap reopens the same incident, and the ping ending it says so', () => {
      const F2 = F1 + 7 * MIN;
      const flapped = [scheduled(), pinged(T0), failed(F1), recovered(F1 + MIN, outage(F1, 1)), failed(F2, true, { reopens: `f${F1}` })];
      spec.given(flapped).when(ping(F2 + MIN)).then([recovered(F2 + MIN, outage(F2, 1, `f${F1}`))]);
      spec.given([...flapped, recovered(F2 + MIN, outage(F2, 1, `f${F1}`))]).when(fail(F2 + 7 * MIN)).then([failed(F2 + 7 * MIN, true, { reopens: `f${F1}` })]);
    });

    it('a first FAILING more than 30 minutes after the last recovery reopens nothing', () =>
      spec.given([scheduled(), pinged(T0), failed(F1), recovered(F1 + MIN, outage(F1, 1)), pinged(F1 + 26 * MIN)]).when(fail(F1 + 32 * MIN)).then([failed(F1 + 32 * MIN)]));

    it('events written before they carried the outage give the same timer, so the next events carry it', () =>
      spec.given([scheduled(), pinged(T0), failed(F1), failed(F1 + 6 * MIN, false)]).when(fail(F1 + 12 * MIN)).then([failed(F1 + 12 * MIN, false, { outage: outage(F1, 3) })]));

    it('a timer kept before it knew its outage (an older timer document) names the outage and carries no more', () => {
      const timer = { ...[scheduled(), pinged(T0), failed(F1)].reduce(heartbeatDecider.evolve, initialTimer()), outage: null };
      expect(heartbeatDecider.decide(fail(F1 + 6 * MIN), timer)).toEqual([failed(F1 + 6 * MIN, false)]);
      expect(heartbeatDecider.decide(ping(F1 + MIN), timer)).toEqual([{ ...pinged(F1 + MIN), data: { ...pinged(F1 + MIN).data, recoveredFrom: `f${F1}` } }]);
    });

    it('outageOf: a first FAILING is its outage’s start; a later one written before FAILINGs carried it has none', () => {
      expect(outageOf({ eventId: 'f1', checkId: 'c', deadline: at(F1), first: true })).toEqual({ id: 'f1', startedAt: at(F1), failedRuns: 1 });
      expect(outageOf({ eventId: 'f1', checkId: 'c', deadline: at(F1), first: true, reopens: 'f0' })).toEqual({ id: 'f1', startedAt: at(F1), failedRuns: 1, reopens: 'f0' });
      expect(outageOf({ eventId: 'f2', checkId: 'c', deadline: at(F1 + MIN), first: false })).toBeNull();
      expect(outageOf({ eventId: 'f2', checkId: 'c', deadline: at(F1 + MIN), first: false, outage: outage(F1, 2) })).toEqual(outage(F1, 2));
    });
  });

  describe('Reschedule', () => {
    const reschedule = (checkRevision: number, cfg: CheckConfig | null, ms = T0 + MIN) => ({ type: 'Reschedule' as const, checkId: 'c', config: cfg, checkRevision, at: new Date(ms) });

    it('copies a first configuration', () => spec.given([]).when(reschedule(0, config())).then([scheduled()]));

    it('is idempotent by check revision', () => spec.given([scheduled()]).when(reschedule(0, config())).then([]));

    it('restarts the timer on a new period once pinged', () =>
      spec
        .given([scheduled(), pinged(T0)])
        .when(reschedule(1, config({ period: 10 })))
        .then([{ type: 'HeartbeatScheduleChanged', data: { ...scheduled({ checkRevision: 1, restartAt: at(T0 + MIN) }).data, periodMs: 10 * MIN } } as HeartbeatEvent]));

    it('stops the timer of a deleted check', () =>
      spec.given([scheduled(), pinged(T0)]).when(reschedule(1, null)).then([scheduled({ activated: false, deleted: true, checkRevision: 1 })]));
  });

  describe('schedules (contract §4.1)', () => {
    const H = 3_600_000;
    const cron = (schedule: string, timezone: string, graceMs = H) =>
      config({ period: null, periodUnit: null, schedule, timezone, grace: graceMs / MIN, graceUnit: 'minutes' });
    const reschedule = (cfg: CheckConfig, ms: number, checkRevision = 0) => ({ type: 'Reschedule' as const, checkId: 'c', config: cfg, checkRevision, at: new Date(ms) });
    const copied = (cfg: CheckConfig, ms: number) => heartbeatDecider.decide(reschedule(cfg, ms), heartbeatDecider.initialState());
    const timerAfter = (events: HeartbeatEvent[]) => events.reduce(heartbeatDecider.evolve, heartbeatDecider.initialState());
    const nextDue = (events: HeartbeatEvent[]) => {
      const t = timerAfter(events).nextDueAt;
      return t === null ? null : at(t);
    };
    const decide = (events: HeartbeatEvent[], command: Parameters<typeof heartbeatDecider.decide>[0]) => heartbeatDecider.decide(command, timerAfter(events));

    it.each([
      // Berlin springs forward on 29 March 2026: 02:30 does not exist, the job is expected once, at 03:00 CEST.
      ['30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00.000Z', '2026-03-29T01:00:00.000Z'],
      // Berlin falls back on 25 October 2026: 02:30 happens twice, expected once (the first).
      ['30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00.000Z', '2026-10-25T00:30:00.000Z'],
      // New York springs forward on 8 March 2026 at 02:00.
      ['30 2 * * *', 'America/New_York', '2026-03-07T12:00:00.000Z', '2026-03-08T07:00:00.000Z'],
      // Lord Howe moves by 30 minutes on 5 April 2026 (02:00 → 01:30).
      ['@daily', 'Australia/Lord_Howe', '2026-04-04T12:00:00.000Z', '2026-04-04T13:00:00.000Z'],
      ['*/15 * * * *', 'UTC', '2026-03-01T10:07:00.000Z', '2026-03-01T10:15:00.000Z'],
      // Created on a Saturday: Monday 09:00 EDT.
      ['0 9 * * 1-5', 'America/New_York', '2026-03-28T12:00:00.000Z', '2026-03-30T13:00:00.000Z'],
    ])('%s in %s created at %s expects %s', (schedule, zone, created, expected) => {
      const events = copied(cron(schedule, zone), Date.parse(created));
      expect(events[0]!.data).toMatchObject({ schedule, timezone: zone, nextDueAt: expected });
      expect(nextDue(events)).toBe(expected);
    });

    it('fails at expectedAt + grace and then expects the first occurrence after that deadline', () => {
      const created = copied(cron('*/15 * * * *', 'UTC', 5 * MIN), Date.parse('2026-03-01T10:07:00.000Z'));
      const deadline = Date.parse('2026-03-01T10:20:00.000Z');
      const [failure] = decide(created, fail(deadline));
      expect(failure).toEqual({
        type: 'HeartbeatFailed',
        data: { eventId: `f${deadline}`, checkId: 'c', deadline: at(deadline), first: true, nextDueAt: '2026-03-01T10:30:00.000Z' },
      });
      expect(decide(created, fail(deadline - 1))).toEqual([]);
      // The next deadline is that occurrence + grace.
      expect(decide([...created, failure!], fail(Date.parse('2026-03-01T10:35:00.000Z')))).toHaveLength(1);
    });

    it('a ping stands for the occurrence within a minute: the next one is expected, RECEIVED', () => {
      const created = copied(cron('0 9 * * 1-5', 'America/New_York'), Date.parse('2026-03-28T12:00:00.000Z'));
      const first = decide(created, ping(Date.parse('2026-03-30T13:00:20.000Z')));
      expect(first[0]!.data).toMatchObject({ state: 'RECEIVED', nextDueAt: '2026-03-31T13:00:00.000Z' });
      const history = [...created, ...first];
      expect(decide(history, ping(Date.parse('2026-03-31T12:59:10.000Z')))[0]!.data).toMatchObject({ state: 'RECEIVED', nextDueAt: '2026-04-01T13:00:00.000Z' });
      expect(decide(history, ping(Date.parse('2026-03-31T12:58:59.000Z')))[0]!.data).toMatchObject({ state: 'EARLY' });
      expect(decide(history, ping(Date.parse('2026-03-31T13:30:00.000Z')))[0]!.data).toMatchObject({ state: 'GRACE' });
      expect(decide(history, ping(Date.parse('2026-03-31T14:00:01.000Z')))[0]!.data).toMatchObject({ state: 'LATE' });
    });

    it('a ping on time on Friday expects Monday (weekday schedule, across the weekend)', () => {
      const created = copied(cron('0 9 * * 1-5', 'Europe/Berlin'), Date.parse('2026-03-26T12:00:00.000Z'));
      const friday = decide(created, ping(Date.parse('2026-03-27T08:00:00.000Z')));
      // Monday 30 March is after the switch to CEST: 09:00 local is 07:00 UTC.
      expect(friday[0]!.data).toMatchObject({ state: 'RECEIVED', nextDueAt: '2026-03-30T07:00:00.000Z' });
    });

    it('keeps nextDueAt on an unrelated change, recomputes it on a new schedule, clears it on deactivation', () => {
      const created = copied(cron('@daily', 'UTC'), Date.parse('2026-03-01T10:00:00.000Z'));
      const renamed = decide(created, reschedule(cron('@daily', 'UTC'), Date.parse('2026-03-01T11:00:00.000Z'), 1));
      expect(renamed[0]!.data).toMatchObject({ nextDueAt: '2026-03-02T00:00:00.000Z' });
      const hourly = decide(created, reschedule(cron('@hourly', 'UTC'), Date.parse('2026-03-01T11:10:00.000Z'), 1));
      expect(hourly[0]!.data).toMatchObject({ nextDueAt: '2026-03-01T12:00:00.000Z' });
      const off = decide(created, reschedule(config({ period: null, periodUnit: null, schedule: '@daily', timezone: 'UTC' }, false), T0, 1));
      expect(off[0]!.data).toMatchObject({ nextDueAt: null });
      expect(timerAfter([...created, ...off]).activated).toBe(false);
    });
  });

  describe('run signals, pause, maintenance (contract §4.1)', () => {
    const RID = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const signal = (ms: number, over: Record<string, unknown>) => ({ ...ping(ms), ...over });
    const started = (ms: number, rid?: string): HeartbeatEvent => ({
      type: 'HeartbeatRunStarted',
      data: { eventId: `p${ms}`, checkId: 'c', at: at(ms), source: null, userAgent: null, ...(rid ? { rid } : {}) },
    });
    const timerAfter = (events: HeartbeatEvent[]) => events.reduce(heartbeatDecider.evolve, heartbeatDecider.initialState());

    it('/start records STARTED and arms start + grace as the deadline', () => {
      spec.given([scheduled(), pinged(T0)]).when(signal(T0 + MIN, { signal: 'start' })).then([started(T0 + MIN)]);
      expect(deadlineOf(timerAfter([scheduled(), pinged(T0), started(T0 + MIN)]))).toBe(T0 + 2 * MIN);
    });

    it('a finish pairs with the rid’s start, carries duration, and clears that run', () => {
      const given = [scheduled(), pinged(T0), started(T0 + MIN, RID), started(T0 + 2 * MIN)];
      const [event] = heartbeatDecider.decide(signal(T0 + 4 * MIN, { rid: RID, exitCode: 0 }), timerAfter(given));
      expect(event!.data).toMatchObject({ rid: RID, duration: 3 * MIN, exitCode: 0 });
      expect(timerAfter([...given, event!]).runs).toEqual([{ rid: null, at: T0 + 2 * MIN }]);
    });

    it('/fail and exit codes 1–255 are a FAILING with the request’s source at once', () => {
      const [event] = heartbeatDecider.decide(signal(T0 + MIN, { exitCode: 2, source: 'https://ci' }), timerAfter([scheduled(), pinged(T0)]));
      expect(event).toEqual({
        type: 'HeartbeatFailed',
        data: { eventId: `p${T0 + MIN}`, checkId: 'c', deadline: at(T0 + MIN), first: true, signal: true, source: 'https://ci', userAgent: null, exitCode: 2 },
      });
    });

    it('/log records LOG and changes no state', () => {
      const given = [scheduled(), pinged(T0)];
      const [event] = heartbeatDecider.decide(signal(T0 + MIN, { signal: 'log', body: 'hi' }), timerAfter(given));
      expect(event).toMatchObject({ type: 'HeartbeatLogged', data: { body: 'hi' } });
      expect(timerAfter([...given, event!])).toEqual(timerAfter(given));
    });

    it('pause removes the deadline until the next ping, which is RECEIVED', () => {
      const given = [scheduled(), pinged(T0)];
      const paused = heartbeatDecider.decide({ type: 'Pause', at: at(T0 + MIN) }, timerAfter(given));
      expect(paused).toEqual([{ type: 'HeartbeatPaused', data: { checkId: 'c', at: at(T0 + MIN) } }]);
      expect(deadlineOf(timerAfter([...given, ...paused]))).toBeNull();
      spec.given([...given, ...paused]).when(ping(T0 + 60 * MIN)).then([pinged(T0 + 60 * MIN)]);
    });

    it('DeferForMaintenance restarts the timer at the window’s end instead of failing', () => {
      const given = [scheduled(), pinged(T0)];
      const [event] = heartbeatDecider.decide({ type: 'DeferForMaintenance', deadline: T0 + 6 * MIN, until: T0 + 30 * MIN }, timerAfter(given));
      expect(event).toEqual({ type: 'HeartbeatMaintenanceDeferred', data: { checkId: 'c', deadline: at(T0 + 6 * MIN), until: at(T0 + 30 * MIN) } });
      expect(deadlineOf(timerAfter([...given, event!]))).toBe(T0 + 36 * MIN);
      expect(heartbeatDecider.decide({ type: 'DeferForMaintenance', deadline: T0 + 7 * MIN, until: T0 + 30 * MIN }, timerAfter(given))).toEqual([]);
    });
  });
});

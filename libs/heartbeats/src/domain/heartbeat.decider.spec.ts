import { specFor } from '../../../testing/src/given-when-then';
import { CheckConfig } from './heartbeat-check.decider';
import { heartbeatDecider } from './heartbeat.decider';
import { HeartbeatEvent } from './heartbeat-timer';

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
const failed = (deadline: number, first = true): HeartbeatEvent => ({
  type: 'HeartbeatFailed',
  data: { eventId: `f${deadline}`, checkId: 'c', deadline: at(deadline), first },
});
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
        .then([{ ...pinged(T0 + 7 * MIN), data: { ...pinged(T0 + 7 * MIN).data, recoveredFrom: `f${T0 + 6 * MIN}` } } as HeartbeatEvent]));

    it('records nothing for a deactivated check', () => spec.given([scheduled({ activated: false })]).when(ping(T0)).then([]));
    it('records nothing for a deleted check', () => spec.given([scheduled({ deleted: true })]).when(ping(T0)).then([]));
    it('records nothing before the schedule is known', () => spec.given([]).when(ping(T0)).then([]));
  });

  describe('Fail', () => {
    it('fails the deadline that passed, first of its outage', () =>
      spec.given([scheduled(), pinged(T0)]).when(fail(T0 + 6 * MIN)).then([failed(T0 + 6 * MIN)]));

    it('marks a later deadline of the same outage as not first', () =>
      spec.given([scheduled(), pinged(T0), failed(T0 + 6 * MIN)]).when(fail(T0 + 12 * MIN)).then([failed(T0 + 12 * MIN, false)]));

    it('decides nothing once a ping moved the deadline', () =>
      spec.given([scheduled(), pinged(T0), pinged(T0 + 5 * MIN)]).when(fail(T0 + 6 * MIN)).then([]));

    it('decides nothing when another watchdog failed that deadline already', () =>
      spec.given([scheduled(), pinged(T0), failed(T0 + 6 * MIN)]).when(fail(T0 + 6 * MIN)).then([]));

    it('decides nothing for a timer that never ran', () => spec.given([scheduled()]).when(fail(T0)).then([]));
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
});

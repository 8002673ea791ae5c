import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { expiringWords } from './certificate-expiry';
import { MonitorEvent, monitorDecider, MonitorOutage } from './monitor.decider';
import { parseMonitorBody } from './monitor-body';
import { MonitorRun, MonitorStatus } from './round';
import { encodeRun } from './run-codec';

const spec = specFor(monitorDecider);
const ID = '01900000-0000-7000-8000-000000000001';
const ACCOUNT = 'acc-1';
const config = (over: Record<string, unknown> = {}) => parseMonitorBody('URL', { name: 'Site', request: { url: 'https://example.com' }, ...over });
const twoPlaces = config({ locations: ['local', 'eu'] });
const created = (c = config()): MonitorEvent => ({ type: 'MonitorCreated', data: { id: ID, accountId: ACCOUNT, config: c } });
const run = (location: string, outcome: MonitorRun['outcome'], roundAt = '2026-01-01T00:00:00.000Z', over: Partial<MonitorRun> = {}): MonitorRun => ({
  location, roundAt, startedAt: roundAt, outcome, timings: { total: 12 }, error: outcome === 'FAIL' ? 'HTTP 500' : null, networkError: false, attempt: 1, final: true, ...over,
});
const recorded = (r: MonitorRun): MonitorEvent => ({ type: 'MonitorRunRecorded', data: { r: encodeRun(r) } });
const outage = (startedAt: string, failingRounds: number, sslExpiry = false): MonitorOutage => ({ startedAt, failingRounds, sslExpiry });
const changed = (from: MonitorStatus | null, to: MonitorStatus, roundAt: string, failedLocations: string[], downtimeMs: number | null, carried?: MonitorOutage): MonitorEvent => ({
  type: 'MonitorStateChanged',
  data: { id: ID, from, to, roundAt, failedLocations, downtimeMs, ...(carried ? { outage: carried } : {}) },
});
const still = (roundAt: string, failingRounds: number, carried?: MonitorOutage): MonitorEvent => ({
  type: 'MonitorStillFailing',
  data: { id: ID, roundAt, failingRounds, failedLocations: ['local'], ...(carried ? { outage: carried } : {}) },
});
const record = (r: MonitorRun) => ({ type: 'RecordMonitorRun' as const, id: ID, run: r, failThreshold: 0.5 });

describe('Monitor decider', () => {
  it('given nothing, when created, then MonitorCreated', () => {
    spec.given([]).when({ type: 'CreateMonitor', id: ID, accountId: ACCOUNT, config: config() }).then([created()]);
  });

  it('given a monitor, when created again, then 409', () => {
    spec.given([created()]).when({ type: 'CreateMonitor', id: ID, accountId: ACCOUNT, config: config() }).thenThrows(ConflictError);
  });

  it('refuses a config whose frequency is below 10 seconds even when built by hand', () => {
    spec.given([]).when({ type: 'CreateMonitor', id: ID, accountId: ACCOUNT, config: { ...config(), frequency: 0, frequencyOffset: 5 } }).thenThrows(ValidationError);
  });

  it('given a monitor, when updated, then MonitorUpdated; the same config again is nothing', () => {
    const next = config({ frequency: 5 });
    spec.given([created()]).when({ type: 'UpdateMonitor', id: ID, accountId: ACCOUNT, config: next }).then([{ type: 'MonitorUpdated', data: { id: ID, config: next } }]);
    spec.given([created()]).when({ type: 'UpdateMonitor', id: ID, accountId: ACCOUNT, config: config() }).then([]);
  });

  it('refuses to change the type of a monitor', () => {
    const tcp = parseMonitorBody('TCP', { name: 'Port', request: { hostname: 'example.com', port: 22 } });
    spec.given([created()]).when({ type: 'UpdateMonitor', id: ID, accountId: ACCOUNT, config: tcp }).thenThrows(ValidationError);
  });

  it("given another account's monitor or a deleted one, when changed, then 404", () => {
    spec.given([created()]).when({ type: 'DeleteMonitor', id: ID, accountId: 'other' }).thenThrows(NotFoundError);
    spec.given([created(), { type: 'MonitorDeleted', data: { id: ID } }]).when({ type: 'SetMonitorMuted', id: ID, accountId: ACCOUNT, muted: true }).thenThrows(NotFoundError);
  });

  it('activates and mutes, once', () => {
    spec.given([created()]).when({ type: 'SetMonitorActivated', id: ID, accountId: ACCOUNT, activated: false }).then([{ type: 'MonitorActivationChanged', data: { id: ID, activated: false } }]);
    spec.given([created()]).when({ type: 'SetMonitorActivated', id: ID, accountId: ACCOUNT, activated: true }).then([]);
    spec.given([created()]).when({ type: 'SetMonitorMuted', id: ID, accountId: ACCOUNT, muted: true }).then([{ type: 'MonitorMuteChanged', data: { id: ID, muted: true } }]);
  });

  describe('rounds', () => {
    it('given a new monitor, when its one location passes, then the run and PASSING', () => {
      const r = run('local', 'PASS');
      spec.given([created()]).when(record(r)).then([
        recorded(r),
        { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'PASSING', roundAt: r.roundAt, failedLocations: [], downtimeMs: null } },
      ]);
    });

    it('given PASSING, when a slow run comes, then DEGRADED', () => {
      const first = run('local', 'PASS');
      const slow = run('local', 'DEGRADED', '2026-01-01T00:10:00.000Z');
      spec.given([created(), recorded(first), { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'PASSING', roundAt: first.roundAt, failedLocations: [], downtimeMs: null } }])
        .when(record(slow))
        .then([recorded(slow), { type: 'MonitorStateChanged', data: { id: ID, from: 'PASSING', to: 'DEGRADED', roundAt: slow.roundAt, failedLocations: [], downtimeMs: null } }]);
    });

    it('given FAILING, when a round passes, then PASSING with the downtime', () => {
      const fail = run('local', 'FAIL');
      const pass = run('local', 'PASS', '2026-01-01T00:10:00.000Z');
      spec.given([created(), recorded(fail), { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'FAILING', roundAt: fail.roundAt, failedLocations: ['local'], downtimeMs: null } }])
        .when(record(pass))
        .then([recorded(pass), { type: 'MonitorStateChanged', data: { id: ID, from: 'FAILING', to: 'PASSING', roundAt: pass.roundAt, failedLocations: [], downtimeMs: 600_000, outage: outage(fail.roundAt, 1) } }]);
    });

    it('given FAILING, each further failing round is counted up to the fifth, then only recorded', () => {
      const fail = run('local', 'FAIL');
      const failing = { type: 'MonitorStateChanged' as const, data: { id: ID, from: null, to: 'FAILING' as const, roundAt: fail.roundAt, failedLocations: ['local'], downtimeMs: null } };
      const second = run('local', 'FAIL', '2026-01-01T00:10:00.000Z');
      spec.given([created(), recorded(fail), failing])
        .when(record(second))
        .then([recorded(second), { type: 'MonitorStillFailing', data: { id: ID, roundAt: second.roundAt, failingRounds: 2, failedLocations: ['local'], outage: outage(fail.roundAt, 2) } }]);
      const sixth = run('local', 'FAIL', '2026-01-01T00:50:00.000Z');
      spec.given([created(), recorded(fail), failing, { type: 'MonitorStillFailing', data: { id: ID, roundAt: second.roundAt, failingRounds: 5, failedLocations: ['local'] } }])
        .when(record(sixth))
        .then([recorded(sixth)]);
    });

    it('a run that a retry follows is recorded and decides nothing', () => {
      const r = run('local', 'FAIL', undefined, { final: false });
      spec.given([created()]).when(record(r)).then([recorded(r)]);
    });

    it('on two locations, nothing is decided until both have reported; one of two failing is FAILING at the default threshold', () => {
      const eu = run('eu', 'FAIL');
      spec.given([created(twoPlaces)]).when(record(eu)).then([recorded(eu)]);
      const local = run('local', 'PASS');
      spec.given([created(twoPlaces), recorded(eu)]).when(record(local)).then([
        recorded(local),
        { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'FAILING', roundAt: local.roundAt, failedLocations: ['eu'], downtimeMs: null, outage: outage(local.roundAt, 1) } },
      ]);
    });

    it('with a threshold above one half, one location of two failing is not FAILING', () => {
      const eu = run('eu', 'FAIL');
      const local = run('local', 'PASS');
      spec.given([created(twoPlaces), recorded(eu)]).when({ ...record(local), failThreshold: 0.75 }).then([
        recorded(local),
        { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'PASSING', roundAt: local.roundAt, failedLocations: ['eu'], downtimeMs: null } },
      ]);
    });

    it('a late run of an older round changes nothing', () => {
      const newer = run('local', 'PASS', '2026-01-01T00:10:00.000Z');
      const older = run('local', 'FAIL', '2026-01-01T00:00:00.000Z');
      spec.given([created(), recorded(newer)]).when(record(older)).then([recorded(older)]);
    });

    it('given a deleted monitor, a run is refused', () => {
      spec.given([created(), { type: 'MonitorDeleted', data: { id: ID } }]).when(record(run('local', 'PASS'))).thenThrows(NotFoundError);
    });
  });

  describe('the outage its events carry', () => {
    const T = (minutes: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + minutes * 60_000).toISOString();
    const failAt = (minutes: number, location = 'local', error = 'HTTP 500') => run(location, 'FAIL', T(minutes), { error });
    const began = changed(null, 'FAILING', T(0), ['local'], null, outage(T(0), 1));

    it('the round making it FAILING begins the outage; each further round counts one more; the passing round ends it', () => {
      spec.given([created()]).when(record(failAt(0))).then([recorded(failAt(0)), began]);
      spec.given([created(), recorded(failAt(0)), began, recorded(failAt(10)), still(T(10), 2, outage(T(0), 2))])
        .when(record(failAt(20)))
        .then([recorded(failAt(20)), still(T(20), 3, outage(T(0), 3))]);
      const pass = run('local', 'PASS', T(30));
      spec.given([created(), recorded(failAt(0)), began, recorded(failAt(10)), still(T(10), 2, outage(T(0), 2))])
        .when(record(pass))
        .then([recorded(pass), changed('FAILING', 'PASSING', T(30), [], 1_800_000, outage(T(0), 2))]);
    });

    it('a flapping monitor (FAILING, PASSING, FAILING again) begins a new outage, from its own round, counted from one', () => {
      const pass = run('local', 'PASS', T(10));
      const recovered = changed('FAILING', 'PASSING', T(10), [], 600_000, outage(T(0), 1));
      spec.given([created(), recorded(failAt(0)), began, recorded(pass), recovered])
        .when(record(failAt(20)))
        .then([recorded(failAt(20)), changed('PASSING', 'FAILING', T(20), ['local'], null, outage(T(20), 1))]);
      spec.given([created(), recorded(failAt(0)), began, recorded(pass), recovered, recorded(failAt(20)), changed('PASSING', 'FAILING', T(20), ['local'], null, outage(T(20), 1))])
        .when(record(failAt(30)))
        .then([recorded(failAt(30)), still(T(30), 2, outage(T(20), 2))]);
    });

    it('an SSL monitor whose every failed location says the certificate expires soon: the certificate alert takes the failure’s place', () => {
      const ssl = parseMonitorBody('SSL', { name: 'Cert', request: { sslConfig: { hostname: 'example.com' } }, locations: ['local', 'eu'] });
      const expiring = (location: string) => failAt(0, location, expiringWords(5, 14));
      spec.given([created(ssl), recorded(expiring('eu'))]).when(record(expiring('local')))
        .then([recorded(expiring('local')), changed(null, 'FAILING', T(0), ['local', 'eu'], null, outage(T(0), 1, true))]);
      const broken = failAt(0, 'local', 'certificate chain invalid: SELF_SIGNED');
      spec.given([created(ssl), recorded(expiring('eu'))]).when(record(broken))
        .then([recorded(broken), changed(null, 'FAILING', T(0), ['local', 'eu'], null, outage(T(0), 1))]);
    });

    it('a URL monitor failing with those words is no certificate outage', () => {
      const words = failAt(0, 'local', expiringWords(5, 14));
      spec.given([created()]).when(record(words)).then([recorded(words), changed(null, 'FAILING', T(0), ['local'], null, outage(T(0), 1))]);
    });

    it('events written before they carried the outage give the same state, the round’s runs its certificate cause', () => {
      const ssl = parseMonitorBody('SSL', { name: 'Cert', request: { sslConfig: { hostname: 'example.com' } } });
      const expiring = failAt(0, 'local', expiringWords(5, 14));
      spec.given([created(ssl), recorded(expiring), changed(null, 'FAILING', T(0), ['local'], null), recorded(failAt(10, 'local', expiringWords(5, 14))), still(T(10), 2)])
        .when(record(failAt(20, 'local', expiringWords(5, 14))))
        .then([recorded(failAt(20, 'local', expiringWords(5, 14))), still(T(20), 3, outage(T(0), 3, true))]);
    });

    it('a state kept before it knew its outage (an older monitor document) counts no more rounds, and its recovery carries no outage', () => {
      const kept = { ...[created(), recorded(failAt(0)), began].reduce(monitorDecider.evolve, monitorDecider.initialState()), outage: undefined, failingRounds: 2 };
      expect(monitorDecider.decide(record(failAt(10)), kept)).toEqual([recorded(failAt(10))]);
      const pass = run('local', 'PASS', T(10));
      expect(monitorDecider.decide(record(pass), kept)).toEqual([recorded(pass), changed('FAILING', 'PASSING', T(10), [], 600_000)]);
    });
  });
});

import { fold } from '../../../core/src/decider';
import { NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { expiringWords } from './certificate-expiry';
import { MonitorEvent, monitorDecider } from './monitor.decider';
import { monitorRoundsDecider } from './monitor-rounds.decider';
import { parseMonitorBody } from './monitor-body';
import { MonitorRun } from './round';
import { encodeRun } from './run-codec';

const spec = specFor(monitorRoundsDecider);
const ID = '01900000-0000-7000-8000-000000000001';
const config = (over: Record<string, unknown> = {}) => parseMonitorBody('URL', { name: 'Site', request: { url: 'https://example.com' }, ...over });
const created = (c = config()): MonitorEvent => ({ type: 'MonitorCreated', data: { id: ID, accountId: 'acc-1', config: c } });
const T = (minutes: number) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + minutes * 60_000).toISOString();
const run = (location: string, outcome: MonitorRun['outcome'], minutes = 0, over: Partial<MonitorRun> = {}): MonitorRun => ({
  location, roundAt: T(minutes), startedAt: T(minutes), outcome, timings: { total: 12 }, error: outcome === 'FAIL' ? 'HTTP 500' : null, networkError: false, attempt: 1, final: true, ...over,
});
const recorded = (r: MonitorRun): MonitorEvent => ({ type: 'MonitorRunRecorded', data: { r: encodeRun(r) } });
const record = (r: MonitorRun) => ({ type: 'RecordMonitorRun' as const, id: ID, run: r, failThreshold: 0.5 });

describe('Monitor rounds decider (what runs are decided on)', () => {
  it('given a new monitor, when its one location passes, then the run and PASSING', () => {
    spec.given([created()]).when(record(run('local', 'PASS'))).then([
      recorded(run('local', 'PASS')),
      { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'PASSING', roundAt: T(0), failedLocations: [], downtimeMs: null } },
    ]);
  });

  it('given nothing or a deleted monitor, when a run comes, then 404', () => {
    spec.given([]).when(record(run('local', 'PASS'))).thenThrows(NotFoundError);
    spec.given([created(), { type: 'MonitorDeleted', data: { id: ID } }]).when(record(run('local', 'PASS'))).thenThrows(NotFoundError);
  });

  it('given a monitor moved to other locations, a run from the location it left is recorded and decides nothing; one from where it runs now decides', () => {
    const moved: MonitorEvent = { type: 'MonitorUpdated', data: { id: ID, config: config({ locations: ['eu'] }) } };
    spec.given([created(), moved]).when(record(run('local', 'FAIL'))).then([recorded(run('local', 'FAIL'))]);
    spec.given([created(), moved]).when(record(run('eu', 'FAIL'))).then([
      recorded(run('eu', 'FAIL')),
      { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'FAILING', roundAt: T(0), failedLocations: ['eu'], downtimeMs: null, outage: { startedAt: T(0), failingRounds: 1, sslExpiry: false } } },
    ]);
  });

  it('given an SSL monitor on two locations, one expiring already, when the other says the same, then the certificate outage', () => {
    const ssl = parseMonitorBody('SSL', { name: 'Cert', request: { sslConfig: { hostname: 'example.com' } }, locations: ['local', 'eu'] });
    const expiring = (location: string) => run(location, 'FAIL', 0, { error: expiringWords(5, 14) });
    spec.given([created(ssl), recorded(expiring('eu'))]).when(record(expiring('local'))).then([
      recorded(expiring('local')),
      { type: 'MonitorStateChanged', data: { id: ID, from: null, to: 'FAILING', roundAt: T(0), failedLocations: ['local', 'eu'], downtimeMs: null, outage: { startedAt: T(0), failingRounds: 1, sslExpiry: true } } },
    ]);
  });

  it('given any history, when a run comes, then it decides what the whole monitor decider decides', () => {
    const histories: MonitorEvent[][] = [[created()], [created(config({ locations: ['local', 'eu'] })), recorded(run('eu', 'FAIL'))]];
    const runs = [run('local', 'PASS'), run('local', 'FAIL'), run('local', 'DEGRADED'), run('local', 'FAIL', 0, { final: false }), run('eu', 'FAIL')];
    for (let step = 0; step < 8; step++) {
      for (const history of histories) {
        const r = runs[(step + history.length) % runs.length];
        const command = record({ ...r, roundAt: T(step), startedAt: T(step) });
        const whole = monitorDecider.decide(command, fold(monitorDecider, history));
        expect(monitorRoundsDecider.decide(command, fold(monitorRoundsDecider, history))).toEqual(whole);
        history.push(...whole);
      }
    }
    // The runs' state is the whole state's: same rounds, status and outage.
    for (const history of histories) {
      const { status, statusSince, round, outage } = fold(monitorDecider, history);
      expect(fold(monitorRoundsDecider, history)).toMatchObject({ status, statusSince, round, outage });
    }
  });
});

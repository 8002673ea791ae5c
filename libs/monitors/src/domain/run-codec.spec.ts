import { decodeRun, encodeRun, runOf } from './run-codec';
import { MonitorRun } from './round';

const run = (over: Partial<MonitorRun> = {}): MonitorRun => ({
  location: 'eu-lab', roundAt: '2026-11-28T10:31:00.000Z', startedAt: '2026-11-28T10:31:00.004Z', outcome: 'PASS', timings: { total: 12, dns: 1, connect: 2, firstByte: 9 }, error: null, networkError: false, attempt: 1, final: true, ...over,
});

describe('Compact runs', () => {
  it.each([
    ['a passing run', run()],
    ['a failed retry with an error of several words', run({ outcome: 'FAIL', error: 'connect ECONNREFUSED 10.0.0.1:443 (after  2 tries)', networkError: true, attempt: 2, final: false, timings: { total: 5000 } })],
    ['a degraded TLS run started late', run({ outcome: 'DEGRADED', startedAt: '2026-11-28T10:31:01.250Z', timings: { total: 3100, dns: 0, connect: 1, tls: 40, firstByte: 3000 } })],
    ['an empty error', run({ outcome: 'FAIL', error: '' })],
  ])('give back %s exactly', (_name, original) => {
    const text = encodeRun(original);
    expect(decodeRun(text)).toEqual(original);
    expect(runOf({ r: text })).toEqual(original);
  });

  it('is short: a passing run in about 40 characters', () => {
    expect(encodeRun(run()).length).toBeLessThanOrEqual(40);
  });

  it('reads runs stored before the compact form', () => {
    expect(runOf({ id: 'm', run: run() })).toEqual(run());
  });
});

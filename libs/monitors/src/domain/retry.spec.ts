import { RetryStrategy } from './monitor-config';
import { retryDelaySeconds } from './retry';
import { decideRound } from './round';

const strategy = (over: Partial<RetryStrategy> = {}): RetryStrategy => ({ type: 'FIXED', baseBackoffSeconds: 10, maxRetries: 3, maxDurationSeconds: 600, sameRegion: true, onlyOn: null, ...over });

describe('retry strategy', () => {
  it.each([
    ['FIXED', [10, 10, 10]],
    ['LINEAR', [10, 20, 30]],
    ['EXPONENTIAL', [10, 100, null]],
  ] as const)('%s waits %j then stops after maxRetries', (type, delays) => {
    // Exponential's third delay (1000 s) would pass maxDurationSeconds (600 s), so it stops there.
    expect([0, 1, 2].map((n) => retryDelaySeconds(strategy({ type }), n, 0, false))).toEqual(delays);
    expect(retryDelaySeconds(strategy({ type }), 3, 0, false)).toBeNull();
  });

  it('SINGLE_RETRY retries once', () => {
    expect(retryDelaySeconds(strategy({ type: 'SINGLE_RETRY' }), 0, 0, false)).toBe(10);
    expect(retryDelaySeconds(strategy({ type: 'SINGLE_RETRY' }), 1, 0, false)).toBeNull();
  });

  it('NO_RETRIES (null) never retries', () => {
    expect(retryDelaySeconds(null, 0, 0, true)).toBeNull();
  });

  it('onlyOn NETWORK_ERROR retries network failures only', () => {
    expect(retryDelaySeconds(strategy({ onlyOn: 'NETWORK_ERROR' }), 0, 0, false)).toBeNull();
    expect(retryDelaySeconds(strategy({ onlyOn: 'NETWORK_ERROR' }), 0, 0, true)).toBe(10);
  });

  it('stops when the next wait would pass maxDurationSeconds', () => {
    expect(retryDelaySeconds(strategy({ maxDurationSeconds: 30 }), 1, 25, false)).toBeNull();
    expect(retryDelaySeconds(strategy({ maxDurationSeconds: 30 }), 1, 20, false)).toBe(10);
  });
});

describe('round decision', () => {
  it.each([
    [['PASS'], 'PASSING'],
    [['DEGRADED'], 'DEGRADED'],
    [['FAIL'], 'FAILING'],
    [['PASS', 'FAIL'], 'FAILING'],
    [['PASS', 'PASS', 'FAIL'], 'PASSING'],
    [['PASS', 'DEGRADED', 'FAIL'], 'DEGRADED'],
    [['FAIL', 'FAIL', 'PASS'], 'FAILING'],
  ] as const)('%j is %s at one half', (outcomes, status) => {
    expect(decideRound([...outcomes])).toBe(status);
  });

  it('the threshold is a setting', () => {
    expect(decideRound(['PASS', 'FAIL'], 0.6)).toBe('PASSING');
    expect(decideRound(['PASS', 'PASS', 'FAIL'], 0.3)).toBe('FAILING');
  });
});

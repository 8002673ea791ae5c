import { RetryStrategy } from './monitor-config';

/**
 * Seconds to wait before the next attempt of a failed run, or null when the strategy says stop.
 * `retriesDone` counts retries already made; `elapsedSeconds` is the time since the first attempt started.
 * As Checkly: FIXED waits the base each time, LINEAR base × n, EXPONENTIAL base^n, SINGLE_RETRY once.
 */
export function retryDelaySeconds(strategy: RetryStrategy | null, retriesDone: number, elapsedSeconds: number, networkError: boolean): number | null {
  if (strategy === null) return null;
  if (strategy.onlyOn === 'NETWORK_ERROR' && !networkError) return null;
  const maxRetries = strategy.type === 'SINGLE_RETRY' ? 1 : strategy.maxRetries;
  if (retriesDone >= maxRetries) return null;
  const n = retriesDone + 1;
  const base = strategy.baseBackoffSeconds;
  const delay = strategy.type === 'LINEAR' ? base * n : strategy.type === 'EXPONENTIAL' ? (base <= 1 ? base : base ** n) : base;
  if (strategy.type !== 'SINGLE_RETRY' && elapsedSeconds + delay > strategy.maxDurationSeconds) return null;
  return delay;
}

import { LogWatch } from '../../event-store/src/log-watch';

/**
 * The projection daemon's wait between passes: `ms`, or with a watch until the log moves past `readUpTo`;
 * the `wake` handed to `setWake` (called on an append of this process) and the signal end it early.
 */
export function idleUntil(signal: AbortSignal, ms: number | undefined, watch: LogWatch | undefined, readUpTo: bigint | null, setWake: (wake: (() => void) | null) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const waiting = new AbortController();
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      waiting.abort();
      setWake(null);
      resolve();
    };
    const timer = ms === undefined ? undefined : setTimeout(done, ms);
    if (watch) void watch.waitPast(readUpTo, waiting.signal).then(done);
    signal.addEventListener('abort', done, { once: true });
    setWake(done);
  });
}

import { writeFile } from 'node:fs/promises';
import { EventStore } from '../../../libs/event-store/src/event-store.port';
import { ReadStore } from '../../../libs/read-store/src/read-store.port';

/** How often the worker proves it is alive; the healthcheck allows three missed beats. */
const BEAT_MS = 10_000;
export const STALE_MS = 3 * BEAT_MS;

/**
 * The worker has no HTTP server: every BEAT_MS, once both stores answered (each call under its
 * deadline), it writes the time to `file`; `healthcheck.ts` reads it. A hung event loop or a store
 * that stopped answering leaves the file stale, and the container unhealthy.
 */
export function startWorkerHealth(file: string, events: EventStore, reads: ReadStore, onError: (error: unknown) => void): () => void {
  let running = false;
  const beat = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      await events.headPosition();
      await reads.getMeta('worker-health-probe');
      await writeFile(file, String(Date.now()));
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), BEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

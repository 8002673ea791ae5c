import { Worker } from 'node:worker_threads';

/**
 * Runs WAL checkpoints on a worker thread with its own connection, so copying the WAL into the
 * database (and its fsyncs) never stalls the event loop that answers requests. The main connection
 * turns its automatic checkpoints off.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
let stopped = false;
let timer = null;
function pass() {
  if (stopped) return;
  try {
    // PASSIVE never waits for or blocks the writer; the WAL file's size is capped by journal_size_limit.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
  timer = setTimeout(pass, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message === 'stop') {
    stopped = true;
    clearTimeout(timer);
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
    db.close();
    parentPort.close();
  }
});
timer = setTimeout(pass, workerData.intervalMs);
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, onError: (message: string) => void, intervalMs = 250): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, driver: require.resolve('better-sqlite3') },
  });
  worker.on('message', (message: { error?: string }) => message.error && onError(message.error));
  worker.on('error', (error) => onError(String(error)));
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        // Unref'd, the worker would not keep the process alive until it exits: a caller awaiting
        // stop() (app.close() in the CLI) would see the event loop drain and the process end with 0.
        worker.ref();
        worker.postMessage('stop');
      }),
  };
}

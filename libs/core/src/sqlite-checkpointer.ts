import { Worker } from 'node:worker_threads';

/**
 * Runs WAL checkpoints on a worker thread with its own connection, so copying the WAL into the
 * database (and its fsyncs) never stalls the event loop that answers requests. The main connection
 * turns its automatic checkpoints off.
 *
 * PASSIVE checkpoints never wait for or block the writer, but under a steady stream of commits they
 * never catch up with it either: the WAL is only restarted (written again from its start) by a
 * transaction that begins once every frame has been copied, so it would grow without bound — and
 * every page read and commit gets slower as the WAL index grows (a gigabyte-sized WAL after 100,000
 * pings cost the ping path a fifth of its CPU). So once the WAL holds `restartAfterFrames` frames the
 * worker first runs passes back to back until one finds few new frames (a sixteenth of that size),
 * then asks the writer of this process to hold its next batch back (appends queue meanwhile, the
 * event loop keeps running), copies the few frames written since its last pass, and lets the writer
 * go: its next transaction restarts the WAL.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
let stopped = false;
let timer = null;
let pausing = false;
// WAL frames at the start of the previous pass; catching-up passes run back to back until one finds
// little new (a pause then only waits for that little to be copied).
let previousLog = null;
let catchingUp = 0;
function checkpoint() {
  try {
    return db.pragma('wal_checkpoint(PASSIVE)')[0];
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
    return null;
  }
}
function pass() {
  timer = null;
  if (stopped) return;
  const row = checkpoint();
  const grown = row && previousLog !== null && row.log >= previousLog ? row.log - previousLog : Infinity;
  previousLog = row ? row.log : null;
  if (row && workerData.restartAfterFrames > 0 && row.log >= workerData.restartAfterFrames) {
    if (grown > workerData.pauseAfterFrames && catchingUp < 20) {
      catchingUp += 1;
      timer = setTimeout(pass, 0);
      return;
    }
    catchingUp = 0;
    pausing = true;
    parentPort.postMessage({ pause: true });
    return;
  }
  timer = setTimeout(pass, workerData.intervalMs);
}
parentPort.on('message', (message) => {
  if (message === 'paused') {
    // The writer is idle: this pass copies every frame, so its next transaction restarts the WAL.
    pausing = false;
    if (!stopped) checkpoint();
    previousLog = null;
    parentPort.postMessage({ resume: true });
    if (!stopped) timer = setTimeout(pass, workerData.intervalMs);
  } else if (message === 'stop') {
    stopped = true;
    clearTimeout(timer);
    if (pausing) parentPort.postMessage({ resume: true });
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

export interface CheckpointerOptions {
  /** Pause between checkpoint passes. */
  intervalMs?: number;
  /** Holds this process's writes back until the returned function is called (see above). */
  pauseWriter?: () => () => void;
  /** WAL size, in frames (pages), at which the writer is paused for a restart; 0 never pauses it. */
  restartAfterFrames?: number;
  /** The writer resumes after this long even if the worker has not answered. */
  maxPauseMs?: number;
}

export function startCheckpointer(file: string, onError: (message: string) => void, options: CheckpointerOptions = {}): Checkpointer {
  const { intervalMs = 250, pauseWriter, restartAfterFrames = 4096, maxPauseMs = 500 } = options;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      intervalMs,
      restartAfterFrames: pauseWriter ? restartAfterFrames : 0,
      pauseAfterFrames: Math.max(1, Math.floor(restartAfterFrames / 16)),
      driver: require.resolve('better-sqlite3'),
    },
  });
  let resume: (() => void) | null = null;
  let safety: NodeJS.Timeout | null = null;
  const resumeWriter = () => {
    if (safety) clearTimeout(safety);
    safety = null;
    const release = resume;
    resume = null;
    release?.();
  };
  worker.on('message', (message: { error?: string; pause?: boolean; resume?: boolean }) => {
    if (message.error) onError(message.error);
    if (message.pause && pauseWriter) {
      // Between two batches by construction: batches are synchronous on this thread.
      resumeWriter();
      resume = pauseWriter();
      // Not unref'd: it keeps the event loop alive while the worker, which is, holds appends back (a
      // CLI awaiting an append would otherwise see the loop drain and exit without committing it).
      safety = setTimeout(resumeWriter, maxPauseMs);
      worker.postMessage('paused');
    }
    if (message.resume) resumeWriter();
  });
  worker.on('error', (error) => {
    resumeWriter();
    onError(String(error));
  });
  worker.on('exit', resumeWriter);
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

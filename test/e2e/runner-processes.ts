import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built runner app (needs `npm run build`). */
export const RUNNER_MAIN = join(__dirname, '..', '..', 'dist', 'apps', 'runner', 'src', 'main.js');

export interface RunnerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Monitor ids with a round started at or after `since` (ms), from the runner's own log. */
  rounds: (since?: number) => Set<string>;
  /** Every round started, in the order the runner logged them. */
  started: () => { monitorId: string; roundAt: string }[];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** A runner process for `apiUrl`, logging at debug level (each round it starts is a line). */
export function startRunner(apiUrl: string, key: string, location: string): RunnerProcess {
  const child = spawn(process.execPath, [RUNNER_MAIN], {
    env: { PATH: process.env.PATH, VIGIL_API_URL: apiUrl, VIGIL_RUNNER_KEY: key, VIGIL_RUNNER_LOCATION: location, LOG_LEVEL: 'debug' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = () =>
    out
      .split('\n')
      .filter((line) => line.includes('"round started"'))
      .map((line) => JSON.parse(line) as { monitorId: string; roundAt: string });
  const rounds = (since = 0) => new Set(started().filter((entry) => Date.parse(entry.roundAt) >= since).map((entry) => entry.monitorId));
  return { child, output: () => out, exited, rounds, started };
}

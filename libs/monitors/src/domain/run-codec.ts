import { MonitorRun, RunTimings } from './round';

/**
 * A run as its event stores it: one short line, so the event stays under 100 bytes on disk
 * (docs/benchmarks.md). The monitor is the stream's; location names hold no spaces; the error, free text,
 * comes last.
 *   <location> <code>[attempt if not 1] <roundAt ms, base 36> <start − roundAt ms> <total>[,dns,connect,tls,firstByte] [error]
 * The code is the outcome's letter (P, D, F; N for a network failure), lowercase when a retry follows.
 */
export type CompactRun = string;

/** The data of MonitorRunRecorded: the compact run, or (events stored before it) the run itself. */
export type RunRecordedData = { r: CompactRun } | { id: string; run: MonitorRun };

const CODES = { PASS: 'P', DEGRADED: 'D', FAIL: 'F' } as const;
const OUTCOMES: Record<string, MonitorRun['outcome']> = { P: 'PASS', D: 'DEGRADED', F: 'FAIL', N: 'FAIL' };
const PHASES = ['dns', 'connect', 'tls', 'firstByte'] as const;

export function encodeRun(run: MonitorRun): CompactRun {
  const letter = run.outcome === 'FAIL' && run.networkError ? 'N' : CODES[run.outcome];
  const code = `${run.final ? letter : letter.toLowerCase()}${run.attempt === 1 ? '' : run.attempt}`;
  const roundMs = Date.parse(run.roundAt);
  const timings = [run.timings.total, ...PHASES.map((p) => run.timings[p] ?? '')].join(',').replace(/,+$/, '');
  const line = `${run.location} ${code} ${roundMs.toString(36)} ${Date.parse(run.startedAt) - roundMs} ${timings}`;
  return run.error === null ? line : `${line} ${run.error}`;
}

export function decodeRun(text: CompactRun): MonitorRun {
  const parts = text.split(' ');
  const [location, code, round, start, times] = parts;
  const letter = code[0].toUpperCase();
  const roundMs = parseInt(round, 36);
  const values = times.split(',');
  const timings: RunTimings = { total: Number(values[0]) };
  PHASES.forEach((phase, i) => {
    if (values[i + 1] !== undefined && values[i + 1] !== '') timings[phase] = Number(values[i + 1]);
  });
  return {
    location,
    roundAt: new Date(roundMs).toISOString(),
    startedAt: new Date(roundMs + Number(start)).toISOString(),
    outcome: OUTCOMES[letter],
    timings,
    error: parts.length > 5 ? parts.slice(5).join(' ') : null,
    networkError: letter === 'N',
    attempt: code.length > 1 ? Number(code.slice(1)) : 1,
    final: code[0] === letter,
  };
}

/** Lines decoded lately: the projections, the decider after the append and the processors read each run, a batch's worth apart. */
const decoded = new Map<CompactRun, MonitorRun>();
const DECODED_KEPT = 4096;

/** The run an event holds; callers treat it as read-only (it may be the one an earlier call returned). */
export function runOf(data: RunRecordedData): MonitorRun {
  if (!('r' in data)) return data.run;
  let run = decoded.get(data.r);
  if (run === undefined) {
    if (decoded.size >= DECODED_KEPT) decoded.clear();
    run = decodeRun(data.r);
    decoded.set(data.r, run);
  }
  return run;
}

/** The monitor a stream is: `monitor-<id>`. */
export const monitorIdOf = (stream: string): string => stream.slice('monitor-'.length);

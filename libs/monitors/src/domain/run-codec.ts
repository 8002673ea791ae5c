import { MonitorRun, RunTimings } from './round';

/**
 * A run as its event stores it: one line of space-separated fields, so the event stays under 100 bytes
 * on disk (docs/benchmarks.md). The monitor is the stream's; location names hold no spaces; the error,
 * free text, comes last.
 *   <location> <P|D|F> <attempt> <final 1|0> <network error 1|0> <roundAt ms, base 36> <start − roundAt ms>
 *   <total> <dns|-> <connect|-> <tls|-> <firstByte|-> [error]
 */
export type CompactRun = string;

/** The data of MonitorRunRecorded: the compact run, or (events stored before it) the run itself. */
export type RunRecordedData = { r: CompactRun } | { id: string; run: MonitorRun };

const OUTCOMES = { PASS: 'P', DEGRADED: 'D', FAIL: 'F' } as const;
const FROM_CODE = { P: 'PASS', D: 'DEGRADED', F: 'FAIL' } as const;
const PHASES = ['dns', 'connect', 'tls', 'firstByte'] as const;

export function encodeRun(run: MonitorRun): CompactRun {
  const roundMs = Date.parse(run.roundAt);
  const fields = [
    run.location,
    OUTCOMES[run.outcome],
    run.attempt,
    run.final ? 1 : 0,
    run.networkError ? 1 : 0,
    roundMs.toString(36),
    Date.parse(run.startedAt) - roundMs,
    run.timings.total,
    ...PHASES.map((p) => run.timings[p] ?? '-'),
  ];
  return run.error === null ? fields.join(' ') : `${fields.join(' ')} ${run.error}`;
}

export function decodeRun(text: CompactRun): MonitorRun {
  const parts = text.split(' ');
  const [location, outcome, attempt, final, networkError, round, start, total] = parts;
  const roundMs = parseInt(round, 36);
  const timings: RunTimings = { total: Number(total) };
  PHASES.forEach((phase, i) => {
    if (parts[8 + i] !== '-') timings[phase] = Number(parts[8 + i]);
  });
  const error = parts.length > 12 ? parts.slice(12).join(' ') : null;
  return {
    location,
    roundAt: new Date(roundMs).toISOString(),
    startedAt: new Date(roundMs + Number(start)).toISOString(),
    outcome: FROM_CODE[outcome as keyof typeof FROM_CODE],
    timings,
    error,
    networkError: networkError === '1',
    attempt: Number(attempt),
    final: final === '1',
  };
}

export const runOf = (data: RunRecordedData): MonitorRun => ('r' in data ? decodeRun(data.r) : data.run);

/** The monitor a stream is: `monitor-<id>`. */
export const monitorIdOf = (stream: string): string => stream.slice('monitor-'.length);

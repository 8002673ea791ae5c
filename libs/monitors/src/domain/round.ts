/** What one run from one location found. DEGRADED: it passed, slower than `degradedResponseTime`. */
export type RunOutcome = 'PASS' | 'DEGRADED' | 'FAIL';
export type MonitorStatus = 'PASSING' | 'DEGRADED' | 'FAILING';

/** Time per phase in ms; a phase the probe did not go through is absent. */
export interface RunTimings {
  total: number;
  dns?: number;
  connect?: number;
  tls?: number;
  firstByte?: number;
}

/** One run from one location: the compact body of the run event. */
export interface MonitorRun {
  location: string;
  /** The scheduled time of the round this run belongs to (ISO). */
  roundAt: string;
  startedAt: string;
  outcome: RunOutcome;
  timings: RunTimings;
  error: string | null;
  /** The failure was the network's (refused, reset, timeout, DNS), which `onlyOn: NETWORK_ERROR` retries. */
  networkError: boolean;
  /** 1 for the first attempt of the round, then one more per retry. */
  attempt: number;
  /** False when a retry follows; only final runs count for the round. */
  final: boolean;
}

/** The default share of a monitor's locations that must fail for a round to be FAILING. */
export const DEFAULT_FAIL_THRESHOLD = 0.5;

/**
 * The state of a round once every location has its final run: FAILING when at least `threshold` of the
 * locations failed, DEGRADED when any location was slow, PASSING otherwise.
 */
export function decideRound(outcomes: RunOutcome[], threshold: number = DEFAULT_FAIL_THRESHOLD): MonitorStatus {
  if (outcomes.length === 0) return 'PASSING';
  const failed = outcomes.filter((o) => o === 'FAIL').length;
  if (failed > 0 && failed / outcomes.length >= threshold) return 'FAILING';
  if (outcomes.some((o) => o === 'DEGRADED')) return 'DEGRADED';
  return 'PASSING';
}

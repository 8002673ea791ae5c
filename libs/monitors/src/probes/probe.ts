import { RunTimings } from '../domain/round';

/** What a probe saw; the assertions and the response-time limits turn it into a run's outcome. */
export interface ProbeObservation {
  timings: RunTimings;
  /** Null when the exchange completed (whatever it said); the reason otherwise. */
  error: string | null;
  /** The failure was the network's: refused, reset, timed out, unresolved. */
  networkError: boolean;
  /** Per assertion source, the value the assertions read (status, headers, body, answers, certificate…). */
  facts: Record<string, unknown>;
}

/** Every probe's limits: a deadline for the whole exchange and whether private targets are allowed. */
export interface ProbeLimits {
  deadlineMs: number;
  allowPrivate: boolean;
}

/** A body read up to this many bytes; the rest is dropped with the connection. */
export const MAX_BODY_BYTES = 64 * 1024;

export function failed(error: string, networkError: boolean, total: number, timings: Partial<RunTimings> = {}): ProbeObservation {
  return { timings: { ...timings, total }, error, networkError, facts: {} };
}

/** Milliseconds since `start` (a `performance.now()` reading), whole. */
export const since = (start: number): number => Math.round(performance.now() - start);

/** Errors of the network rather than of the answer, by Node's codes. */
export function isNetworkCode(code: string | undefined): boolean {
  return code !== undefined && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE|ECONNABORTED|ESERVFAIL|ETIMEOUT|EREFUSED|ECANCELLED)$/.test(code);
}

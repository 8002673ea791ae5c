import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { LeaseRequest, ReportedRun } from '../write/runner-leases';

const RUNNER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const MEMBERSHIP = /^[a-z0-9]{1,16}$/;
const PHASES = ['total', 'dns', 'connect', 'tls', 'firstByte'];
/** Runs of one report: within the 20,000 values a JSON body may hold. */
export const MAX_RESULTS = 1000;

type Body = Record<string, unknown>;

function object(value: unknown, path: string, details: ViolationDetail[]): Body | null {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Body;
  details.push({ path, message: 'must be a JSON object' });
  return null;
}

function only(body: Body, fields: string[], path: string, details: ViolationDetail[]): void {
  for (const field of Object.keys(body)) if (!fields.includes(field)) details.push({ path: `${path}${field}`, message: 'is not a known field' });
}

/** The runner's id and location, which must be its key's. */
export function parseRunnerHeader(body: unknown, fields: string[], details: ViolationDetail[]): { runner: string; location: string; body: Body } {
  const b = object(body, '', details) ?? {};
  only(b, ['runner', 'location', ...fields], '', details);
  if (typeof b.runner !== 'string' || !RUNNER_ID.test(b.runner)) details.push({ path: 'runner', message: 'must be 1 to 64 letters, digits, _ or -' });
  if (typeof b.location !== 'string' || b.location === '') details.push({ path: 'location', message: 'must name the runner’s location' });
  return { runner: String(b.runner), location: String(b.location), body: b };
}

const isTime = (v: unknown): v is string => typeof v === 'string' && ISO.test(v) && Number.isFinite(Date.parse(v));
const isCount = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

function parseRun(value: unknown, path: string, details: ViolationDetail[]): ReportedRun | null {
  const r = object(value, path, details);
  if (!r) return null;
  const before = details.length;
  only(r, ['monitorId', 'roundAt', 'startedAt', 'outcome', 'timings', 'error', 'networkError', 'attempt', 'final'], `${path}.`, details);
  if (!isUuid(r.monitorId)) details.push({ path: `${path}.monitorId`, message: 'must be a monitor id' });
  for (const field of ['roundAt', 'startedAt']) if (!isTime(r[field])) details.push({ path: `${path}.${field}`, message: 'must be an ISO 8601 UTC date-time' });
  if (r.outcome !== 'PASS' && r.outcome !== 'DEGRADED' && r.outcome !== 'FAIL') details.push({ path: `${path}.outcome`, message: 'must be PASS, DEGRADED or FAIL' });
  const timings = object(r.timings, `${path}.timings`, details);
  if (timings) {
    only(timings, PHASES, `${path}.timings.`, details);
    for (const phase of PHASES) {
      if ((phase === 'total' || timings[phase] !== undefined) && !isCount(timings[phase], 600_000)) details.push({ path: `${path}.timings.${phase}`, message: 'must be whole milliseconds, at most 600000' });
    }
  }
  if (r.error !== null && (typeof r.error !== 'string' || r.error.length > 1000)) details.push({ path: `${path}.error`, message: 'must be null or a text of at most 1000 characters' });
  if (typeof r.networkError !== 'boolean') details.push({ path: `${path}.networkError`, message: 'must be true or false' });
  if (!isCount(r.attempt, 100) || r.attempt < 1) details.push({ path: `${path}.attempt`, message: 'must be a whole number from 1 to 100' });
  if (typeof r.final !== 'boolean') details.push({ path: `${path}.final`, message: 'must be true or false' });
  if (details.length > before) return null;
  const t = timings as Record<string, number>;
  const shown: ReportedRun['timings'] = { total: t.total, ...Object.fromEntries(PHASES.slice(1).filter((p) => t[p] !== undefined).map((p) => [p, t[p]])) };
  return { monitorId: (r.monitorId as string).toLowerCase(), roundAt: new Date(r.roundAt as string).toISOString(), startedAt: new Date(r.startedAt as string).toISOString(), outcome: r.outcome as ReportedRun['outcome'], timings: shown, error: r.error as string | null, networkError: r.networkError as boolean, attempt: r.attempt as number, final: r.final as boolean };
}

/** `POST /v1/runners/results`: every run checked; one bad run refuses the batch (400 with details), so a runner's bug is seen. */
export function parseResultsBody(body: unknown): { runner: string; location: string; results: ReportedRun[] } {
  const details: ViolationDetail[] = [];
  const head = parseRunnerHeader(body, ['results'], details);
  const raw = head.body.results;
  const results: ReportedRun[] = [];
  if (!Array.isArray(raw) || raw.length > MAX_RESULTS) details.push({ path: 'results', message: `must be an array of at most ${MAX_RESULTS} runs` });
  else raw.forEach((value, index) => {
    const run = parseRun(value, `results[${index}]`, details);
    if (run) results.push(run);
  });
  if (details.length > 0) throw ValidationError.of(details.slice(0, 50));
  return { runner: head.runner, location: head.location, results };
}

/**
 * `POST /v1/runners/lease`: `since` and `membership` come from the runner's previous answer; without them the lease
 * is full. `after` (a previous answer's `continueAfter`, with its `membership`, without `since`) continues a full lease.
 */
export function parseLeaseBody(body: unknown): { runner: string; location: string; request: LeaseRequest } {
  const details: ViolationDetail[] = [];
  const head = parseRunnerHeader(body, ['since', 'membership', 'after'], details);
  const { since = null, membership = null, after = null } = head.body;
  if (since !== null && !isTime(since)) details.push({ path: 'since', message: 'must be null or an ISO 8601 UTC date-time' });
  if (membership !== null && (typeof membership !== 'string' || !MEMBERSHIP.test(membership))) details.push({ path: 'membership', message: 'must be null or the membership of the previous lease' });
  if (after !== null && (!isUuid(after) || since !== null || membership === null)) details.push({ path: 'after', message: 'must be null or the previous answer’s continueAfter, sent with its membership and without since' });
  if (details.length > 0) throw ValidationError.of(details);
  const request = { since: since === null ? null : new Date(since as string).toISOString(), membership: membership as string | null, after: after === null ? null : (after as string).toLowerCase() };
  return { runner: head.runner, location: head.location, request };
}

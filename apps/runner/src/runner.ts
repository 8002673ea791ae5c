import { intervalSeconds, LeaseAnswer, MonitorConfig, ReportedRun, retryDelaySeconds, runProbe } from '../../../libs/monitors/src/monitors.api';
import { RunnerConfig } from '../../../libs/platform/src/runner-config';
import { VigilLogger } from '../../../libs/platform/src/logger';

/** How often a runner leases: well within the lease (10 s), so one lost call costs no run. */
const LEASE_EVERY_MS = 3000;
const REPORT_EVERY_MS = 1000;
/** Within the API's 20,000 values per body (a run is ~15). */
const MAX_BATCH = 1000;
/** Runs kept while the API does not answer; the oldest go first beyond this. */
const MAX_QUEUED = 100_000;

/** The API refused the runner's key: it stops rather than retry. */
export class RunnerRefused extends Error {}
class BatchRefused extends Error {}

/**
 * A runner process: leases its location's due runs from the API, starts each at its round's time
 * (corrected for the API's clock), retries as the monitor says, and reports the runs in batches.
 */
export class Runner {
  /** `<monitorId>@<roundAt>` of every run leased and not yet forgotten, so a run leased twice starts once. */
  private readonly leased = new Map<string, number>();
  private readonly queue: ReportedRun[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private inflight = 0;
  private skewMs = 0;
  private allowPrivate = false;
  private stopped = false;
  private loops: NodeJS.Timeout[] = [];
  readonly stats = { leases: 0, runs: 0, reported: 0, lateOver1s: 0 };

  constructor(
    private readonly config: RunnerConfig,
    private readonly id: string,
    private readonly logger: VigilLogger,
    private readonly onRefused: (error: RunnerRefused) => void,
  ) {}

  start(): void {
    const every = (ms: number, job: () => Promise<void>) => {
      const loop = async () => {
        await job().catch((error: unknown) => (error instanceof RunnerRefused ? this.refuse(error) : this.logger.warn({ err: error }, 'runner call failed')));
        if (!this.stopped) this.loops.push(setTimeout(loop, ms));
      };
      void loop();
    };
    every(LEASE_EVERY_MS, () => this.lease());
    every(REPORT_EVERY_MS, () => this.report());
  }

  stop(): void {
    this.stopped = true;
    for (const t of [...this.loops, ...this.timers]) clearTimeout(t);
  }

  private refuse(error: RunnerRefused): void {
    this.stop();
    this.onRefused(error);
  }

  private async call<T>(path: string, body: object): Promise<T> {
    const response = await fetch(`${this.config.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.runnerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ runner: this.id, location: this.config.location, ...body }),
      signal: AbortSignal.timeout(15_000),
    });
    const answer = (await response.json().catch(() => null)) as (T & { message?: string; details?: unknown }) | null;
    if (response.status === 401 || response.status === 403) throw new RunnerRefused(`the API refused this runner: ${answer?.message ?? response.status}`);
    // A batch the API finds malformed would be refused forever: it is dropped, and said.
    if (response.status === 400) throw new BatchRefused(`${path} refused: ${JSON.stringify(answer?.details ?? answer?.message ?? null).slice(0, 500)}`);
    if (!response.ok || answer === null) throw new Error(`${path} answered ${response.status}: ${answer?.message ?? ''}`);
    return answer;
  }

  private async lease(): Promise<void> {
    const sent = Date.now();
    const lease = await this.call<LeaseAnswer>('/v1/runners/lease', {});
    const received = Date.now();
    // The API's clock says when rounds are; half the round trip is the best guess of the answer's age.
    this.skewMs = Date.parse(lease.at) - (sent + received) / 2;
    this.allowPrivate = lease.allowPrivateTargets || this.config.outboundAllowPrivate;
    this.stats.leases++;
    for (const [key, at] of this.leased) if (at < received - 60_000) this.leased.delete(key);
    for (const { monitorId, roundAt } of lease.runs) {
      const key = `${monitorId}@${roundAt}`;
      const config = lease.monitors[monitorId];
      if (this.leased.has(key) || !config) continue;
      const at = Date.parse(roundAt);
      this.leased.set(key, at - this.skewMs);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.round(monitorId, roundAt, config);
      }, Math.max(0, at - this.skewMs - Date.now()));
      this.timers.add(timer);
    }
  }

  private async slot(): Promise<void> {
    if (this.inflight < this.config.concurrency) {
      this.inflight++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inflight--;
  }

  private async round(monitorId: string, roundAt: string, config: MonitorConfig): Promise<void> {
    const firstStart = performance.now();
    this.logger.debug({ monitorId, roundAt }, 'round started');
    for (let attempt = 1; !this.stopped; attempt++) {
      await this.slot();
      const startedMs = Date.now();
      let verdict;
      try {
        verdict = await runProbe(config, this.allowPrivate, new Date(startedMs + this.skewMs));
      } finally {
        this.release();
      }
      this.stats.runs++;
      if (attempt === 1 && startedMs + this.skewMs - Date.parse(roundAt) > 1000) this.stats.lateOver1s++;
      const elapsed = (performance.now() - firstStart) / 1000;
      const delay = verdict.outcome === 'FAIL' ? retryDelaySeconds(config.retryStrategy, attempt - 1, elapsed, verdict.networkError) : null;
      // A retry never runs into the next round.
      const last = delay === null || elapsed + delay >= intervalSeconds(config);
      this.queue.push({ monitorId, roundAt, startedAt: new Date(startedMs + this.skewMs).toISOString(), outcome: verdict.outcome, timings: verdict.timings, error: verdict.error?.slice(0, 1000) ?? null, networkError: verdict.networkError, attempt, final: last });
      if (this.queue.length > MAX_QUEUED) this.queue.splice(0, this.queue.length - MAX_QUEUED);
      if (last) return;
      await new Promise((resolve) => setTimeout(resolve, delay! * 1000));
    }
  }

  private async report(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, MAX_BATCH);
      const answer = await this.call<{ accepted: number; rejected: { path: string; message: string }[] }>('/v1/runners/results', { results: batch }).catch((error: unknown) => {
        if (!(error instanceof BatchRefused)) throw error;
        this.logger.error({ err: error, dropped: batch.length }, error.message);
        return { accepted: 0, rejected: [] };
      });
      this.queue.splice(0, batch.length);
      this.stats.reported += answer.accepted;
      if (answer.rejected.length > 0) this.logger.warn({ rejected: answer.rejected.slice(0, 5), count: answer.rejected.length }, 'runs not recorded');
      if (batch.length < MAX_BATCH) return;
    }
  }
}

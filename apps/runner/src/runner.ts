import { intervalSeconds, LeaseAnswer, MonitorConfig, ReportedRun, retryDelaySeconds, runProbe } from '../../../libs/monitors/src/monitors.api';
import { RunnerConfig } from '../../../libs/platform/src/runner-config';
import { VigilLogger } from '../../../libs/platform/src/logger';
import { callApi, CallRefused, RunnerRefused } from './api-call';
import { Wheel } from './wheel';

export { RunnerRefused } from './api-call';

/** How often a runner leases: well within the presence lease (10 s), so one lost call costs no run. */
const LEASE_EVERY_MS = 3000;
/** How long a started round's key is kept, so a lease that offers it again does not start it twice. */
const REMEMBER_MS = 120_000;
/** A round this far past its time when planned (the API was away longer than the lease) is skipped, not run late. */
const TOO_LATE_MS = 10_000;
/** The clock offsets of the last leases: the one with the shortest round trip is the most exact. */
const SKEW_SAMPLES = 10;
const REPORT_EVERY_MS = 1000;
/** Within the API's 20,000 values per body (a run is ~15). */
const MAX_BATCH = 1000;
/** Runs kept while the API does not answer; the oldest go first beyond this. */
const MAX_QUEUED = 100_000;
/** Rounds due within this many ms start together (at most this late): fewer wake-ups, well inside the 1 s a start may lag. */
const SLOT_MS = 10;

/** A monitor this runner holds: its config, the next round not yet planned (API clock, ms) and the planned ones. */
interface Held {
  config: MonitorConfig;
  key: string;
  next: number;
  /** The planned rounds not yet started: key → time (API clock, ms). */
  planned: Map<string, number>;
}

/** A planned round on the wheel; it starts only if its monitor still holds it when due. */
interface Planned {
  monitorId: string;
  monitor: Held;
  key: string;
  at: number;
}

/**
 * A runner process: leases its location's monitors from the API (all of them at first and when the location's
 * runners change, then only the changes), starts each round at its time on its own timer (corrected for the
 * API's clock) up to the lease's end, retries as the monitor says, and reports the runs in batches.
 */
export class Runner {
  /** `<monitorId>@<roundAt ms>` of every round planned and not yet forgotten, so a round offered twice starts once. */
  private readonly leased = new Map<string, number>();
  private readonly held = new Map<string, Held>();
  /** From the previous answer: the next lease asks only for changes since then, while the membership holds. */
  private previous: { since: string; membership: string } | null = null;
  /**
   * A full lease being received a page at a time: its first answer's time (the next lease's since), membership, the
   * page to ask for next and the monitors given so far. A page not received is asked for again at the next lease.
   */
  private paging: { since: string; membership: string; after: string; seen: Set<string> } | null = null;
  /** The lease end of the last lease received whole: a monitor a full lease under way has not confirmed yet is planned no further. */
  private confirmedUntil = 0;
  private readonly queue: ReportedRun[] = [];
  private readonly waiting: (() => void)[] = [];
  private inflight = 0;
  private skewMs = 0;
  private readonly skews: { rtt: number; skew: number }[] = [];
  private allowPrivate = false;
  private stopped = false;
  /** The report in flight: a shutdown's last report waits for it, so no batch is sent twice. */
  private reporting: Promise<void> | null = null;
  private loops: NodeJS.Timeout[] = [];
  private readonly wheel = new Wheel<Planned>(SLOT_MS, (p) => this.due(p));
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
        await job().catch((error: unknown) => (error instanceof RunnerRefused ? this.refuse(error) : this.logger.warn({ err: error }, `runner call failed: ${error instanceof Error ? error.message : String(error)}`)));
        if (!this.stopped) this.loops.push(setTimeout(loop, ms));
      };
      void loop();
    };
    every(LEASE_EVERY_MS, () => this.lease());
    every(REPORT_EVERY_MS, () => (this.reporting = this.report().finally(() => (this.reporting = null))));
  }

  /** Stops leasing and starting rounds, then sends what was measured, for at most `withinMs`. */
  async shutdown(withinMs: number): Promise<void> {
    this.stop();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
    const flushed = (this.reporting ?? Promise.resolve()).then(() => this.report()).catch((error: unknown) => this.logger.warn({ err: error, unsent: this.queue.length }, 'runs not sent before stopping'));
    await Promise.race([flushed, late]);
    clearTimeout(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.loops) clearTimeout(t);
    this.wheel.clear();
  }

  private refuse(error: RunnerRefused): void {
    this.stop();
    this.onRefused(error);
  }

  private call<T>(path: string, body: object): Promise<T> {
    return callApi<T>(this.config, path, { runner: this.id, location: this.config.location, ...body });
  }

  /** Leases, page after page while a full lease has more (each page is planned as it comes). */
  private async lease(): Promise<void> {
    do {
      const sent = Date.now();
      const request = this.paging ? { membership: this.paging.membership, after: this.paging.after } : (this.previous ?? {});
      // A lease the API refuses (400) would be refused again: the next one starts a full lease afresh.
      const lease = await this.call<LeaseAnswer>('/v1/runners/lease', request).catch((error: unknown) => {
        if (error instanceof CallRefused) [this.paging, this.previous] = [null, null];
        throw error;
      });
      this.apply(lease, sent, Date.now());
    } while (this.paging && !this.stopped);
  }

  private apply(lease: LeaseAnswer, sent: number, received: number): void {
    // The API's clock says when rounds are; half the round trip is the best guess of the answer's age, and a slow
    // answer (a busy API) a poor one: the fastest of the last few leases gives the offset.
    this.skews.push({ rtt: received - sent, skew: Date.parse(lease.at) - (sent + received) / 2 });
    if (this.skews.length > SKEW_SAMPLES) this.skews.shift();
    const skew = this.skews.reduce((best, s) => (s.rtt < best.rtt ? s : best)).skew;
    const moved = Math.abs(skew - this.skewMs) > 20;
    this.skewMs = skew;
    // Rounds planned with the old offset would start late: they are put on the wheel again.
    if (moved) {
      this.wheel.clear();
      for (const [id, monitor] of this.held) for (const [key, at] of monitor.planned) this.arm({ monitorId: id, monitor, key, at });
    }
    this.allowPrivate = lease.allowPrivateTargets || this.config.outboundAllowPrivate;
    this.stats.leases++;
    for (const [key, at] of this.leased) if (at < received - REMEMBER_MS) this.leased.delete(key);
    if (lease.full) {
      // A page of the full lease under way, or (first page, or the location's runners changed meanwhile) a new one.
      if (this.paging?.membership !== lease.membership) this.paging = { since: lease.at, membership: lease.membership, after: '', seen: new Set() };
      for (const id of Object.keys(lease.monitors)) this.paging.seen.add(id);
      if (lease.continueAfter) this.paging.after = lease.continueAfter;
      else {
        for (const id of this.held.keys()) if (!this.paging.seen.has(id)) this.drop(id);
        this.previous = { since: this.paging.since, membership: lease.membership };
        this.paging = null;
      }
    } else {
      this.previous = { since: lease.at, membership: lease.membership };
      for (const id of lease.released) this.drop(id);
    }
    for (const [id, config] of Object.entries(lease.monitors)) {
      const key = JSON.stringify(config);
      const next = Date.parse(lease.nextRounds[id]);
      const known = this.held.get(id);
      // The same config keeps its plan; a new or changed one is planned again from the API's next round.
      if (known && known.key === key) continue;
      this.drop(id);
      this.held.set(id, { config, key, next, planned: new Map() });
    }
    const until = Date.parse(lease.leaseUntil);
    if (!this.paging) this.confirmedUntil = until;
    for (const [id, monitor] of this.held) this.plan(id, monitor, this.paging && !this.paging.seen.has(id) ? this.confirmedUntil : until);
  }

  /** Timers for the monitor's rounds up to `until` (API clock). */
  private plan(monitorId: string, monitor: Held, until: number): void {
    const interval = intervalSeconds(monitor.config) * 1000;
    const tooLate = Date.now() + this.skewMs - TOO_LATE_MS;
    for (; monitor.next < until; monitor.next += interval) {
      const at = monitor.next;
      const key = `${monitorId}@${at}`;
      if (this.leased.has(key) || at < tooLate) continue;
      this.leased.set(key, at - this.skewMs);
      monitor.planned.set(key, at);
      this.arm({ monitorId, monitor, key, at });
    }
  }

  /** The round at `p.at` (API clock) goes on the wheel for its local time. */
  private arm(p: Planned): void {
    if (!this.stopped) this.wheel.add(p.at - this.skewMs, p);
  }

  /** Starts a round that is due, unless its monitor was dropped or replanned meanwhile; the offset may have been corrected since, so one due early waits again. */
  private due(p: Planned): void {
    if (this.held.get(p.monitorId) !== p.monitor || !p.monitor.planned.has(p.key)) return;
    if (p.at - this.skewMs - Date.now() > 2) return this.arm(p);
    p.monitor.planned.delete(p.key);
    void this.round(p.monitorId, new Date(p.at).toISOString(), p.monitor.config);
  }

  /** Forgets a monitor and its rounds not yet started (their places on the wheel come to nothing). */
  private drop(monitorId: string): void {
    const monitor = this.held.get(monitorId);
    if (!monitor) return;
    for (const key of monitor.planned.keys()) this.leased.delete(key);
    monitor.planned.clear();
    this.held.delete(monitorId);
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
        // A batch the API finds malformed would be refused forever: it is dropped, and said.
        if (!(error instanceof CallRefused)) throw error;
        this.logger.error({ err: error, dropped: batch.length }, error.message);
        return { accepted: 0, rejected: [] };
      });
      this.queue.splice(0, batch.length);
      this.stats.reported += answer.accepted;
      if (answer.rejected.length > 0) this.logger.warn({ rejected: answer.rejected.slice(0, 5), count: answer.rejected.length }, 'runs not recorded');
      // A monitor deleted or moved off this location meanwhile: its rounds stop here.
      for (const { path } of answer.rejected) {
        const index = /^results\[(\d+)\]\.monitorId$/.exec(path)?.[1];
        if (index !== undefined && batch[Number(index)]) this.drop(batch[Number(index)].monitorId);
      }
      if (batch.length < MAX_BATCH) return;
    }
  }
}

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { intervalSeconds, MonitorConfig } from '../domain/monitor-config';
import { retryDelaySeconds } from '../domain/retry';
import { runProbe } from '../probes/run-probe';
import { LOCAL_LOCATION } from '../read/locations';
import { configOf, monitorsProjection } from '../read/monitors.projection';
import { monitorStatesProjection } from '../read/monitor-states.projection';
import { RUN_ACTOR, RunMonitorCommand } from './monitor.handler';

/** While rounds are due but not started (a round still running, the concurrency cap), the next look comes this soon. */
const TICK_MS = 250;
const MIN_WAIT_MS = 10;
/** With no news, the next look comes at the latest after this: a change of schedule wakes the scheduler sooner. */
export const SCHEDULER_IDLE_MS = 10_000;
/** A monitor's change (created, edited, resumed, a run recorded) is looked at within this. */
const NEWS_MS = 100;
const DUE_BATCH = 500;
const SCHEDULE_EVENTS = new Set(['MonitorCreated', 'MonitorUpdated', 'MonitorDeleted', 'MonitorActivationChanged', 'MonitorRunRecorded']);

/**
 * The embedded location: where background work runs, it starts each due monitor's round on time from
 * `local`, retries as the monitor's strategy says, and records every run through the monitor's command.
 */
@Injectable()
export class MonitorScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly inflight = new Set<string>();
  private readonly loop: BackgroundLoop;
  private ticking = false;
  private unsubscribe = (): void => undefined;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly commands: CommandBus,
  ) {
    this.loop = new BackgroundLoop({ name: 'monitor scheduler', idleMs: SCHEDULER_IDLE_MS, firstMs: TICK_MS, logger: this.logger, pass: () => this.pass(), clock: this.clock });
  }

  onApplicationBootstrap(): void {
    if (!this.daemon || !this.config.monitorsEmbedded) return;
    this.unsubscribe = this.engine.onApplied((events) => events.some((event) => SCHEDULE_EVENTS.has(event.type)) && this.loop.wake(NEWS_MS));
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    this.unsubscribe();
    return this.loop.stop();
  }

  /** Starts what is due; then waits for the earliest round not yet due, or looks again soon while due rounds wait. */
  private async pass(): Promise<number | null> {
    const waiting = await this.tick();
    return waiting ? TICK_MS : this.untilNextRound();
  }

  /** Milliseconds until the earliest round not yet due (at least MIN_WAIT_MS); null when none is scheduled. */
  private async untilNextRound(): Promise<number | null> {
    const now = this.clock.now().getTime();
    const [next] = await this.store.find(this.engine.collection(monitorStatesProjection), {
      filters: [{ field: 'localRunAt', op: 'gt', value: now }],
      sort: { field: 'localRunAt', direction: 'asc' },
      limit: 1,
    });
    return next?.localRunAt == null ? null : Math.max(MIN_WAIT_MS, next.localRunAt - now + 1);
  }

  /** Starts the rounds that are due; a round still running (or retrying) is not started twice. Returns whether due rounds were left waiting. */
  async tick(): Promise<boolean> {
    if (this.ticking || this.loop.stopped) return false;
    this.ticking = true;
    let waiting = false;
    try {
      const now = this.clock.now().getTime();
      const due = await this.store.find(this.engine.collection(monitorStatesProjection), {
        filters: [{ field: 'localRunAt', op: 'lte', value: now }],
        sort: { field: 'localRunAt', direction: 'asc' },
        limit: DUE_BATCH,
      });
      waiting = due.length === DUE_BATCH;
      const idle = due.filter((doc) => !this.inflight.has(doc.id));
      const stored = idle.length === 0 ? [] : await this.store.getMany(this.engine.collection(monitorsProjection), idle.map((doc) => doc.id));
      const configs = new Map(stored.map(({ doc }) => [doc.id, configOf(doc)]));
      for (const doc of due) {
        if (this.inflight.has(doc.id) || this.inflight.size >= this.config.monitorsConcurrency) {
          waiting = true;
          continue;
        }
        const config = configs.get(doc.id);
        if (!config || !config.activated || !config.locations.includes(LOCAL_LOCATION) || doc.nextRunAt === null) continue;
        // A round missed by more than one interval (the process was down) is not run late: this one starts now.
        const roundAt = now - doc.nextRunAt > intervalSeconds(config) * 1000 ? now : doc.nextRunAt;
        this.inflight.add(doc.id);
        void this.round(doc.id, config, new Date(roundAt).toISOString(), performance.now()).finally(() => this.inflight.delete(doc.id));
      }
    } finally {
      this.ticking = false;
    }
    return waiting;
  }

  private async round(id: string, config: MonitorConfig, roundAt: string, firstStart: number): Promise<void> {
    for (let attempt = 1; !this.loop.stopped; attempt++) {
      const startedAt = this.clock.now().toISOString();
      const verdict = await runProbe(config, this.config.outboundAllowPrivate, this.clock.now());
      const elapsed = (performance.now() - firstStart) / 1000;
      const delay = verdict.outcome === 'FAIL' ? retryDelaySeconds(config.retryStrategy, attempt - 1, elapsed, verdict.networkError) : null;
      const run = { location: LOCAL_LOCATION, roundAt, startedAt, outcome: verdict.outcome, timings: verdict.timings, error: verdict.error, networkError: verdict.networkError, attempt, final: delay === null };
      try {
        await this.commands.execute(
          new RunMonitorCommand({ type: 'RecordMonitorRun', id, run, failThreshold: this.config.monitorsFailThreshold }, RUN_ACTOR),
        );
      } catch (error) {
        // Deleted meanwhile, or a store outage: the round ends; the next one starts on schedule.
        this.logger.warn({ err: error, monitorId: id }, 'monitor run not recorded');
        return;
      }
      if (delay === null) return;
      await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    }
  }
}

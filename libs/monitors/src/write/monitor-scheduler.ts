import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { intervalSeconds } from '../domain/monitor-config';
import { retryDelaySeconds } from '../domain/retry';
import { runProbe } from '../probes/run-probe';
import { LOCAL_LOCATION } from '../read/locations';
import { MonitorDoc, monitorsProjection } from '../read/monitors.projection';
import { RUN_ACTOR, RunMonitorCommand } from './monitor.handler';

/** The longest wait between two looks at the due rounds; a round due sooner is waited for exactly. */
const TICK_MS = 250;
const MIN_WAIT_MS = 10;
const DUE_BATCH = 500;

/**
 * The embedded location: where background work runs, it starts each due monitor's round on time from
 * `local`, retries as the monitor's strategy says, and records every run through the monitor's command.
 */
@Injectable()
export class MonitorScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly inflight = new Set<string>();
  private readonly loop: BackgroundLoop;
  private ticking = false;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly commands: CommandBus,
  ) {
    this.loop = new BackgroundLoop({ name: 'monitor scheduler', idleMs: TICK_MS, firstMs: TICK_MS, logger: this.logger, pass: () => this.pass() });
  }

  onApplicationBootstrap(): void {
    if (this.daemon && this.config.monitorsEmbedded) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async pass(): Promise<number> {
    await this.tick();
    return this.untilNextRound();
  }

  /** Milliseconds until the earliest round not yet due, within [MIN_WAIT_MS, TICK_MS]. */
  private async untilNextRound(): Promise<number> {
    try {
      const now = this.clock.now().getTime();
      const [next] = await this.store.find(this.engine.collection(monitorsProjection), {
        filters: [{ field: 'localRunAt', op: 'gt', value: now }],
        sort: { field: 'localRunAt', direction: 'asc' },
        limit: 1,
      });
      return next?.nextRunAt == null ? TICK_MS : Math.min(TICK_MS, Math.max(MIN_WAIT_MS, next.nextRunAt - now + 1));
    } catch {
      return TICK_MS;
    }
  }

  /** Starts the rounds that are due; a round still running (or retrying) is not started twice. */
  async tick(): Promise<number> {
    if (this.ticking || this.loop.stopped) return 0;
    this.ticking = true;
    let started = 0;
    try {
      const now = this.clock.now().getTime();
      const due = await this.store.find(this.engine.collection(monitorsProjection), {
        filters: [{ field: 'localRunAt', op: 'lte', value: now }],
        sort: { field: 'localRunAt', direction: 'asc' },
        limit: DUE_BATCH,
      });
      for (const doc of due) {
        if (this.inflight.has(doc.id) || this.inflight.size >= this.config.monitorsConcurrency) continue;
        const config = doc.state.config;
        if (!config || !config.activated || !config.locations.includes(LOCAL_LOCATION) || doc.nextRunAt === null) continue;
        // A round missed by more than one interval (the process was down) is not run late: this one starts now.
        const roundAt = now - doc.nextRunAt > intervalSeconds(config) * 1000 ? now : doc.nextRunAt;
        this.inflight.add(doc.id);
        started++;
        void this.round(doc, new Date(roundAt).toISOString(), performance.now()).finally(() => this.inflight.delete(doc.id));
      }
    } catch (error) {
      this.logger.error({ err: error }, 'monitor scheduler pass failed');
    } finally {
      this.ticking = false;
    }
    return started;
  }

  private async round(doc: MonitorDoc, roundAt: string, firstStart: number): Promise<void> {
    const config = doc.state.config!;
    for (let attempt = 1; !this.loop.stopped; attempt++) {
      const startedAt = this.clock.now().toISOString();
      const verdict = await runProbe(config, this.config.outboundAllowPrivate, this.clock.now());
      const elapsed = (performance.now() - firstStart) / 1000;
      const delay = verdict.outcome === 'FAIL' ? retryDelaySeconds(config.retryStrategy, attempt - 1, elapsed, verdict.networkError) : null;
      const run = { location: LOCAL_LOCATION, roundAt, startedAt, outcome: verdict.outcome, timings: verdict.timings, error: verdict.error, networkError: verdict.networkError, attempt, final: delay === null };
      try {
        await this.commands.execute(
          new RunMonitorCommand({ type: 'RecordMonitorRun', id: doc.id, run, failThreshold: this.config.monitorsFailThreshold }, RUN_ACTOR),
        );
      } catch (error) {
        // Deleted meanwhile, or a store outage: the round ends; the next one starts on schedule.
        this.logger.warn({ err: error, monitorId: doc.id }, 'monitor run not recorded');
        return;
      }
      if (delay === null) return;
      await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    }
  }
}

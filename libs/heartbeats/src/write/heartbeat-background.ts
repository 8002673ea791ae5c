import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { heartbeatTimersProjection } from '../read/heartbeat.projections';
import { EventRetention } from './event-retention';
import { HeartbeatWatchdog, WatchdogPass } from './heartbeat-watchdog';

/** The longest wait between watchdog passes without news: a safety poll, the next deadline is waited for exactly. */
export const WATCHDOG_IDLE_MS = 10_000;
/** A heartbeat event applied brings a pass within this: a burst of pings costs one pass, FAILING still lands within 2 s. */
const NEWS_MS = 500;
/** The shortest wait for a deadline just ahead (a frozen test clock must not make the loop spin). */
const WATCHDOG_MIN_WAIT_MS = 20;
const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Background heartbeat work, wherever background work runs (apps/api with the daemon on, and apps/worker):
 * the watchdog, which sleeps until the next deadline it knows of or until a heartbeat event is applied
 * (an append here, a page of the log the daemon applied), after one pass at start that catches up what
 * was missed while nothing ran; and hourly retention.
 */
@Injectable()
export class HeartbeatBackground implements OnApplicationBootstrap, OnApplicationShutdown {
  private loops: BackgroundLoop[] = [];
  private unsubscribe = (): void => undefined;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly enabled: boolean,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly watchdog: HeartbeatWatchdog,
    private readonly retention: EventRetention,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    // Runs after the platform caught the read models up, before the server listens.
    const caughtUp = await this.watchdog.runOnce();
    if (caughtUp.failed > 0) this.logger.info({ failed: caughtUp.failed }, 'watchdog caught up missed deadlines');
    const untilNext = (pass: WatchdogPass) => (pass.nextDueInMs === null ? null : Math.max(WATCHDOG_MIN_WAIT_MS, pass.nextDueInMs + 1));
    const { logger, clock } = this;
    const watchdog = new BackgroundLoop({ name: 'heartbeat watchdog', idleMs: WATCHDOG_IDLE_MS, firstMs: untilNext(caughtUp) ?? WATCHDOG_IDLE_MS, pass: async () => untilNext(await this.watchdog.runOnce()), logger, clock });
    const moving = new Set<string>(heartbeatTimersProjection.handles);
    this.unsubscribe = this.engine.onApplied((events) => events.some((event) => moving.has(event.type)) && watchdog.wake(NEWS_MS));
    this.loops = [watchdog, new BackgroundLoop({ name: 'heartbeat retention', idleMs: RETENTION_INTERVAL_MS, firstMs: RETENTION_INTERVAL_MS, pass: async () => void (await this.retention.runOnce()), logger })];
    for (const loop of this.loops) loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe();
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }
}

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { sleep } from '../../../core/src/sleep';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED } from '../../../platform/src/tokens';
import { EventRetention } from './event-retention';
import { HeartbeatWatchdog, WatchdogPass } from './heartbeat-watchdog';

/** Real-time cadence; the watchdog's own notion of "now" is the injected clock. */
export const WATCHDOG_INTERVAL_MS = 500;
/** The shortest wait for a deadline just ahead (a frozen test clock must not make the loop spin). */
const WATCHDOG_MIN_WAIT_MS = 20;
const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Background heartbeat work, wherever background work runs (apps/api with the daemon on, and
 * apps/worker): a watchdog pass every half second (so FAILING lands well within 2 s of a deadline),
 * one at start that catches up what was missed while nothing ran, and hourly retention.
 */
@Injectable()
export class HeartbeatBackground implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(
    @Inject(DAEMON_ENABLED) private readonly enabled: boolean,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly watchdog: HeartbeatWatchdog,
    private readonly retention: EventRetention,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    // Runs after the platform caught the read models up, before the server listens.
    const caughtUp = await this.watchdog.runOnce();
    if (caughtUp.failed > 0) this.logger.info({ failed: caughtUp.failed }, 'watchdog caught up missed deadlines');
    // A deadline less than a cadence away is waited for: its FAILING lands at once, not up to half a second later.
    const untilNextPass = (pass?: WatchdogPass) =>
      pass?.nextDueInMs == null ? WATCHDOG_INTERVAL_MS : Math.min(WATCHDOG_INTERVAL_MS, Math.max(WATCHDOG_MIN_WAIT_MS, pass.nextDueInMs + 1));
    this.loops = [
      this.every(untilNextPass(caughtUp), () => this.watchdog.runOnce(), 'watchdog', untilNextPass),
      this.every(RETENTION_INTERVAL_MS, () => this.retention.runOnce(), 'retention'),
    ];
  }

  async onApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await Promise.all(this.loops);
  }

  /** `work` after `first` ms, then again after the wait `next` makes of its result (undefined after a failure). */
  private async every<T>(first: number, work: () => Promise<T>, name: string, next: (result?: T) => number = () => first): Promise<void> {
    const signal = this.abort.signal;
    let wait = first;
    while (!signal.aborted) {
      await sleep(wait, signal);
      if (signal.aborted) return;
      try {
        wait = next(await work());
      } catch (error) {
        wait = next();
        this.logger.error({ err: error }, `heartbeat ${name} pass failed`);
      }
    }
  }
}

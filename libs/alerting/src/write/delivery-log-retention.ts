import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED } from '../../../platform/src/tokens';
import { Outbox } from './outbox';

const PRUNE_INTERVAL_MS = 3_600_000;
const PAGE = 500;

/**
 * The delivery log keeps finished deliveries as long as heartbeat events are kept (VIGIL_EVENT_RETENTION_DAYS):
 * an hourly pass wherever background work runs.
 */
@Injectable()
export class DeliveryLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: BackgroundLoop;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly enabled: boolean,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly outbox: Outbox,
  ) {
    this.loop = new BackgroundLoop({ name: 'delivery log retention', idleMs: PRUNE_INTERVAL_MS, logger: this.logger, pass: () => this.pass() });
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Returns how many finished deliveries it removed. */
  async pruneOnce(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.config.eventRetentionDays * 86_400_000).toISOString();
    let removed = 0;
    for (;;) {
      const batch = await this.outbox.finishedBefore(before, PAGE);
      for (const stored of batch) if (await this.outbox.remove(stored.doc.id, stored.version)) removed++;
      if (batch.length < PAGE) return removed;
    }
  }

  private async pass(): Promise<void> {
    const removed = await this.pruneOnce();
    if (removed > 0) this.logger.info({ removed }, 'old notifications removed from the delivery log');
  }
}

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { heartbeatStream } from '../domain/heartbeat.decider';
import { bucketStart, DAY_MS, heartbeatTimersProjection } from '../read/heartbeat.projections';
import { RollupHistory } from './rollup-history';

const PAGE = 500;
const HOUR_MS = 3_600_000;

/**
 * Raw heartbeat events older than `eventRetentionDays` leave the event store (pruneStream), and with
 * it the events list, which reads the log; a rebuild cannot bring them back. Rollups stay for good: whole
 * days are pruned, each kept first as an event a rebuild folds back (rollup-history.ts). Hourly where
 * background work runs.
 */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: BackgroundLoop;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    private readonly history: RollupHistory,
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(LOGGER) logger: VigilLogger,
  ) {
    this.loop = new BackgroundLoop({ name: 'heartbeat retention', idleMs: HOUR_MS, firstMs: HOUR_MS, logger, pass: async () => void (await this.runOnce()) });
  }

  onApplicationBootstrap(): void {
    if (this.daemon) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Returns how many events were removed. */
  async runOnce(): Promise<number> {
    if (!this.events.pruneStream) return 0;
    const cutoff = bucketStart(this.clock.now().getTime() - this.config.eventRetentionDays * DAY_MS, 'd');
    const timers = this.engine.collection(heartbeatTimersProjection);
    let removed = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.store.find(timers, { sort: { field: 'id', direction: 'asc' }, limit: PAGE, after: after ? { value: after, id: after } : undefined });
      if (page.length === 0) return removed;
      for (const { id } of page) {
        await this.history.keepBefore(id, cutoff);
        removed += await this.events.pruneStream(heartbeatStream(id), new Date(cutoff));
      }
      after = page[page.length - 1].id;
    }
  }
}

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { monitorStream } from '../domain/monitor.decider';
import { KeptBucket } from '../domain/rollup-history.decider';
import { monitorRollupsProjection, rollupRange } from '../read/monitor-rollups.projection';
import { monitorsProjection } from '../read/monitors.projection';
import { RunRollupHistoryCommand } from './rollup-history.handler';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const PAGE = 500;
const ACTOR = { accountId: null, keyName: 'event retention' };

/**
 * Raw runs older than `eventRetentionDays` leave the event store, and with them the check results; the
 * hourly and daily rollups stay for good.
 * 1. Per monitor, each whole day before the cutoff that has rollups is kept once, as an event on the
 *    monitor's history stream, which is never pruned (a rebuild folds it back).
 * 2. Then the monitor's stream is pruned up to the cutoff.
 * Runs once an hour where background work runs; `runOnce` is the pass.
 */
@Injectable()
export class RunRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: BackgroundLoop;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly commands: CommandBus,
  ) {
    this.loop = new BackgroundLoop({ name: 'monitor run retention', idleMs: HOUR_MS, firstMs: HOUR_MS, logger: this.logger, pass: async () => void (await this.runOnce()) });
  }

  onApplicationBootstrap(): void {
    if (this.daemon && this.events.pruneStream) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Returns how many run events were removed. */
  async runOnce(): Promise<number> {
    if (!this.events.pruneStream) return 0;
    const cutoff = Math.floor((this.clock.now().getTime() - this.config.eventRetentionDays * DAY_MS) / DAY_MS) * DAY_MS;
    const monitors = this.engine.collection(monitorsProjection);
    let removed = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.store.find(monitors, { sort: { field: 'id', direction: 'asc' }, limit: PAGE, after: after ? { value: after, id: after } : undefined });
      if (page.length === 0) return removed;
      for (const monitor of page) {
        await this.keepDays(monitor.id, cutoff);
        removed += (await this.events.pruneStream(monitorStream(monitor.id), new Date(cutoff))) ?? 0;
      }
      after = page[page.length - 1].id;
    }
  }

  private async keepDays(monitorId: string, cutoff: number): Promise<void> {
    const [oldest] = await this.events.readStream(monitorStream(monitorId), { maxCount: 1 });
    if (!oldest) return;
    const rollups = this.engine.collection(monitorRollupsProjection);
    for (let day = Math.floor(Date.parse(oldest.metadata.occurredAt) / DAY_MS) * DAY_MS; day < cutoff; day += DAY_MS) {
      const [from, to] = [new Date(day).toISOString(), new Date(day + DAY_MS).toISOString()];
      const docs = (await Promise.all((['d', 'h'] as const).map((granularity) => this.store.find(rollups, { filters: rollupRange(monitorId, granularity, from, to), limit: 25 })))).flat();
      if (docs.length === 0) continue;
      const buckets: KeptBucket[] = docs.map(({ granularity, bucketAt, runs, failed, degraded, sumMs, histogram }) => ({ granularity, bucketAt, runs, failed, degraded, sumMs, histogram }));
      await this.commands.execute(new RunRollupHistoryCommand({ type: 'KeepMonitorRollups', monitorId, day: new Date(day).toISOString(), buckets }, ACTOR));
    }
  }
}

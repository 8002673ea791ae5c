import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { heartbeatStream } from '../domain/heartbeat.decider';
import { DAY_MS } from '../read/heartbeat.projections';
import { HeartbeatStats } from '../read/heartbeat-stats';
import { RunRollupHistoryCommand } from './rollup-history.handler';

const ACTOR = { accountId: null, keyName: 'event retention' };

/**
 * Before retention prunes a check's raw events up to `cutoff` (a day boundary), keeps the rollups of
 * every day it is about to prune as an event (rollup-history.decider.ts): from the day of the oldest
 * event left in the stream to the day before the cutoff, each day once.
 */
@Injectable()
export class RollupHistory {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly stats: HeartbeatStats,
    private readonly commands: CommandBus,
  ) {}

  /** Returns how many days were kept. */
  async keepBefore(checkId: string, cutoff: number): Promise<number> {
    const [oldest] = await this.events.readStream(heartbeatStream(checkId), { maxCount: 1 });
    if (!oldest) return 0;
    let kept = 0;
    for (let day = Math.floor(Date.parse(oldest.metadata.occurredAt) / DAY_MS) * DAY_MS; day < cutoff; day += DAY_MS) {
      const [dayDoc] = await this.stats.rollupsBetween(checkId, 'd', day, day + DAY_MS);
      if (!dayDoc) continue;
      const hours = await this.stats.rollupsBetween(checkId, 'h', day, day + DAY_MS);
      const command = { type: 'KeepRollups' as const, checkId, day: new Date(day).toISOString(), docs: [dayDoc, ...hours] };
      kept += (await this.commands.execute(new RunRollupHistoryCommand(command, ACTOR))).appended.length;
    }
    return kept;
  }
}

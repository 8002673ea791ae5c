import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { heartbeatStream } from '../domain/heartbeat.decider';
import { DAY_MS, heartbeatRollupsProjection, rollupId } from '../read/heartbeat.projections';
import { rollupsBetween } from '../read/heartbeat-stats';
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
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly commands: CommandBus,
  ) {}

  /** Returns how many days were kept. */
  async keepBefore(checkId: string, cutoff: number): Promise<number> {
    const [oldest] = await this.events.readStream(heartbeatStream(checkId), { maxCount: 1 });
    if (!oldest) return 0;
    const rollups = this.engine.collection(heartbeatRollupsProjection);
    let kept = 0;
    for (let day = Math.floor(Date.parse(oldest.metadata.occurredAt) / DAY_MS) * DAY_MS; day < cutoff; day += DAY_MS) {
      const dayDoc = await this.store.get(rollups, rollupId(checkId, 'd', day));
      if (!dayDoc) continue;
      const hours = await rollupsBetween(this.store, this.engine, checkId, 'h', day, day + DAY_MS);
      const docs = [dayDoc.doc, ...hours];
      const result = await this.commands.execute(new RunRollupHistoryCommand({ type: 'KeepRollups', checkId, day: new Date(day).toISOString(), docs }, ACTOR));
      kept += result.appended.length;
    }
    return kept;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { evolveTimer, heartbeatStream, TimerState } from '../domain/heartbeat-timer';
import { TimerDoc, toTimerState } from '../read/heartbeat-timers.projection';

export interface LoadedTimer {
  timer: TimerState;
  /** Revision of `heartbeat-<id>`; null when the stream does not exist yet. */
  revision: bigint | null;
}

/**
 * A check's committed timer: the timer document plus whatever the stream holds beyond it (in
 * embedded mode none of this process's own events, applied as their batch commits, only another
 * process's not caught up yet; a few in production, where the daemon may lag). Never a fold of the
 * whole stream.
 */
@Injectable()
export class TimerLoader {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async load(checkId: string): Promise<LoadedTimer> {
    const stored = await this.store.get<TimerDoc>(this.engine.collection('heartbeat_timers'), checkId);
    let timer = toTimerState(stored?.doc ?? null);
    let revision = stored ? BigInt(stored.doc.streamRevision) : null;
    const tail = await this.events.readStream(heartbeatStream(checkId), { fromRevision: revision === null ? 0n : revision + 1n });
    for (const event of tail) {
      timer = evolveTimer(timer, event);
      revision = event.revision;
    }
    return { timer, revision };
  }
}

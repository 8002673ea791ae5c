import { Inject, Injectable } from '@nestjs/common';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { HeartbeatEvent, outageOf } from '../domain/heartbeat.events';
import { CheckDoc, heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { OutageIncidents } from './outage-incidents';

type ReactorEvent = EventOf<HeartbeatEvent, 'HeartbeatFailed' | 'HeartbeatPingReceived'>;

/**
 * Turns outages into incidents: the first FAILING of an outage opens the check's `triggerIncident`, the first
 * ping after it resolves it. A processor with its own checkpoint, moved only once an event is handled: an
 * outage written while nothing reacted, or whose handling a crash cut short, is handled again after a restart,
 * and handling it twice opens one incident. Muted checks and checks without `triggerIncident` alert no one.
 */
@Injectable()
export class IncidentReactor implements Processor<ReactorEvent> {
  readonly name = 'incident-reactor';
  readonly handles = ['HeartbeatFailed', 'HeartbeatPingReceived'] as const;
  readonly startAt = 'head' as const;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly incidents: OutageIncidents,
  ) {}

  async handle(event: RecordedEvent<ReactorEvent>): Promise<void> {
    if (event.type === 'HeartbeatFailed') {
      if (!event.data.first) return;
      const check = await this.alertable(event.data.checkId);
      if (check) await this.incidents.open(check, outageOf(event.data)!);
      return;
    }
    if (!event.data.recoveredFrom) return;
    const check = await this.alertable(event.data.checkId);
    if (check) await this.incidents.resolve(check, { id: event.data.recoveredFrom, reopens: event.data.outage?.reopens }, event.data.at);
  }

  private async alertable(checkId: string): Promise<CheckDoc | null> {
    const stored = await this.store.get(this.engine.collection(heartbeatChecksProjection), checkId);
    return stored && !stored.doc.muted && stored.doc.triggerIncident ? stored.doc : null;
  }
}

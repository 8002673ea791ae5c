import { Inject, Injectable } from '@nestjs/common';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { HeartbeatEvent, isHeartbeatEvent } from '../domain/heartbeat.decider';
import { CheckDoc, heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { HeartbeatIncidentTriggers } from './incident-trigger';

/**
 * Turns outages into incidents: the first FAILING of an outage opens the check's `triggerIncident`,
 * the first ping after it resolves it. A processor with its own checkpoint, so an outage written while
 * nothing reacted (a crash, a restart) still opens its incident; muted checks and checks without
 * `triggerIncident` alert no one. Triggers treat the outage key as an idempotency key.
 */
@Injectable()
export class IncidentReactor implements Processor<EventOf<HeartbeatEvent, 'HeartbeatFailed' | 'HeartbeatPingReceived'>> {
  readonly name = 'incident-reactor';
  readonly handles = ['HeartbeatFailed', 'HeartbeatPingReceived'] as const;
  readonly startAt = 'head' as const;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly triggers: HeartbeatIncidentTriggers,
  ) {}

  async handle(event: RecordedEvent<EventOf<HeartbeatEvent, 'HeartbeatFailed' | 'HeartbeatPingReceived'>>): Promise<void> {
    if (event.type === 'HeartbeatFailed') {
      const data = event.data;
      if (!data.first) return;
      const check = await this.alertable(data.checkId);
      if (!check?.triggerIncident) return;
      await this.triggers.open({
        outageKey: data.eventId,
        accountId: check.accountId,
        checkId: check.id,
        checkName: check.name,
        serviceId: check.triggerIncident.serviceId,
        severity: check.triggerIncident.severity,
        name: check.triggerIncident.name,
        description: check.triggerIncident.description,
        notifySubscribers: check.triggerIncident.notifySubscribers,
        failedAt: data.deadline,
      });
      return;
    }
    const data = event.data;
    if (!data.recoveredFrom) return;
    const check = await this.alertable(data.checkId);
    if (!check?.triggerIncident) return;
    await this.triggers.resolve({
      outageKey: data.recoveredFrom,
      accountId: check.accountId,
      checkId: check.id,
      checkName: check.name,
      serviceId: check.triggerIncident.serviceId,
      notifySubscribers: check.triggerIncident.notifySubscribers,
      recoveredAt: data.at,
    });
  }

  private async alertable(checkId: string): Promise<CheckDoc | null> {
    if (this.triggers.registered === 0) return null;
    const stored = await this.store.get(this.engine.collection(heartbeatChecksProjection), checkId);
    return stored && !stored.doc.muted ? stored.doc : null;
  }
}

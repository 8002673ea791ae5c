import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../../core/src/event';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { FailedData, PingReceivedData } from '../domain/heartbeat-timer';
import { CheckDoc } from '../read/heartbeat-checks.projection';
import { HeartbeatIncidentTriggers } from './incident-trigger';

/** An outage's first FAILING, or the first ping after an outage. */
function opensOrResolves(event: RecordedEvent): boolean {
  if (event.type === 'HeartbeatFailed') return Boolean((event.data as unknown as FailedData).first);
  if (event.type === 'HeartbeatPingReceived') return Boolean((event.data as unknown as PingReceivedData).recoveredFrom);
  return false;
}

/**
 * Turns outages into incidents: the first FAILING of an outage opens the check's `triggerIncident`,
 * the first ping after it resolves it. Fed by the projection daemon's event feed, so it runs where
 * background work runs; muted checks and checks without `triggerIncident` alert no one.
 */
@Injectable()
export class IncidentReactor {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly triggers: HeartbeatIncidentTriggers,
  ) {}

  start(): void {
    this.engine.onEvent((event) => {
      // Most events change no incident (every ping but an outage's first): they skip the queue's promises.
      if (!opensOrResolves(event)) return;
      // One at a time, in log order, so an outage's open always precedes its resolve.
      this.queue = this.queue.then(() => this.react(event)).catch((error) => {
        this.logger.error({ err: error, type: event.type }, 'incident trigger failed');
      });
    });
  }

  /** Resolves once everything handed over so far is handled. */
  idle(): Promise<void> {
    return this.queue;
  }

  private async react(event: RecordedEvent): Promise<void> {
    if (event.type === 'HeartbeatFailed') {
      const data = event.data as unknown as FailedData;
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
    const data = event.data as unknown as PingReceivedData;
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
    const stored = await this.store.get<CheckDoc>(this.engine.collection('heartbeat_checks'), checkId);
    return stored && !stored.doc.muted ? stored.doc : null;
  }
}

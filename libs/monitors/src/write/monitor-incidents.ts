import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { Actor } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { NewUpdate, RunIncidentCommand } from '../../../incidents/src/incidents.api';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import { MonitorEvent } from '../domain/monitor.decider';
import { configOf, monitorsProjection } from '../read/monitors.projection';

const NAMESPACE = '0b6f3c1e-2d4a-4e8b-b7a9-5c1d9e2f4a60';
/** Ids from the outage (monitor and the round it began), so handling an event again opens and posts nothing twice. */
export const monitorIncidentId = (monitorId: string, startedAt: string) => uuidv5(`incident|${monitorId}|${startedAt}`, NAMESPACE);
const updateId = (kind: 'investigating' | 'resolved', monitorId: string, startedAt: string) => uuidv5(`${kind}|${monitorId}|${startedAt}`, NAMESPACE);

const TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
const customerTime = (iso: string) => `${TIME.format(new Date(iso))} UTC`;
const actorFor = (accountId: string): Actor => ({ accountId, keyId: null, keyName: 'monitor incidents', requestId: null });
// Opened by an earlier pass (conflict), or its service deleted since (refused): nothing to retry.
const ignoreSettled = (error: unknown) => {
  if (!(error instanceof ConflictError) && !(error instanceof ValidationError) && !(error instanceof NotFoundError)) throw error;
};

type Changed = EventOf<MonitorEvent, 'MonitorStateChanged'>;

/**
 * A monitor's `triggerIncident`, as heartbeat checks have it: going FAILING opens an incident on the service,
 * leaving FAILING resolves it, in words a customer reads. Muted monitors open none.
 */
@Injectable()
export class MonitorIncidents implements Processor<Changed> {
  readonly name = 'monitor-incidents';
  readonly handles = ['MonitorStateChanged'] as const;
  readonly startAt = 'head' as const;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: CommandBus,
    private readonly services: ServiceDirectory,
  ) {}

  async handle(event: RecordedEvent<Changed>): Promise<void> {
    const { id, from, to, roundAt, downtimeMs } = event.data;
    if ((to === 'FAILING') === (from === 'FAILING')) return;
    const stored = await this.store.get(this.engine.collection(monitorsProjection), id);
    const config = stored ? configOf(stored.doc) : undefined;
    const trigger = config?.triggerIncident;
    if (!stored || !config || !trigger || config.muted) return;
    const accountId = stored.doc.accountId;
    const serviceName = (await this.services.get(accountId, trigger.serviceId))?.service.name ?? null;
    if (to === 'FAILING') {
      const description = trigger.description.trim() || `We are investigating a problem with ${serviceName ?? 'one of our services'} that started at ${customerTime(roundAt)}.`;
      const update = this.update(updateId('investigating', id, roundAt), description, 'INVESTIGATING', trigger.notifySubscribers);
      const command = { type: 'CreateIncident' as const, id: monitorIncidentId(id, roundAt), accountId, name: trigger.name, severity: trigger.severity, serviceIds: [trigger.serviceId], updates: [update] };
      await this.commands.execute(new RunIncidentCommand(command, actorFor(accountId))).catch(ignoreSettled);
      return;
    }
    // The outage began when FAILING did: the recovery's round minus the downtime.
    const startedAt = downtimeMs === null ? null : new Date(Date.parse(roundAt) - downtimeMs).toISOString();
    if (startedAt === null) return;
    const words = `${serviceName ?? 'The affected service'} has been working normally again since ${customerTime(roundAt)}.`;
    const update = this.update(updateId('resolved', id, startedAt), words, 'RESOLVED', trigger.notifySubscribers);
    try {
      await this.commands.execute(new RunIncidentCommand({ type: 'PostIncidentUpdate', id: monitorIncidentId(id, startedAt), accountId, update }, actorFor(accountId)));
    } catch (error) {
      // Already resolved by an earlier pass, or no incident was opened (triggerIncident set mid-outage, or deleted).
      if (!(error instanceof ConflictError) && !(error instanceof NotFoundError)) throw error;
    }
  }

  private update(id: string, description: string, status: 'INVESTIGATING' | 'RESOLVED', notifySubscribers: boolean): NewUpdate {
    return { id, description, status, publicIncidentUpdateDate: this.clock.now().toISOString(), notifySubscribers };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ConcurrencyError } from '../../../core/src/errors';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { CLOCK, Clock } from '../../../core/src/clock';
import { CreateIncidentCommand, PostIncidentUpdateCommand, WriteResult } from '../../../incidents/src/write/incident.commands';
import { IncidentTrigger, OpenIncidentRequest, ResolveIncidentRequest } from './incident-trigger';

const ACTOR = (accountId: string) => ({ accountId, keyId: null, keyName: 'heartbeat watchdog', requestId: null });
const outageStream = (outageKey: string) => `heartbeat-outage-${outageKey}`;

/**
 * The incidents context's commands behind IncidentTrigger. Each outage has a stream that records the
 * claim, the incident it opened and its resolution, each appended with an expected revision, so a
 * redelivered or concurrent request opens (or resolves) one incident, not two.
 */
@Injectable()
export class IncidentsBridge implements IncidentTrigger {
  constructor(
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async open(request: OpenIncidentRequest): Promise<void> {
    const stream = outageStream(request.outageKey);
    if (!(await this.append(stream, 'HeartbeatOutageClaimed', { checkId: request.checkId }, 'no_stream', request.accountId))) return;
    const description =
      request.description.trim() ||
      `Heartbeat check "${request.checkName}" missed its deadline at ${request.failedAt}.`;
    const created = await this.commands.execute<CreateIncidentCommand, WriteResult>(
      new CreateIncidentCommand(
        request.accountId,
        { name: request.name, severity: request.severity, serviceIds: [request.serviceId] },
        [{ description, status: 'INVESTIGATING', publicIncidentUpdateDate: null, notifySubscribers: request.notifySubscribers }],
        ACTOR(request.accountId),
      ),
    );
    await this.append(stream, 'HeartbeatOutageIncidentOpened', { incidentId: created.id }, 0n, request.accountId);
  }

  async resolve(request: ResolveIncidentRequest): Promise<void> {
    const stream = outageStream(request.outageKey);
    const history = await this.events.readStream(stream);
    const opened = history.find((e) => e.type === 'HeartbeatOutageIncidentOpened');
    if (!opened || history[history.length - 1] !== opened) return; // never opened, or already resolved
    if (!(await this.append(stream, 'HeartbeatOutageResolved', {}, opened.revision, request.accountId))) return;
    await this.commands.execute(
      new PostIncidentUpdateCommand(
        request.accountId,
        (opened.data as { incidentId: string }).incidentId,
        {
          description: `Heartbeat check "${request.checkName}" is receiving pings again (${request.recoveredAt}).`,
          status: 'RESOLVED',
          publicIncidentUpdateDate: null,
          notifySubscribers: request.notifySubscribers,
        },
        ACTOR(request.accountId),
      ),
    );
  }

  /** False when another writer got there first. */
  private async append(stream: string, type: string, data: Record<string, unknown>, expectedRevision: bigint | 'no_stream', accountId: string): Promise<boolean> {
    try {
      await this.events.appendToStream(stream, [{ type, data, metadata: { accountId, keyName: 'heartbeat watchdog', occurredAt: this.clock.now().toISOString() } }], { expectedRevision });
      return true;
    } catch (error) {
      if (error instanceof ConcurrencyError) return false;
      throw error;
    }
  }
}

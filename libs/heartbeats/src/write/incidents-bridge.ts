import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateIncidentCommand, PostIncidentUpdateCommand, WriteResult } from '../../../incidents/src/write/incident.commands';
import { RunOutageCommand } from './outage.handler';
import { IncidentTrigger, OpenIncidentRequest, ResolveIncidentRequest } from './incident-trigger';

const ACTOR = (accountId: string) => ({ accountId, keyId: null, keyName: 'heartbeat watchdog', requestId: null });

/** The incidents context's commands behind IncidentTrigger, each outage recorded by the outage decider. */
@Injectable()
export class IncidentsBridge implements IncidentTrigger {
  constructor(private readonly commands: CommandBus) {}

  async open(request: OpenIncidentRequest): Promise<void> {
    const actor = ACTOR(request.accountId);
    const claimed = await this.commands.execute(new RunOutageCommand(request.outageKey, { type: 'Claim', checkId: request.checkId }, actor));
    if (claimed.decided.length === 0) return;
    const description =
      request.description.trim() ||
      `Heartbeat check "${request.checkName}" missed its deadline at ${request.failedAt}.`;
    const created = await this.commands.execute<CreateIncidentCommand, WriteResult>(
      new CreateIncidentCommand(
        request.accountId,
        { name: request.name, severity: request.severity, serviceIds: [request.serviceId] },
        [{ description, status: 'INVESTIGATING', publicIncidentUpdateDate: null, notifySubscribers: request.notifySubscribers }],
        actor,
      ),
    );
    await this.commands.execute(new RunOutageCommand(request.outageKey, { type: 'RecordIncident', incidentId: created.id }, actor));
  }

  async resolve(request: ResolveIncidentRequest): Promise<void> {
    const actor = ACTOR(request.accountId);
    const resolved = await this.commands.execute(new RunOutageCommand(request.outageKey, { type: 'Resolve' }, actor));
    if (resolved.decided.length === 0 || !resolved.state.incidentId) return;
    await this.commands.execute(
      new PostIncidentUpdateCommand(
        request.accountId,
        resolved.state.incidentId,
        {
          description: `Heartbeat check "${request.checkName}" is receiving pings again (${request.recoveredAt}).`,
          status: 'RESOLVED',
          publicIncidentUpdateDate: null,
          notifySubscribers: request.notifySubscribers,
        },
        actor,
      ),
    );
  }
}

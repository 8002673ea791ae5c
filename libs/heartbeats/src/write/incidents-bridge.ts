import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { RunIncidentCommand } from '../../../incidents/src/incidents.api';
import { outageDecider } from '../domain/outage.decider';
import { IncidentTrigger, OpenIncidentRequest, ResolveIncidentRequest } from './incident-trigger';

const ACTOR = (accountId: string) => ({ accountId, keyId: null, keyName: 'heartbeat watchdog', requestId: null });
const outageStream = (outageKey: string) => `heartbeat-outage-${outageKey}`;

/** The incidents context's commands behind IncidentTrigger, each outage recorded by the outage decider. */
@Injectable()
export class IncidentsBridge implements IncidentTrigger {
  constructor(
    private readonly commands: CommandBus,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async open(request: OpenIncidentRequest): Promise<void> {
    const stream = outageStream(request.outageKey);
    const actor = ACTOR(request.accountId);
    const claimed = await this.runner.run(stream, outageDecider, { type: 'Claim', checkId: request.checkId }, actor);
    if (claimed.decided.length === 0) return;
    const description =
      request.description.trim() ||
      `Heartbeat check "${request.checkName}" missed its deadline at ${request.failedAt}.`;
    const id = this.ids.next();
    const update = { id: this.ids.next(), description, status: 'INVESTIGATING', publicIncidentUpdateDate: this.clock.now().toISOString(), notifySubscribers: request.notifySubscribers } as const;
    const { accountId, name, severity, serviceId } = request;
    await this.commands.execute(new RunIncidentCommand({ type: 'CreateIncident', id, accountId, name, severity, serviceIds: [serviceId], updates: [update] }, actor));
    await this.runner.run(stream, outageDecider, { type: 'RecordIncident', incidentId: id }, actor);
  }

  async resolve(request: ResolveIncidentRequest): Promise<void> {
    const actor = ACTOR(request.accountId);
    const resolved = await this.runner.run(outageStream(request.outageKey), outageDecider, { type: 'Resolve' }, actor);
    if (resolved.decided.length === 0 || !resolved.state.incidentId) return;
    const update = {
      id: this.ids.next(),
      description: `Heartbeat check "${request.checkName}" is receiving pings again (${request.recoveredAt}).`,
      status: 'RESOLVED',
      publicIncidentUpdateDate: this.clock.now().toISOString(),
      notifySubscribers: request.notifySubscribers,
    } as const;
    await this.commands.execute(new RunIncidentCommand({ type: 'PostIncidentUpdate', id: resolved.state.incidentId, accountId: request.accountId, update }, actor));
  }
}

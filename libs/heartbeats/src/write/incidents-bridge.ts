import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../../core/src/errors';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { CreateIncidentCommand, PostIncidentUpdateCommand, WriteResult } from '../../../incidents/src/write/incident.commands';
import { ServiceDirectory } from '../../../status-pages/src/read/service-directory';
import { openedWords, reopenedWords, resolvedWords } from '../domain/incident-wording';
import { outageDecider } from '../domain/outage.decider';
import { RecentCheckIncidents } from './recent-check-incidents';
import { IncidentTrigger, OpenIncidentRequest, ResolveIncidentRequest } from './incident-trigger';

const ACTOR = (accountId: string) => ({ accountId, keyId: null, keyName: 'heartbeat watchdog', requestId: null });
const outageStream = (outageKey: string) => `heartbeat-outage-${outageKey}`;

/** The incidents context's commands behind IncidentTrigger, each outage recorded by the outage decider. */
@Injectable()
export class IncidentsBridge implements IncidentTrigger {
  constructor(
    private readonly commands: CommandBus,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
    private readonly recent: RecentCheckIncidents,
  ) {}

  private async serviceName(accountId: string, serviceId: string): Promise<string | null> {
    return (await this.services.get(accountId, serviceId))?.service.name ?? null;
  }

  async open(request: OpenIncidentRequest): Promise<void> {
    const stream = outageStream(request.outageKey);
    const actor = ACTOR(request.accountId);
    const claimed = await this.runner.run(stream, outageDecider, { type: 'Claim', checkId: request.checkId }, actor);
    if (claimed.decided.length === 0) return;
    const serviceName = await this.serviceName(request.accountId, request.serviceId);
    // A flapping check reopens its incident resolved moments ago, without emailing subscribers again.
    const reopened = await this.reopenRecent(request, serviceName);
    if (reopened) {
      await this.runner.run(stream, outageDecider, { type: 'RecordIncident', incidentId: reopened }, actor);
      await this.recent.opened(request.accountId, request.checkId, reopened, request.failedAt, true);
      return;
    }
    const description = request.description.trim() || openedWords(serviceName, request.failedAt);
    const created = await this.commands.execute<CreateIncidentCommand, WriteResult>(
      new CreateIncidentCommand(
        request.accountId,
        { name: request.name, severity: request.severity, serviceIds: [request.serviceId] },
        [{ description, status: 'INVESTIGATING', publicIncidentUpdateDate: null, notifySubscribers: request.notifySubscribers }],
        actor,
      ),
    );
    await this.runner.run(stream, outageDecider, { type: 'RecordIncident', incidentId: created.id }, actor);
    await this.recent.opened(request.accountId, request.checkId, created.id, request.failedAt, false);
  }

  /** The check's incident resolved within the flap window, reopened with an INVESTIGATING update; null when there is none (or it was deleted). */
  private async reopenRecent(request: OpenIncidentRequest, serviceName: string | null): Promise<string | null> {
    const incidentId = await this.recent.reopenable(request.checkId, request.failedAt);
    if (!incidentId) return null;
    const update = { description: reopenedWords(serviceName, request.failedAt), status: 'INVESTIGATING' as const, publicIncidentUpdateDate: null, notifySubscribers: false };
    try {
      await this.commands.execute(new PostIncidentUpdateCommand(request.accountId, incidentId, update, ACTOR(request.accountId)));
      return incidentId;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async resolve(request: ResolveIncidentRequest): Promise<void> {
    const actor = ACTOR(request.accountId);
    const resolved = await this.runner.run(outageStream(request.outageKey), outageDecider, { type: 'Resolve' }, actor);
    if (resolved.decided.length === 0 || !resolved.state.incidentId) return;
    const recent = await this.recent.get(request.checkId);
    const reopened = recent?.incidentId === resolved.state.incidentId && recent.reopened;
    const serviceName = await this.serviceName(request.accountId, request.serviceId);
    await this.commands.execute(
      new PostIncidentUpdateCommand(
        request.accountId,
        resolved.state.incidentId,
        {
          description: resolvedWords(serviceName, request.recoveredAt),
          status: 'RESOLVED',
          publicIncidentUpdateDate: null,
          notifySubscribers: request.notifySubscribers && !reopened,
        },
        actor,
      ),
    );
    if (recent?.incidentId === resolved.state.incidentId) await this.recent.resolved(recent, request.recoveredAt);
  }
}

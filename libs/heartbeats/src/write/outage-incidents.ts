import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { IncidentsQuery, NewUpdate, RunIncidentCommand } from '../../../incidents/src/incidents.api';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import { openedWords, reopenedWords, resolvedWords } from '../domain/incident-wording';
import { Outage } from '../domain/heartbeat.events';
import { legacyOutage, legacyOutageStream } from '../domain/legacy-outage';
import { CheckDoc } from '../read/heartbeat-checks.projection';

const NAMESPACE = '6d1c2a4e-8f0b-4b7e-9a51-3c2f7e0d9b14';
/** The incident an outage opens: the same id for every attempt, so a retry after a crash finds it instead of opening a second. */
export const outageIncidentId = (outageKey: string) => uuidv5(`incident|${outageKey}`, NAMESPACE);
const updateIdOf = (kind: 'investigating' | 'reopened' | 'resolved', outageKey: string) => uuidv5(`${kind}|${outageKey}`, NAMESPACE);

const actorFor = (accountId: string): Actor => ({ accountId, keyId: null, keyName: 'heartbeat watchdog', requestId: null });

/**
 * Opens and resolves the incident of a check's outage (its `triggerIncident`) through the incidents context's
 * commands, in words a customer reads. Every step is idempotent by the outage key (the eventId of its first
 * FAILING): the incident's id and its updates' ids derive from it, and a create or post that finds them
 * already there changes nothing, so the reactor re-handling an event after a crash opens nothing twice.
 * 1. An outage that began within the flap window of the last one's recovery (its `reopens`, from the heartbeat
 *    timer) reopens that outage's incident, if it was resolved (an INVESTIGATING update, not emailed).
 * 2. Otherwise it opens a new incident.
 * 3. A recovery resolves the incident the outage opened or reopened; a reopened one's resolution is not emailed either.
 */
@Injectable()
export class OutageIncidents {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
  ) {}

  async open(check: CheckDoc, outage: Pick<Outage, 'id' | 'startedAt' | 'reopens'>): Promise<void> {
    const trigger = check.triggerIncident!;
    const serviceName = await this.serviceName(check.accountId, trigger.serviceId);
    const reopenedUpdate = updateIdOf('reopened', outage.id);
    if (outage.reopens) {
      // Reopened only once resolved; a retry finds its own reopening already there.
      const incidentId = await this.incidentOf(outage.reopens);
      const updates = await this.updatesOf(check.accountId, incidentId);
      if (updates.at(-1)?.status === 'RESOLVED' || updates.some((u) => u.id === reopenedUpdate)) {
        const update = this.update(reopenedUpdate, reopenedWords(serviceName, outage.startedAt), 'INVESTIGATING', false);
        if (await this.post(check.accountId, incidentId, update)) return;
      }
    }
    const description = trigger.description.trim() || openedWords(serviceName, outage.startedAt);
    const update = this.update(updateIdOf('investigating', outage.id), description, 'INVESTIGATING', trigger.notifySubscribers);
    const command = { type: 'CreateIncident' as const, id: outageIncidentId(outage.id), accountId: check.accountId, name: trigger.name, severity: trigger.severity, serviceIds: [trigger.serviceId], updates: [update] };
    await this.commands.execute(new RunIncidentCommand(command, actorFor(check.accountId))).catch((error) => {
      if (!(error instanceof ConflictError)) throw error;
    });
  }

  async resolve(check: CheckDoc, outage: Pick<Outage, 'id' | 'reopens'>, recoveredAt: string): Promise<void> {
    let incidentId = await this.incidentOf(outage.id);
    let notify = check.triggerIncident!.notifySubscribers;
    if (outage.reopens) {
      const reopened = await this.incidentOf(outage.reopens);
      const updates = await this.updatesOf(check.accountId, reopened);
      if (updates.some((u) => u.id === updateIdOf('reopened', outage.id))) [incidentId, notify] = [reopened, false];
    }
    const serviceName = await this.serviceName(check.accountId, check.triggerIncident!.serviceId);
    const update = this.update(updateIdOf('resolved', outage.id), resolvedWords(serviceName, recoveredAt), 'RESOLVED', notify);
    // No incident (none was opened, or it was deleted), or this outage's RESOLVED is already posted.
    await this.post(check.accountId, incidentId, update);
  }

  /** The updates of the account's incident, in timeline order, read from its log; none when it is gone. */
  private async updatesOf(accountId: string, incidentId: string) {
    const { state } = await this.queries.execute(new IncidentsQuery({ type: 'FoldIncident', id: incidentId }));
    return state.status === 'active' && state.accountId === accountId ? state.updates : [];
  }

  private update(id: string, description: string, status: 'INVESTIGATING' | 'RESOLVED', notifySubscribers: boolean): NewUpdate {
    return { id, description, status, publicIncidentUpdateDate: this.clock.now().toISOString(), notifySubscribers };
  }

  /** False when the incident is gone; an update already posted counts as posted. */
  private async post(accountId: string, incidentId: string, update: NewUpdate): Promise<boolean> {
    try {
      await this.commands.execute(new RunIncidentCommand({ type: 'PostIncidentUpdate', id: incidentId, accountId, update }, actorFor(accountId)));
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return true;
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  private async serviceName(accountId: string, serviceId: string): Promise<string | null> {
    return (await this.services.get(accountId, serviceId))?.service.name ?? null;
  }

  /** Outages opened before incident ids derived from the outage key recorded theirs in `heartbeat-outage-<key>`. */
  private async incidentOf(outageKey: string): Promise<string> {
    const legacy = await this.runner.load(legacyOutageStream(outageKey), legacyOutage);
    return legacy.state.incidentId ?? outageIncidentId(outageKey);
  }
}

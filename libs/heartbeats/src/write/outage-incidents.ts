import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { RunIncidentCommand } from '../../../incidents/src/incidents.api';
import { legacyOutage, legacyOutageStream } from '../domain/legacy-outage';
import { CheckDoc } from '../read/heartbeat-checks.projection';

const NAMESPACE = '6d1c2a4e-8f0b-4b7e-9a51-3c2f7e0d9b14';
/** The incident an outage opens: the same id for every attempt, so a retry after a crash finds it instead of opening a second. */
export const outageIncidentId = (outageKey: string) => uuidv5(`incident|${outageKey}`, NAMESPACE);
const resolvedUpdateId = (outageKey: string) => uuidv5(`resolved|${outageKey}`, NAMESPACE);

const actorFor = (accountId: string): Actor => ({ accountId, keyId: null, keyName: 'heartbeat watchdog', requestId: null });

/**
 * Opens and resolves the incident of a check's outage (its `triggerIncident`) through the incidents context's
 * commands. Both are idempotent by the outage key (the eventId of its first FAILING): the incident's id and
 * its RESOLVED update's id derive from it, and a create or post that finds them already there changes nothing.
 */
@Injectable()
export class OutageIncidents {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
  ) {}

  async open(check: CheckDoc, outageKey: string, failedAt: string): Promise<void> {
    const trigger = check.triggerIncident!;
    const description = trigger.description.trim() || `Heartbeat check "${check.name}" missed its deadline at ${failedAt}.`;
    const id = outageIncidentId(outageKey);
    const update = { id: uuidv5(`investigating|${outageKey}`, NAMESPACE), description, status: 'INVESTIGATING' as const, publicIncidentUpdateDate: this.clock.now().toISOString(), notifySubscribers: trigger.notifySubscribers };
    const command = { type: 'CreateIncident' as const, id, accountId: check.accountId, name: trigger.name, severity: trigger.severity, serviceIds: [trigger.serviceId], updates: [update] };
    await this.commands.execute(new RunIncidentCommand(command, actorFor(check.accountId))).catch(ignore(ConflictError));
  }

  async resolve(check: CheckDoc, outageKey: string, recoveredAt: string): Promise<void> {
    const incidentId = await this.incidentOf(outageKey);
    const update = {
      id: resolvedUpdateId(outageKey),
      description: `Heartbeat check "${check.name}" is receiving pings again (${recoveredAt}).`,
      status: 'RESOLVED' as const,
      publicIncidentUpdateDate: this.clock.now().toISOString(),
      notifySubscribers: check.triggerIncident!.notifySubscribers,
    };
    const command = new RunIncidentCommand({ type: 'PostIncidentUpdate', id: incidentId, accountId: check.accountId, update }, actorFor(check.accountId));
    // No incident (none was opened, or it was deleted), or this outage's RESOLVED is already posted.
    await this.commands.execute(command).catch(ignore(NotFoundError, ConflictError));
  }

  /** Outages opened before incident ids derived from the outage key recorded theirs in `heartbeat-outage-<key>`. */
  private async incidentOf(outageKey: string): Promise<string> {
    const legacy = await this.runner.load(legacyOutageStream(outageKey), legacyOutage);
    return legacy.state.incidentId ?? outageIncidentId(outageKey);
  }
}

const ignore =
  (...kinds: (abstract new (...args: never[]) => Error)[]) =>
  (error: unknown) => {
    if (!kinds.some((kind) => error instanceof kind)) throw error;
  };

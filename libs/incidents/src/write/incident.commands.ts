import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { IncidentCommand, incidentDecider, incidentStream, NewUpdate } from '../domain/incident.decider';
import { Severity, UpdateStatus } from '../domain/incident-timeline';
import { IncidentDirectory } from '../read/incident-directory';

/** An update as a request brings it, after validation; a null date means "now". */
export interface UpdateInput {
  description: string;
  status: UpdateStatus | null;
  publicIncidentUpdateDate: string | null;
  notifySubscribers: boolean;
}

export interface IncidentDetails {
  name: string;
  severity: Severity;
  serviceIds: string[];
}

/** What a write answers: the ids it made and the stream revision after it. */
export interface WriteResult {
  id: string;
  revision: bigint | null;
}

export class CreateIncidentCommand {
  constructor(
    readonly accountId: string,
    readonly details: IncidentDetails,
    readonly updates: UpdateInput[],
    readonly actor: Actor,
    /** A caller's own id makes a repeated create a conflict instead of a second incident. */
    readonly id?: string,
  ) {}
}

export class ChangeIncidentCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly changes: Partial<IncidentDetails>,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class DeleteIncidentCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class PostIncidentUpdateCommand {
  constructor(
    readonly accountId: string,
    readonly incidentId: string,
    readonly update: UpdateInput,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
    /** A caller's own id makes a repeated post a conflict instead of a second update. */
    readonly updateId?: string,
  ) {}
}

export class EditIncidentUpdateCommand {
  constructor(
    readonly accountId: string,
    readonly incidentId: string,
    readonly updateId: string,
    readonly update: Omit<UpdateInput, 'notifySubscribers'>,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class DeleteIncidentUpdateCommand {
  constructor(
    readonly accountId: string,
    readonly incidentId: string,
    readonly updateId: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

function newUpdate(id: string, input: UpdateInput, now: Date): NewUpdate {
  return {
    id,
    description: input.description,
    status: input.status,
    publicIncidentUpdateDate: input.publicIncidentUpdateDate ?? now.toISOString(),
    notifySubscribers: input.notifySubscribers,
  };
}

/**
 * Every write to `incident-<id>`: a command of the incident decider run by the shared command runner, from
 * the incident's document as a snapshot (creation has none yet), so a write folds only what it has not seen.
 */
@Injectable()
export class IncidentWrites {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly incidents: IncidentDirectory,
  ) {}

  /** The stream's revision after the command. */
  async run(id: string, command: IncidentCommand, actor: Actor, ifMatch?: bigint): Promise<bigint | null> {
    const snapshot = command.type === 'CreateIncident' ? undefined : this.incidents.snapshot(id);
    return (await this.runner.run(incidentStream(id), incidentDecider, command, actor, { ifMatch, snapshot })).revision;
  }
}

@CommandHandler(CreateIncidentCommand)
export class CreateIncidentHandler implements ICommandHandler<CreateIncidentCommand, WriteResult> {
  constructor(
    private readonly writes: IncidentWrites,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, details, updates, actor, id: given }: CreateIncidentCommand): Promise<WriteResult> {
    const id = given ?? this.ids.next();
    const now = this.clock.now();
    const command: IncidentCommand = { type: 'CreateIncident', id, accountId, ...details, updates: updates.map((u) => newUpdate(this.ids.next(), u, now)) };
    return { id, revision: await this.writes.run(id, command, actor) };
  }
}

@CommandHandler(ChangeIncidentCommand)
export class ChangeIncidentHandler implements ICommandHandler<ChangeIncidentCommand, WriteResult> {
  constructor(private readonly writes: IncidentWrites) {}

  async execute({ accountId, id, changes, actor, ifMatch }: ChangeIncidentCommand): Promise<WriteResult> {
    return { id, revision: await this.writes.run(id, { type: 'ChangeIncident', id, accountId, ...changes }, actor, ifMatch) };
  }
}

@CommandHandler(DeleteIncidentCommand)
export class DeleteIncidentHandler implements ICommandHandler<DeleteIncidentCommand, WriteResult> {
  constructor(private readonly writes: IncidentWrites) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteIncidentCommand): Promise<WriteResult> {
    return { id, revision: await this.writes.run(id, { type: 'DeleteIncident', id, accountId }, actor, ifMatch) };
  }
}

@CommandHandler(PostIncidentUpdateCommand)
export class PostIncidentUpdateHandler implements ICommandHandler<PostIncidentUpdateCommand, WriteResult> {
  constructor(
    private readonly writes: IncidentWrites,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, incidentId, update, actor, ifMatch, updateId }: PostIncidentUpdateCommand): Promise<WriteResult> {
    const id = updateId ?? this.ids.next();
    const command: IncidentCommand = { type: 'PostIncidentUpdate', id: incidentId, accountId, update: newUpdate(id, update, this.clock.now()) };
    return { id, revision: await this.writes.run(incidentId, command, actor, ifMatch) };
  }
}

@CommandHandler(EditIncidentUpdateCommand)
export class EditIncidentUpdateHandler implements ICommandHandler<EditIncidentUpdateCommand, WriteResult> {
  constructor(private readonly writes: IncidentWrites) {}

  async execute({ accountId, incidentId, updateId, update, actor, ifMatch }: EditIncidentUpdateCommand): Promise<WriteResult> {
    const command: IncidentCommand = {
      type: 'EditIncidentUpdate',
      id: incidentId,
      accountId,
      updateId,
      description: update.description,
      status: update.status,
      publicIncidentUpdateDate: update.publicIncidentUpdateDate,
    };
    return { id: updateId, revision: await this.writes.run(incidentId, command, actor, ifMatch) };
  }
}

@CommandHandler(DeleteIncidentUpdateCommand)
export class DeleteIncidentUpdateHandler implements ICommandHandler<DeleteIncidentUpdateCommand, WriteResult> {
  constructor(private readonly writes: IncidentWrites) {}

  async execute({ accountId, incidentId, updateId, actor, ifMatch }: DeleteIncidentUpdateCommand): Promise<WriteResult> {
    return { id: updateId, revision: await this.writes.run(incidentId, { type: 'DeleteIncidentUpdate', id: incidentId, accountId, updateId }, actor, ifMatch) };
  }
}

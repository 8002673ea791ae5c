import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { incidentDecider, incidentStream, NewUpdate } from '../domain/incident.decider';
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

@CommandHandler(CreateIncidentCommand)
export class CreateIncidentHandler implements ICommandHandler<CreateIncidentCommand, WriteResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, details, updates, actor }: CreateIncidentCommand): Promise<WriteResult> {
    const id = this.ids.next();
    const now = this.clock.now();
    const result = await this.runner.run(
      incidentStream(id),
      incidentDecider,
      { type: 'CreateIncident', id, accountId, ...details, updates: updates.map((u) => newUpdate(this.ids.next(), u, now)) },
      actor,
    );
    return { id, revision: result.revision };
  }
}

@CommandHandler(ChangeIncidentCommand)
export class ChangeIncidentHandler implements ICommandHandler<ChangeIncidentCommand, WriteResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly incidents: IncidentDirectory,
  ) {}

  async execute({ accountId, id, changes, actor, ifMatch }: ChangeIncidentCommand): Promise<WriteResult> {
    const result = await this.runner.run(incidentStream(id), incidentDecider, { type: 'ChangeIncident', id, accountId, ...changes }, actor, {
      ifMatch,
      snapshot: this.incidents.snapshot(id),
    });
    return { id, revision: result.revision };
  }
}

@CommandHandler(DeleteIncidentCommand)
export class DeleteIncidentHandler implements ICommandHandler<DeleteIncidentCommand, WriteResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly incidents: IncidentDirectory,
  ) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteIncidentCommand): Promise<WriteResult> {
    const result = await this.runner.run(incidentStream(id), incidentDecider, { type: 'DeleteIncident', id, accountId }, actor, {
      ifMatch,
      snapshot: this.incidents.snapshot(id),
    });
    return { id, revision: result.revision };
  }
}

@CommandHandler(PostIncidentUpdateCommand)
export class PostIncidentUpdateHandler implements ICommandHandler<PostIncidentUpdateCommand, WriteResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly incidents: IncidentDirectory,
  ) {}

  async execute({ accountId, incidentId, update, actor, ifMatch }: PostIncidentUpdateCommand): Promise<WriteResult> {
    const id = this.ids.next();
    const result = await this.runner.run(
      incidentStream(incidentId),
      incidentDecider,
      { type: 'PostIncidentUpdate', id: incidentId, accountId, update: newUpdate(id, update, this.clock.now()) },
      actor,
      { ifMatch, snapshot: this.incidents.snapshot(incidentId) },
    );
    return { id, revision: result.revision };
  }
}

@CommandHandler(EditIncidentUpdateCommand)
export class EditIncidentUpdateHandler implements ICommandHandler<EditIncidentUpdateCommand, WriteResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly incidents: IncidentDirectory,
  ) {}

  async execute({ accountId, incidentId, updateId, update, actor, ifMatch }: EditIncidentUpdateCommand): Promise<WriteResult> {
    const result = await this.runner.run(
      incidentStream(incidentId),
      incidentDecider,
      {
        type: 'EditIncidentUpdate',
        id: incidentId,
        accountId,
        updateId,
        description: update.description,
        status: update.status,
        publicIncidentUpdateDate: update.publicIncidentUpdateDate,
      },
      actor,
      { ifMatch, snapshot: this.incidents.snapshot(incidentId) },
    );
    return { id: updateId, revision: result.revision };
  }
}

@CommandHandler(DeleteIncidentUpdateCommand)
export class DeleteIncidentUpdateHandler implements ICommandHandler<DeleteIncidentUpdateCommand, WriteResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly incidents: IncidentDirectory,
  ) {}

  async execute({ accountId, incidentId, updateId, actor, ifMatch }: DeleteIncidentUpdateCommand): Promise<WriteResult> {
    const result = await this.runner.run(
      incidentStream(incidentId),
      incidentDecider,
      { type: 'DeleteIncidentUpdate', id: incidentId, accountId, updateId },
      actor,
      { ifMatch, snapshot: this.incidents.snapshot(incidentId) },
    );
    return { id: updateId, revision: result.revision };
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { serviceDecider, serviceStream } from '../domain/service.decider';
import { ServiceLinks } from '../read/service-links';

export class CreateServiceCommand {
  constructor(
    readonly accountId: string,
    readonly name: string,
    readonly actor: Actor,
  ) {}
}

export class UpdateServiceCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly name: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class DeleteServiceCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

@CommandHandler(CreateServiceCommand)
export class CreateServiceHandler implements ICommandHandler<CreateServiceCommand, string> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ accountId, name, actor }: CreateServiceCommand): Promise<string> {
    const id = this.ids.next();
    await this.runner.run(serviceStream(id), serviceDecider, { type: 'CreateService', id, accountId, name }, actor);
    return id;
  }
}

@CommandHandler(UpdateServiceCommand)
export class UpdateServiceHandler implements ICommandHandler<UpdateServiceCommand, void> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  async execute({ accountId, id, name, actor, ifMatch }: UpdateServiceCommand): Promise<void> {
    await this.runner.run(serviceStream(id), serviceDecider, { type: 'UpdateService', id, accountId, name }, actor, { ifMatch });
  }
}

@CommandHandler(DeleteServiceCommand)
export class DeleteServiceHandler implements ICommandHandler<DeleteServiceCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly links: ServiceLinks,
  ) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteServiceCommand): Promise<void> {
    const usedBy = await this.links.usageOf(accountId, id);
    await this.runner.run(serviceStream(id), serviceDecider, { type: 'DeleteService', id, accountId, usedBy }, actor, { ifMatch });
  }
}

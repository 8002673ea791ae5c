import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import { maintenanceWindowDecider, maintenanceWindowStream, WindowConfig } from '../domain/maintenance-window.decider';

export class CreateMaintenanceWindowCommand {
  constructor(
    readonly accountId: string,
    readonly config: WindowConfig,
    readonly actor: Actor,
  ) {}
}

export class UpdateMaintenanceWindowCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly config: WindowConfig,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

export class DeleteMaintenanceWindowCommand {
  constructor(
    readonly accountId: string,
    readonly id: string,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {}
}

/** Every service id must name a service of this account (400, path `serviceIds[i]`). */
async function requireServices(services: ServiceDirectory, accountId: string, serviceIds: string[]): Promise<void> {
  if (serviceIds.length === 0) return;
  const found = await services.getMany(accountId, serviceIds);
  const details: ViolationDetail[] = serviceIds
    .map((id, i) => (found.has(id) ? null : { path: `serviceIds[${i}]`, message: 'must name an existing service of this account' }))
    .filter((d): d is ViolationDetail => d !== null);
  if (details.length > 0) throw ValidationError.of(details);
}

@CommandHandler(CreateMaintenanceWindowCommand)
export class CreateMaintenanceWindowHandler implements ICommandHandler<CreateMaintenanceWindowCommand, string> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly services: ServiceDirectory,
  ) {}

  async execute({ accountId, config, actor }: CreateMaintenanceWindowCommand): Promise<string> {
    const id = this.ids.next();
    // The window's own rules first, so one answer lists them before the lookups.
    maintenanceWindowDecider.decide({ type: 'CreateMaintenanceWindow', id, accountId, config }, maintenanceWindowDecider.initialState());
    await requireServices(this.services, accountId, config.serviceIds);
    await this.runner.run(maintenanceWindowStream(id), maintenanceWindowDecider, { type: 'CreateMaintenanceWindow', id, accountId, config }, actor);
    return id;
  }
}

@CommandHandler(UpdateMaintenanceWindowCommand)
export class UpdateMaintenanceWindowHandler implements ICommandHandler<UpdateMaintenanceWindowCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
  ) {}

  async execute({ accountId, id, config, actor, ifMatch }: UpdateMaintenanceWindowCommand): Promise<void> {
    const current = await this.runner.load(maintenanceWindowStream(id), maintenanceWindowDecider);
    maintenanceWindowDecider.decide({ type: 'UpdateMaintenanceWindow', id, accountId, config }, current.state);
    await requireServices(this.services, accountId, config.serviceIds);
    await this.runner.run(maintenanceWindowStream(id), maintenanceWindowDecider, { type: 'UpdateMaintenanceWindow', id, accountId, config }, actor, { ifMatch });
  }
}

@CommandHandler(DeleteMaintenanceWindowCommand)
export class DeleteMaintenanceWindowHandler implements ICommandHandler<DeleteMaintenanceWindowCommand, void> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  async execute({ accountId, id, actor, ifMatch }: DeleteMaintenanceWindowCommand): Promise<void> {
    await this.runner.run(maintenanceWindowStream(id), maintenanceWindowDecider, { type: 'DeleteMaintenanceWindow', id, accountId }, actor, { ifMatch });
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationError } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import {
  MaintenanceWindowCommand,
  maintenanceWindowDecider,
  MaintenanceWindowEvent,
  MaintenanceWindowState,
  maintenanceWindowStream,
} from '../domain/maintenance-window.decider';

export class RunMaintenanceWindowCommand extends AggregateCommand<MaintenanceWindowCommand, RunResult<MaintenanceWindowState, MaintenanceWindowEvent>> {}

/** Every write to `maintenance-<id>`; the services a window names must be the account's. */
@CommandHandler(RunMaintenanceWindowCommand)
export class MaintenanceWindowCommandHandler implements ICommandHandler<RunMaintenanceWindowCommand> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
  ) {}

  async execute({ command, actor, ifMatch }: RunMaintenanceWindowCommand): Promise<RunResult<MaintenanceWindowState, MaintenanceWindowEvent>> {
    const stream = maintenanceWindowStream(command.id);
    if (command.type !== 'DeleteMaintenanceWindow') {
      // The window's own rules first, so one answer lists them before the lookups.
      const current = command.type === 'CreateMaintenanceWindow' ? maintenanceWindowDecider.initialState() : (await this.runner.load(stream, maintenanceWindowDecider)).state;
      maintenanceWindowDecider.decide(command, current);
      await this.requireServices(command.accountId, command.config.serviceIds);
    }
    return this.runner.run(stream, maintenanceWindowDecider, command, actor, { ifMatch });
  }

  /** Every service id must name a service of this account (400, path `serviceIds[i]`). */
  private async requireServices(accountId: string, serviceIds: string[]): Promise<void> {
    if (serviceIds.length === 0) return;
    const found = await this.services.getMany(accountId, serviceIds);
    const details = serviceIds.flatMap((id, i) => (found.has(id) ? [] : [{ path: `serviceIds[${i}]`, message: 'must name an existing service of this account' }]));
    if (details.length > 0) throw ValidationError.of(details);
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceCommand, serviceDecider, ServiceState, serviceStream } from '../domain/service.decider';
import { ServiceLinks } from '../read/service-links';

/** A service write as its caller asks it; what still uses a service (for a delete) is read here. */
export type ServiceRequest = Exclude<ServiceCommand, { type: 'DeleteService' }> | Omit<Extract<ServiceCommand, { type: 'DeleteService' }>, 'usedBy'>;

export class RunServiceCommand extends AggregateCommand<ServiceRequest, RunResult<ServiceState>> {}

/** The one entry of Service writes: a service still on a card or an open incident cannot be deleted (409). */
@CommandHandler(RunServiceCommand)
export class ServiceCommandHandler implements ICommandHandler<RunServiceCommand, RunResult<ServiceState>> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly links: ServiceLinks,
  ) {}

  async execute({ command, actor, ifMatch }: RunServiceCommand): Promise<RunResult<ServiceState>> {
    const decided: ServiceCommand = command.type === 'DeleteService' ? { ...command, usedBy: await this.links.usageOf(command.accountId, command.id) } : command;
    return this.runner.run(serviceStream(command.id), serviceDecider, decided, actor, { ifMatch });
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { LocationCommand, locationDecider, LocationEvent, LocationState, locationStream } from '../domain/location.decider';

export type LocationRunResult = RunResult<LocationState, LocationEvent>;

export class RunLocationCommand extends AggregateCommand<LocationCommand, LocationRunResult> {}

/** The one writer of runner location streams. */
@CommandHandler(RunLocationCommand)
export class LocationCommandHandler implements ICommandHandler<RunLocationCommand, LocationRunResult> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor, ifMatch }: RunLocationCommand): Promise<LocationRunResult> {
    return this.runner.run(locationStream(command.accountId, command.location), locationDecider, command, actor, { ifMatch });
  }
}

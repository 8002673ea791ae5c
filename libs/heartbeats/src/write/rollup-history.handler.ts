import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { KeepRollups, rollupHistoryDecider, rollupHistoryStream } from '../domain/rollup-history.decider';

export class RunRollupHistoryCommand extends AggregateCommand<KeepRollups, RunResult<unknown>> {}

/** Every write to `heartbeatrollups-<check>-<day>`: a day's rollups kept before retention prunes its raw events. */
@CommandHandler(RunRollupHistoryCommand)
export class RollupHistoryCommandHandler implements ICommandHandler<RunRollupHistoryCommand> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor }: RunRollupHistoryCommand): Promise<RunResult<unknown>> {
    return this.runner.run(rollupHistoryStream(command.checkId, Date.parse(command.day)), rollupHistoryDecider, command, actor);
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { RollupHistoryCommand, rollupHistoryDecider, RollupHistoryEvent, rollupHistoryStream } from '../domain/rollup-history.decider';

export type RollupHistoryRunResult = RunResult<{ lastDay: string | null }, RollupHistoryEvent>;

export class RunRollupHistoryCommand extends AggregateCommand<RollupHistoryCommand, RollupHistoryRunResult> {}

/** The one writer of monitors' rollup history streams. */
@CommandHandler(RunRollupHistoryCommand)
export class RollupHistoryCommandHandler implements ICommandHandler<RunRollupHistoryCommand, RollupHistoryRunResult> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor, ifMatch }: RunRollupHistoryCommand): Promise<RollupHistoryRunResult> {
    return this.runner.run(rollupHistoryStream(command.monitorId), rollupHistoryDecider, command, actor, { ifMatch });
  }
}

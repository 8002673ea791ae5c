import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { RunnerKeyCommand, runnerKeyDecider, RunnerKeyEvent, RunnerKeyState, runnerKeyStream } from '../domain/runner-key.decider';

export type RunnerKeyRunResult = RunResult<RunnerKeyState, RunnerKeyEvent>;

export class RunRunnerKeyCommand extends AggregateCommand<RunnerKeyCommand, RunnerKeyRunResult> {}

/** The one writer of runner key streams. */
@CommandHandler(RunRunnerKeyCommand)
export class RunnerKeyCommandHandler implements ICommandHandler<RunRunnerKeyCommand, RunnerKeyRunResult> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor, ifMatch }: RunRunnerKeyCommand): Promise<RunnerKeyRunResult> {
    const id = command.type === 'CreateRunnerKey' ? command.key.id : command.id;
    return this.runner.run(runnerKeyStream(id), runnerKeyDecider, command, actor, { ifMatch });
  }
}

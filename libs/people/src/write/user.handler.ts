import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { UserCommand, userDecider, UserEvent, UserState, userStream } from '../domain/user.decider';

export type UserRunResult = RunResult<UserState, UserEvent>;

/** Every write to a person: registration, sign-in links, sessions. */
export class RunUserCommand extends AggregateCommand<UserCommand, UserRunResult> {}

@CommandHandler(RunUserCommand)
export class UserCommandHandler implements ICommandHandler<RunUserCommand, UserRunResult> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor, ifMatch }: RunUserCommand): Promise<UserRunResult> {
    return this.runner.run(userStream(command.userId), userDecider, command, actor, { ifMatch });
  }
}

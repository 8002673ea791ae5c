import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { AccountCommand, accountDecider, AccountEvent, AccountState, accountStream } from '../domain/account.decider';

export class RunAccountCommand extends AggregateCommand<AccountCommand, RunResult<AccountState, AccountEvent>> {}

/** Every write to `account-<id>`: creation and its ping key. */
@CommandHandler(RunAccountCommand)
export class AccountCommandHandler implements ICommandHandler<RunAccountCommand> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor, ifMatch }: RunAccountCommand): Promise<RunResult<AccountState, AccountEvent>> {
    return this.runner.run(accountStream(command.id), accountDecider, command, { ...actor, accountId: command.id }, { ifMatch });
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ApiKeyCommand, apiKeyDecider, ApiKeyEvent, ApiKeyState, apiKeyStream } from '../domain/api-key.decider';
import { AccountsQuery } from '../read/accounts.queries';

export class RunApiKeyCommand extends AggregateCommand<ApiKeyCommand, RunResult<ApiKeyState, ApiKeyEvent>> {}

/** Every write to `apikey-<id>`; a new key's accounts must exist. */
@CommandHandler(RunApiKeyCommand)
export class ApiKeyCommandHandler implements ICommandHandler<RunApiKeyCommand> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly queries: QueryBus,
  ) {}

  async execute({ command, actor, ifMatch }: RunApiKeyCommand): Promise<RunResult<ApiKeyState, ApiKeyEvent>> {
    if (command.type === 'RevokeApiKey') return this.runner.run(apiKeyStream(command.id), apiKeyDecider, command, actor, { ifMatch });
    const { id, accountIds } = command.key;
    for (const accountId of accountIds) {
      if (!(await this.queries.execute(new AccountsQuery({ type: 'GetAccount', id: accountId })))) throw new NotFoundError(`Account ${accountId} does not exist`);
    }
    return this.runner.run(apiKeyStream(id), apiKeyDecider, command, { ...actor, accountId: accountIds[0] ?? null }, { ifMatch });
  }
}

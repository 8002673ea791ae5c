import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { accountDecider, accountStream } from '../domain/account.decider';

export class CreateAccountCommand {
  constructor(
    readonly name: string,
    readonly id: string | undefined,
    readonly actor: Actor,
  ) {}
}

@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand, { id: string; name: string }> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ name, id, actor }: CreateAccountCommand) {
    const accountId = id ?? this.ids.next();
    await this.runner.run(accountStream(accountId), accountDecider, { type: 'CreateAccount', id: accountId, name }, { ...actor, accountId });
    return { id: accountId, name };
  }
}

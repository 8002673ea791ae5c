import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { apiKeyDecider, apiKeyStream } from '../domain/api-key.decider';

export class RevokeApiKeyCommand {
  constructor(
    readonly id: string,
    readonly actor: Actor,
  ) {}
}

@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand, void> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  async execute({ id, actor }: RevokeApiKeyCommand): Promise<void> {
    await this.runner.run(apiKeyStream(id), apiKeyDecider, { type: 'RevokeApiKey', id }, actor);
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { NotFoundError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { Role } from '../../../http/src/account-context';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { apiKeyDecider, apiKeyStream } from '../domain/api-key.decider';
import { generateApiKey, hashApiKey, keyPrefix } from '../domain/api-key-secret';
import { GetAccountQuery } from '../read/get-account.query';

export class CreateApiKeyCommand {
  constructor(
    readonly accountIds: string[],
    readonly role: Role,
    readonly name: string | null,
    readonly actor: Actor,
    /** Bootstrap only: the key's value and id are given instead of generated. */
    readonly preset?: { secret: string; id: string },
  ) {}
}

export interface CreatedApiKey {
  id: string;
  apiKey: string;
  accountIds: string[];
  role: Role;
  name: string | null;
}

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand, CreatedApiKey> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly queries: QueryBus,
  ) {}

  async execute({ accountIds, role, name, actor, preset }: CreateApiKeyCommand): Promise<CreatedApiKey> {
    for (const accountId of accountIds) {
      if (!(await this.queries.execute(new GetAccountQuery(accountId)))) throw new NotFoundError(`Account ${accountId} does not exist`);
    }
    const apiKey = preset?.secret ?? generateApiKey();
    const id = preset?.id ?? this.ids.next();
    await this.runner.run(
      apiKeyStream(id),
      apiKeyDecider,
      { type: 'CreateApiKey', key: { id, accountIds, role, name, hash: hashApiKey(apiKey), prefix: keyPrefix(apiKey) } },
      { ...actor, accountId: accountIds[0] ?? null },
    );
    return { id, apiKey, accountIds, role, name };
  }
}

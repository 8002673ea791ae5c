import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { ConflictError } from '../../../core/src/errors';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { hashApiKey } from '../domain/api-key-secret';
import { ApiKeyLookup } from '../read/api-key-lookup';
import { GetAccountQuery } from '../read/get-account.query';
import { CreateAccountCommand } from './create-account.command';
import { CreateApiKeyCommand } from './create-api-key.command';

/** Fixed namespace so every instance derives the same ids from the same bootstrap key. */
const BOOTSTRAP_NAMESPACE = '5b0f2f52-7f38-4c53-9a3c-6c4f3b8f7a10';

/**
 * VIGIL_BOOTSTRAP_API_KEY: on start, if that key does not exist yet, create its account and an ADMIN
 * key with exactly that value. Ids derive from the key's hash, so instances starting together agree.
 */
@Injectable()
export class BootstrapAccount implements OnApplicationBootstrap {
  constructor(
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly keys: ApiKeyLookup,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const secret = this.config.bootstrapApiKey;
    if (!secret) return;
    const hash = hashApiKey(secret);
    if (await this.keys.byHash(hash)) return;
    const accountId = this.config.bootstrapAccountId ?? uuidv5(`account:${hash}`, BOOTSTRAP_NAMESPACE);
    const actor = { accountId, keyName: 'bootstrap' };
    try {
      if (!(await this.queries.execute(new GetAccountQuery(accountId)))) {
        await this.commands.execute(new CreateAccountCommand('Default account', accountId, actor));
      }
      await this.commands.execute(
        new CreateApiKeyCommand([accountId], 'ADMIN', 'bootstrap', actor, { secret, id: uuidv5(`key:${hash}`, BOOTSTRAP_NAMESPACE) }),
      );
      this.logger.info({ accountId }, 'bootstrap account and ADMIN API key created');
    } catch (error) {
      // Another instance bootstrapping at the same moment wins the race; that is fine.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}

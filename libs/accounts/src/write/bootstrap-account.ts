import { Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { ConflictError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { hashApiKey, newApiKey } from '../domain/api-key-secret';
import { weakBootstrapKey } from '../domain/bootstrap-key';
import { AccountsQuery } from '../read/accounts.queries';
import { ApiKeyLookup } from '../read/api-key-lookup';
import { RunAccountCommand } from './account.handler';
import { RunApiKeyCommand } from './api-key.handler';

/** Fixed namespace of the bootstrap key's id: instances starting together create one key, not two. */
const BOOTSTRAP_NAMESPACE = '5b0f2f52-7f38-4c53-9a3c-6c4f3b8f7a10';

/**
 * VIGIL_BOOTSTRAP_API_KEY: on start, if that key does not exist yet, create an account (VIGIL_BOOTSTRAP_ACCOUNT_ID,
 * or a random id) and an ADMIN key with exactly that value. A restart finds the key, and through it the account.
 * A server with no key and no account at all logs how to get in.
 */
@Injectable()
export class BootstrapAccount implements OnApplicationBootstrap {
  constructor(
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly keys: ApiKeyLookup,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const secret = this.config.bootstrapApiKey;
    if (!secret) return this.hintWhenEmpty();
    const weak = weakBootstrapKey(secret);
    if (weak) throw new Error(weak);
    const hash = hashApiKey(secret);
    if (await this.keys.byHash(hash)) return;
    const accountId = this.config.bootstrapAccountId ?? this.ids.next();
    const actor = { accountId, keyName: 'bootstrap' };
    try {
      if (!(await this.queries.execute(new AccountsQuery({ type: 'GetAccount', id: accountId })))) {
        await this.commands.execute(new RunAccountCommand({ type: 'CreateAccount', id: accountId, name: 'Default account' }, actor));
      }
      const { command } = newApiKey(uuidv5(`key:${hash}`, BOOTSTRAP_NAMESPACE), [accountId], 'ADMIN', 'bootstrap', secret);
      await this.commands.execute(new RunApiKeyCommand(command, actor));
      this.logger.info({ accountId }, 'bootstrap account and ADMIN API key created');
    } catch (error) {
      // Another instance bootstrapping at the same moment wins the race; that is fine.
      if (!(error instanceof ConflictError)) throw error;
    }
  }

  /** The server's first start only; the CLI is how one gets in, so it says nothing. */
  private async hintWhenEmpty(): Promise<void> {
    if (!this.http?.httpAdapter || (await this.queries.execute(new AccountsQuery({ type: 'ListAccounts' }))).length > 0) return;
    this.logger.warn(
      'No account exists yet. To get in, restart with VIGIL_BOOTSTRAP_API_KEY set to a long random value (for example `openssl rand -base64 32`), ' +
        'or create one with `npm run --silent cli -- accounts create --name NAME` and then `keys create --account ID --role ADMIN`',
    );
  }
}

import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { AccountsController } from './http/accounts.controller';
import { PingKeyController } from './http/ping-key.controller';
import { accountPingKeysProjection } from './read/account-ping-keys.projection';
import { PingKeys } from './read/ping-keys';
import { accountsProjection } from './read/accounts.projection';
import { ApiKeyLookup } from './read/api-key-lookup';
import { apiKeysProjection } from './read/api-keys.projection';
import { GetAccountHandler } from './read/get-account.query';
import { ListApiKeysHandler } from './read/list-api-keys.query';
import { BootstrapAccount } from './write/bootstrap-account';
import { CreateAccountHandler } from './write/create-account.command';
import { CreateApiKeyHandler } from './write/create-api-key.command';
import { RevokeApiKeyHandler } from './write/revoke-api-key.command';

@Module({
  controllers: [AccountsController, PingKeyController],
  providers: [
    CreateAccountHandler,
    CreateApiKeyHandler,
    RevokeApiKeyHandler,
    GetAccountHandler,
    ListApiKeysHandler,
    ApiKeyLookup,
    BootstrapAccount,
    PingKeys,
  ],
  exports: [ApiKeyLookup, PingKeys],
})
export class AccountsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    engine.register(accountsProjection);
    engine.register(apiKeysProjection);
    engine.register(accountPingKeysProjection);
  }
}

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
import { AccountsQueryHandler } from './read/accounts.queries';
import { AccountCommandHandler } from './write/account.handler';
import { ApiKeyCommandHandler } from './write/api-key.handler';
import { BootstrapAccount } from './write/bootstrap-account';

@Module({
  controllers: [AccountsController, PingKeyController],
  providers: [AccountCommandHandler, ApiKeyCommandHandler, AccountsQueryHandler, ApiKeyLookup, BootstrapAccount, PingKeys],
  exports: [ApiKeyLookup, PingKeys],
})
export class AccountsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    engine.register(accountsProjection);
    engine.register(apiKeysProjection);
    engine.register(accountPingKeysProjection);
  }
}

/** The accounts context as other contexts and apps may use it. */
export { AccountsModule } from './accounts.module';
export { ApiKeyGuard } from './http/api-key.guard';
export { RunAccountCommand } from './write/account.handler';
export { RunApiKeyCommand } from './write/api-key.handler';
export type { AccountCommand, AccountEvent } from './domain/account.decider';
export type { ApiKeyCommand, ApiKeyEvent } from './domain/api-key.decider';
export { hashApiKey, newApiKey } from './domain/api-key-secret';
export { AccountsQuery } from './read/accounts.queries';
export type { AccountsAnswers, AccountsQuestion, ApiKeySummary } from './read/accounts.queries';
export type { AccountDoc } from './read/accounts.projection';
/** Resolves `/ping/{pingKey}/…` to its account, for the ping routes. */
export { PingKeys } from './read/ping-keys';
export { ApiKeyLookup } from './read/api-key-lookup';

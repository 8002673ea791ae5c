import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContextQuery } from '../../../read-store/src/context-query';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { PingKeyDoc } from './account-ping-keys.projection';
import { AccountDoc, accountsProjection } from './accounts.projection';
import { ApiKeyDoc, apiKeysProjection } from './api-keys.projection';
import { PingKeys } from './ping-keys';

/** A key as lists show it: never its hash. */
export interface ApiKeySummary {
  id: string;
  accountIds: string[];
  role: ApiKeyDoc['role'];
  name: string | null;
  prefix: string;
  revoked: boolean;
  created_at: string;
  revoked_at: string | null;
}

/** Most rows a list answers (the CLI's lists). */
const LIST_MAX = 1000;

export type AccountsQuestion =
  | { type: 'GetAccount'; id: string }
  /** Every account, oldest first (the operator's CLI). */
  | { type: 'ListAccounts' }
  /** Keys granting the account, newest first. */
  | { type: 'ListApiKeys'; accountId: string }
  /** The account's ping key, or null while none was issued. */
  | { type: 'GetPingKey'; accountId: string };

export interface AccountsAnswers {
  GetAccount: AccountDoc | null;
  ListAccounts: AccountDoc[];
  ListApiKeys: ApiKeySummary[];
  GetPingKey: PingKeyDoc | null;
}

export class AccountsQuery<T extends AccountsQuestion['type']> extends ContextQuery<AccountsQuestion, AccountsAnswers, T> {}

@QueryHandler(AccountsQuery)
export class AccountsQueryHandler implements IQueryHandler<AccountsQuery<AccountsQuestion['type']>> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly pingKeys: PingKeys,
  ) {}

  async execute({ query }: AccountsQuery<AccountsQuestion['type']>): Promise<AccountsAnswers[AccountsQuestion['type']]> {
    switch (query.type) {
      case 'GetAccount':
        return (await this.store.get(this.engine.collection(accountsProjection), query.id))?.doc ?? null;
      case 'ListAccounts':
        return this.store.find(this.engine.collection(accountsProjection), { filters: [], sort: { field: 'created_at', direction: 'asc' }, limit: LIST_MAX });
      case 'ListApiKeys':
        return this.apiKeys(query.accountId);
      case 'GetPingKey':
        return this.pingKeys.current(query.accountId);
    }
  }

  private async apiKeys(accountId: string): Promise<ApiKeySummary[]> {
    const docs = await this.store.find(this.engine.collection(apiKeysProjection), {
      filters: [{ field: 'accountIds', op: 'contains', value: accountId }],
      sort: { field: 'created_at', direction: 'desc' },
      limit: LIST_MAX,
    });
    return docs.map(({ id, accountIds, role, name, prefix, revoked, created_at, revoked_at }) => ({ id, accountIds, role, name, prefix, revoked, created_at, revoked_at }));
  }
}

import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { ApiKeyDoc, apiKeysProjection } from './api-keys.projection';

/** Keys granting an account, newest first, without their hashes. */
export class ListApiKeysQuery {
  constructor(readonly accountId: string) {}
}

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

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery, ApiKeySummary[]> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async execute({ accountId }: ListApiKeysQuery): Promise<ApiKeySummary[]> {
    const docs = await this.store.find(this.engine.collection(apiKeysProjection), {
      filters: [{ field: 'accountIds', op: 'contains', value: accountId }],
      sort: { field: 'created_at', direction: 'desc' },
      limit: 1000,
    });
    return docs.map((k) => ({
      id: k.id,
      accountIds: k.accountIds,
      role: k.role,
      name: k.name,
      prefix: k.prefix,
      revoked: k.revoked,
      created_at: k.created_at,
      revoked_at: k.revoked_at,
    }));
  }
}

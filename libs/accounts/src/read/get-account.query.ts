import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { AccountDoc, accountsProjection } from './accounts.projection';

export class GetAccountQuery {
  constructor(readonly id: string) {}
}

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery, AccountDoc | null> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async execute({ id }: GetAccountQuery): Promise<AccountDoc | null> {
    const stored = await this.store.get(this.engine.collection(accountsProjection), id);
    return stored?.doc ?? null;
  }
}

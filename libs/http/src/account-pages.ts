import { Collection, ReadModelDoc } from '../../core/src/projection';
import { PageAfter, ReadStore } from '../../read-store/src/read-store.port';

/** One page of an account's documents, newest created first, one row more than `limit` (so a next page shows). */
export function newestOfAccount<Doc extends ReadModelDoc & { accountId: string }>(
  store: ReadStore,
  collection: Collection<Doc>,
  accountId: string,
  limit: number,
  after: PageAfter | undefined,
): Promise<Doc[]> {
  return store.find(collection, { filters: [{ field: 'accountId', op: 'eq', value: accountId }], sort: { field: 'created_at', direction: 'desc' }, limit: limit + 1, after });
}

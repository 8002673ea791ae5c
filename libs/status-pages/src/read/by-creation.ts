import { Collection, ReadModelDoc } from '../../../core/src/projection';
import { Filter, PageAfter, ReadStore } from '../../../read-store/src/read-store.port';

type Created = ReadModelDoc & { created_at: string };
const BATCH = 500;

/** One page of the account's documents, newest first, one more than `limit` so the caller knows whether more follow. */
export function newestOfAccount<Doc extends Created>(store: ReadStore, collection: Collection<Doc>, accountId: string, limit: number, after: PageAfter | undefined): Promise<Doc[]> {
  const filters: Filter[] = [{ field: 'accountId', op: 'eq', value: accountId }];
  return store.find(collection, { filters, sort: { field: 'created_at', direction: 'desc' }, limit: limit + 1, after });
}

/** Every document matching `filters`, oldest first, read BATCH at a time. */
export async function* oldestFirst<Doc extends Created>(store: ReadStore, collection: Collection<Doc>, filters: Filter[]): AsyncGenerator<Doc> {
  let after: PageAfter | undefined;
  for (;;) {
    const docs = await store.find(collection, { filters, sort: { field: 'created_at', direction: 'asc' }, limit: BATCH, after });
    yield* docs;
    if (docs.length < BATCH) return;
    after = { value: docs[docs.length - 1].created_at, id: docs[docs.length - 1].id };
  }
}

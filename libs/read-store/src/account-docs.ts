import { Collection, ReadModelDoc } from '../../core/src/projection';
import { ReadStore, StoredDoc } from './read-store.port';

/** The document `id` when it is `accountId`'s: another account's reads as absent (account isolation, one way). */
export async function getOwn<Doc extends ReadModelDoc & { accountId: string }>(store: ReadStore, collection: Collection<Doc>, accountId: string, id: string): Promise<StoredDoc<Doc> | null> {
  const stored = await store.get(collection, id);
  return stored && stored.doc.accountId === accountId ? stored : null;
}

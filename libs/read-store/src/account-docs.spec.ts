import { collectionOf, ReadModelDoc } from '../../core/src/projection';
import { getOwn } from './account-docs';
import { InMemoryReadStore } from './in-memory.read-store';

interface Doc extends ReadModelDoc {
  accountId: string;
  name: string;
}
const NOTES = collectionOf<Doc>('notes');

describe('getOwn', () => {
  it("gives an account its own document with its revision, and another account's or a missing one as absent", async () => {
    const store = new InMemoryReadStore();
    await store.ensureCollection({ name: NOTES, indexes: [] });
    await store.put(NOTES, { id: 'n1', accountId: 'a', name: 'mine' }, 3n);
    expect(await getOwn(store, NOTES, 'a', 'n1')).toEqual({ doc: expect.objectContaining({ id: 'n1', name: 'mine' }), revision: 3n });
    expect(await getOwn(store, NOTES, 'b', 'n1')).toBeNull();
    expect(await getOwn(store, NOTES, 'a', 'n2')).toBeNull();
  });
});

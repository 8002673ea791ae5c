import { ReadModelDoc } from '../../core/src/projection';
import { ReadStoreUsageError } from './collection-schema';
import { CollectionSpec, FindQuery, PageAfter, ReadStore } from './read-store.port';

export interface ReadStoreFixture {
  store: ReadStore;
  cleanup(): Promise<void>;
}

interface Incident extends ReadModelDoc {
  accountId?: string;
  status?: string | null;
  created_at?: string | null;
  severity?: number | null;
  public?: boolean;
  serviceIds?: string[];
  meta?: { region?: string | null };
  title?: string;
}

const INCIDENTS: CollectionSpec = {
  name: 'incidents_v1_g1',
  indexes: [
    { field: 'accountId' },
    { field: 'status' },
    { field: 'severity' },
    { field: 'public' },
    { field: 'meta.region' },
    { field: 'serviceIds', array: true },
  ],
  sortField: 'created_at',
};
const C = INCIDENTS.name;

function incident(id: string, fields: Omit<Incident, 'id'> = {}): Incident {
  return { id, accountId: 'acc-a', status: 'open', created_at: '2026-01-01T00:00:00.000Z', ...fields };
}

const ids = (docs: ReadModelDoc[]) => docs.map((doc) => doc.id);
const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`;

/** Nulls first, then the value, then the id: the order every adapter promises. */
function expectedOrder(docs: Incident[], field: 'created_at' | 'severity', direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const rank = (value: unknown) => (value === null || value === undefined ? 0 : 1);
  return [...docs]
    .sort((a, b) => {
      const x = a[field] ?? null;
      const y = b[field] ?? null;
      const byValue = rank(x) - rank(y) || (x === null || y === null ? 0 : x < y ? -1 : x > y ? 1 : 0);
      return sign * (byValue || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    })
    .map((doc) => doc.id);
}

/** Follows `after` cursors until a short page; returns ids in the order the pages gave them. */
async function walk(store: ReadStore, query: Omit<FindQuery, 'after'>): Promise<string[]> {
  const seen: string[] = [];
  let after: PageAfter | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await store.find<Incident>(C, { ...query, after });
    seen.push(...ids(page));
    if (page.length < query.limit) return seen;
    const last = page[page.length - 1];
    const field = query.sort?.field ?? 'id';
    after = { value: (last[field] as string | number | null | undefined) ?? null, id: last.id };
  }
  throw new Error('the walk did not end');
}

/**
 * The behaviour every ReadStore adapter shares. Each test gets a fresh, empty store from
 * `factory`, with the incidents collection ensured.
 */
export function readStoreContract(adapterName: string, factory: () => Promise<ReadStoreFixture>): void {
  describe(`ReadStore contract: ${adapterName}`, () => {
    let fixture: ReadStoreFixture;
    let store: ReadStore;

    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
      await store.ensureCollection(INCIDENTS);
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    const putAll = async (docs: Incident[], revision = 0n) => {
      for (const doc of docs) expect(await store.put(C, doc, revision)).toBe(true);
    };

    describe('put and get', () => {
      it('round-trips nested objects, arrays, unicode and nulls with the revision', async () => {
        const doc = {
          id: 'inc-1',
          accountId: 'acc-a',
          title: 'Ünïcødé — 障害 🚨 "quoted" \\ back\nslash',
          status: null,
          created_at: '2026-01-01T00:00:00.000Z',
          severity: 2.5,
          public: false,
          serviceIds: ['s1', 's2'],
          meta: { region: 'eu', nested: { deeper: [1, { two: 2 }, null], empty: {} }, none: null },
          updates: [],
        };
        expect(await store.put(C, doc, 7n)).toBe(true);
        expect(await store.get(C, 'inc-1')).toEqual({ doc, revision: 7n });
      });

      it('stores documents as JSON: undefined fields vanish and dates become ISO strings', async () => {
        const doc = { id: 'inc-1', gone: undefined, at: new Date('2026-03-01T10:00:00.000Z'), list: [1, undefined] };
        await store.put(C, doc, 0n);
        expect((await store.get(C, 'inc-1'))?.doc).toStrictEqual({
          id: 'inc-1',
          at: '2026-03-01T10:00:00.000Z',
          list: [1, null],
        });
      });

      it('keeps revisions beyond 2^53 exact', async () => {
        await store.put(C, incident('inc-1'), 9007199254740993n);
        expect((await store.get(C, 'inc-1'))?.revision).toBe(9007199254740993n);
        expect(await store.put(C, incident('inc-1'), 9007199254740992n)).toBe(false);
      });

      it('answers null for an unknown id', async () => {
        expect(await store.get(C, 'missing')).toBeNull();
      });

      it('hands out copies that do not write through to the store', async () => {
        await store.put(C, incident('inc-1', { serviceIds: ['s1'] }), 0n);
        const first = await store.get<Incident>(C, 'inc-1');
        first!.doc.serviceIds!.push('mutated');
        first!.doc.status = 'mutated';
        expect((await store.get<Incident>(C, 'inc-1'))?.doc).toEqual(incident('inc-1', { serviceIds: ['s1'] }));
      });

      it('refuses a document without a string id or with a negative revision', async () => {
        await expect(store.put(C, { id: '' }, 0n)).rejects.toThrow(ReadStoreUsageError);
        await expect(store.put(C, { id: 42 } as unknown as ReadModelDoc, 0n)).rejects.toThrow(ReadStoreUsageError);
        await expect(store.put(C, incident('inc-1'), -1n)).rejects.toThrow(ReadStoreUsageError);
      });
    });

    describe('revision guard', () => {
      it('applies the first write and every newer one, replacing the whole document', async () => {
        expect(await store.put(C, incident('inc-1', { title: 'first', severity: 1 }), 0n)).toBe(true);
        expect(await store.put(C, incident('inc-1', { title: 'second' }), 3n)).toBe(true);
        expect(await store.get(C, 'inc-1')).toEqual({ doc: incident('inc-1', { title: 'second' }), revision: 3n });
      });

      it('treats an older or equal revision as a no-op returning false', async () => {
        await store.put(C, incident('inc-1', { title: 'current' }), 5n);
        expect(await store.put(C, incident('inc-1', { title: 'older' }), 4n)).toBe(false);
        expect(await store.put(C, incident('inc-1', { title: 'equal' }), 5n)).toBe(false);
        expect(await store.get(C, 'inc-1')).toEqual({ doc: incident('inc-1', { title: 'current' }), revision: 5n });
      });

      it('keeps the newest of concurrent writes to a new document', async () => {
        const results = await Promise.all(
          [3n, 1n, 4n, 2n, 0n].map((revision) => store.put(C, incident('inc-1', { title: `r${revision}` }), revision)),
        );
        expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
        expect(await store.get(C, 'inc-1')).toEqual({ doc: incident('inc-1', { title: 'r4' }), revision: 4n });
      });
    });

    describe('writeMany', () => {
      it('applies puts and deletes in order, each guarded by revision', async () => {
        await store.put(C, incident('inc-1', { title: 'newer' }), 9n);
        await store.writeMany(C, [
          { id: 'inc-1', doc: incident('inc-1', { title: 'stale' }), revision: 3n },
          { id: 'inc-2', doc: incident('inc-2', { title: 'two' }), revision: 1n },
          { id: 'inc-3', doc: incident('inc-3'), revision: 1n },
          { id: 'inc-3', doc: null, revision: 2n },
        ]);
        expect(await store.get(C, 'inc-1')).toEqual({ doc: incident('inc-1', { title: 'newer' }), revision: 9n });
        expect(await store.get(C, 'inc-2')).toEqual({ doc: incident('inc-2', { title: 'two' }), revision: 1n });
        expect(await store.get(C, 'inc-3')).toBeNull();
        await store.writeMany(C, []);
      });
    });

    describe('several collections in one call (getManyOf, writeAll)', () => {
      const OTHER: CollectionSpec = { name: 'incidents_v2_g2', indexes: [] };

      it('writes each collection\'s documents guarded by revision, and reads them back per collection in the order asked', async () => {
        await store.ensureCollection(OTHER);
        await store.put(C, incident('inc-1', { title: 'newer' }), 9n);
        await store.put(OTHER.name, incident('inc-9', { title: 'gone soon' }), 1n);
        await store.writeAll([
          { collection: C, writes: [{ id: 'inc-1', doc: incident('inc-1', { title: 'stale' }), revision: 3n }, { id: 'inc-2', doc: incident('inc-2'), revision: 1n }] },
          { collection: OTHER.name, writes: [{ id: 'inc-1', doc: incident('inc-1', { title: 'other' }), revision: 1n }, { id: 'inc-9', doc: null, revision: 2n }] },
        ]);
        await store.writeAll([]);
        const [mine, other, none] = await store.getManyOf([
          { collection: C, ids: ['inc-2', 'missing', 'inc-1', 'inc-2'] },
          { collection: OTHER.name, ids: ['inc-9', 'inc-1'] },
          { collection: C, ids: [] },
        ]);
        expect(mine).toEqual([{ doc: incident('inc-2'), revision: 1n }, { doc: incident('inc-1', { title: 'newer' }), revision: 9n }]);
        expect(other).toEqual([{ doc: incident('inc-1', { title: 'other' }), revision: 1n }]);
        expect(none).toEqual([]);
        expect(await store.getManyOf([])).toEqual([]);
      });

      it('refuses a collection that was never ensured', async () => {
        await expect(store.getManyOf([{ collection: 'never_ensured', ids: ['x'] }])).rejects.toThrow(ReadStoreUsageError);
        await expect(store.writeAll([{ collection: 'never_ensured', writes: [{ id: 'x', doc: incident('x'), revision: 1n }] }])).rejects.toThrow(ReadStoreUsageError);
      });
    });

    describe('tombstones', () => {
      it('hides a deleted document', async () => {
        await store.put(C, incident('inc-1'), 1n);
        expect(await store.delete(C, 'inc-1', 2n)).toBe(true);
        expect(await store.get(C, 'inc-1')).toBeNull();
      });

      it('ignores a delete that is not newer', async () => {
        await store.put(C, incident('inc-1'), 2n);
        expect(await store.delete(C, 'inc-1', 2n)).toBe(false);
        expect(await store.delete(C, 'inc-1', 1n)).toBe(false);
        expect((await store.get(C, 'inc-1'))?.revision).toBe(2n);
      });

      it('does not let a stale put bring a deleted document back', async () => {
        await store.put(C, incident('inc-1'), 1n);
        await store.delete(C, 'inc-1', 3n);
        expect(await store.put(C, incident('inc-1'), 2n)).toBe(false);
        expect(await store.put(C, incident('inc-1'), 3n)).toBe(false);
        expect(await store.get(C, 'inc-1')).toBeNull();
      });

      it('lets a newer put recreate a deleted document', async () => {
        await store.put(C, incident('inc-1', { title: 'old' }), 1n);
        await store.delete(C, 'inc-1', 2n);
        expect(await store.put(C, incident('inc-1', { title: 'new' }), 3n)).toBe(true);
        expect(await store.get(C, 'inc-1')).toEqual({ doc: incident('inc-1', { title: 'new' }), revision: 3n });
      });

      it('records a tombstone for an id it never saw, so an older put cannot create it later', async () => {
        expect(await store.delete(C, 'inc-1', 4n)).toBe(true);
        expect(await store.put(C, incident('inc-1'), 3n)).toBe(false);
        expect(await store.get(C, 'inc-1')).toBeNull();
      });

      it('leaves tombstones out of getMany, find and count', async () => {
        await putAll([incident('inc-1'), incident('inc-2'), incident('inc-3', { created_at: null })]);
        await store.delete(C, 'inc-2', 1n);
        await store.delete(C, 'inc-3', 1n);
        expect(ids((await store.getMany(C, ['inc-1', 'inc-2', 'inc-3'])).map((stored) => stored.doc))).toEqual([
          'inc-1',
        ]);
        expect(ids(await store.find(C, { limit: 10 }))).toEqual(['inc-1']);
        expect(
          ids(await store.find(C, { filters: [{ field: 'accountId', op: 'eq', value: 'acc-a' }], limit: 10 })),
        ).toEqual(['inc-1']);
        expect(ids(await store.find(C, { filters: [{ field: 'status', op: 'eq', value: null }], limit: 10 }))).toEqual(
          [],
        );
        expect(
          await store.find(C, {
            sort: { field: 'created_at', direction: 'desc' },
            limit: 10,
            after: { value: day(9), id: 'z' },
          }),
        ).toHaveLength(1);
        expect(await store.count(C)).toBe(1);
      });
    });

    describe('getMany', () => {
      it('returns documents in the order of the requested ids, skipping missing ones and repeats', async () => {
        await store.put(C, incident('inc-1'), 1n);
        await store.put(C, incident('inc-2'), 2n);
        await store.put(C, incident('inc-3'), 3n);
        const found = await store.getMany(C, ['inc-3', 'missing', 'inc-1', 'inc-3', 'inc-2']);
        expect(found).toEqual([
          { doc: incident('inc-3'), revision: 3n },
          { doc: incident('inc-1'), revision: 1n },
          { doc: incident('inc-2'), revision: 2n },
        ]);
      });

      it('answers an empty list for no ids', async () => {
        expect(await store.getMany(C, [])).toEqual([]);
      });
    });

    describe('find filters', () => {
      const docs: Incident[] = [
        incident('inc-1', {
          status: 'open',
          severity: 1,
          public: true,
          serviceIds: ['s1', 's2'],
          meta: { region: 'eu' },
          created_at: day(1),
        }),
        incident('inc-2', {
          status: 'resolved',
          severity: 3,
          public: false,
          serviceIds: ['s2'],
          meta: { region: 'us' },
          created_at: day(2),
        }),
        incident('inc-3', {
          accountId: 'acc-b',
          status: 'open',
          severity: 2,
          public: true,
          serviceIds: [],
          meta: { region: 'eu' },
          created_at: day(3),
        }),
        incident('inc-4', {
          status: null,
          severity: null,
          public: false,
          serviceIds: ['s3'],
          meta: { region: null },
          created_at: day(4),
        }),
        { id: 'inc-5', accountId: 'acc-b', severity: 10, public: true, serviceIds: ['s1'], created_at: day(5) },
        incident('inc-6', {
          status: "open'; DROP TABLE x; --",
          severity: 2.5,
          public: false,
          serviceIds: ['$gt'],
          meta: { region: '$ne' },
          created_at: day(6),
        }),
      ];
      const find = async (filters: FindQuery['filters']) => ids(await store.find(C, { filters, limit: 50 }));

      beforeEach(async () => {
        await putAll(docs);
      });

      it('matches eq on strings, numbers, booleans and nested fields', async () => {
        expect(await find([{ field: 'status', op: 'eq', value: 'open' }])).toEqual(['inc-1', 'inc-3']);
        expect(await find([{ field: 'severity', op: 'eq', value: 3 }])).toEqual(['inc-2']);
        expect(await find([{ field: 'severity', op: 'eq', value: 2.5 }])).toEqual(['inc-6']);
        expect(await find([{ field: 'public', op: 'eq', value: true }])).toEqual(['inc-1', 'inc-3', 'inc-5']);
        expect(await find([{ field: 'public', op: 'eq', value: false }])).toEqual(['inc-2', 'inc-4', 'inc-6']);
        expect(await find([{ field: 'meta.region', op: 'eq', value: 'eu' }])).toEqual(['inc-1', 'inc-3']);
      });

      it('matches eq null on null and on missing fields', async () => {
        expect(await find([{ field: 'status', op: 'eq', value: null }])).toEqual(['inc-4', 'inc-5']);
        expect(await find([{ field: 'meta.region', op: 'eq', value: null }])).toEqual(['inc-4', 'inc-5']);
      });

      it('compares values literally, whatever they look like', async () => {
        expect(await find([{ field: 'status', op: 'eq', value: "open'; DROP TABLE x; --" }])).toEqual(['inc-6']);
        expect(await find([{ field: 'meta.region', op: 'eq', value: '$ne' }])).toEqual(['inc-6']);
        expect(await find([{ field: 'serviceIds', op: 'contains', value: '$gt' }])).toEqual(['inc-6']);
        expect(await find([{ field: 'severity', op: 'eq', value: '3' }])).toEqual([]);
        expect(await store.count(C)).toBe(docs.length);
      });

      it('matches in, null included, and nothing for an empty list', async () => {
        expect(await find([{ field: 'status', op: 'in', value: ['resolved', 'open'] }])).toEqual([
          'inc-1',
          'inc-2',
          'inc-3',
        ]);
        expect(await find([{ field: 'status', op: 'in', value: ['resolved', null] }])).toEqual([
          'inc-2',
          'inc-4',
          'inc-5',
        ]);
        expect(await find([{ field: 'severity', op: 'in', value: [1, 10, 99] }])).toEqual(['inc-1', 'inc-5']);
        expect(await find([{ field: 'status', op: 'in', value: [] }])).toEqual([]);
      });

      it('matches contains on array fields', async () => {
        expect(await find([{ field: 'serviceIds', op: 'contains', value: 's2' }])).toEqual(['inc-1', 'inc-2']);
        expect(await find([{ field: 'serviceIds', op: 'contains', value: 's1' }])).toEqual(['inc-1', 'inc-5']);
        expect(await find([{ field: 'serviceIds', op: 'contains', value: 'nope' }])).toEqual([]);
      });

      it('matches ranges on numbers and on ISO strings, never on nulls', async () => {
        expect(await find([{ field: 'severity', op: 'gt', value: 2 }])).toEqual(['inc-2', 'inc-5', 'inc-6']);
        expect(await find([{ field: 'severity', op: 'gte', value: 2 }])).toEqual(['inc-2', 'inc-3', 'inc-5', 'inc-6']);
        expect(await find([{ field: 'severity', op: 'lt', value: 2 }])).toEqual(['inc-1']);
        expect(await find([{ field: 'severity', op: 'lte', value: 2 }])).toEqual(['inc-1', 'inc-3']);
        expect(
          await find([
            { field: 'created_at', op: 'gte', value: day(2) },
            { field: 'created_at', op: 'lt', value: day(5) },
          ]),
        ).toEqual(['inc-2', 'inc-3', 'inc-4']);
      });

      it('combines filters with AND, including filters on id', async () => {
        expect(
          await find([
            { field: 'accountId', op: 'eq', value: 'acc-a' },
            { field: 'public', op: 'eq', value: false },
            { field: 'severity', op: 'gte', value: 2.5 },
          ]),
        ).toEqual(['inc-2', 'inc-6']);
        expect(await find([{ field: 'id', op: 'eq', value: 'inc-3' }])).toEqual(['inc-3']);
        expect(await find([{ field: 'id', op: 'in', value: ['inc-5', 'inc-2', 'nope'] }])).toEqual(['inc-2', 'inc-5']);
        expect(
          await find([
            { field: 'id', op: 'gt', value: 'inc-4' },
            { field: 'accountId', op: 'eq', value: 'acc-b' },
          ]),
        ).toEqual(['inc-5']);
      });

      it('counts with the same filters', async () => {
        expect(await store.count(C)).toBe(6);
        expect(await store.count(C, [])).toBe(6);
        expect(await store.count(C, [{ field: 'accountId', op: 'eq', value: 'acc-b' }])).toBe(2);
        expect(
          await store.count(C, [
            { field: 'serviceIds', op: 'contains', value: 's2' },
            { field: 'public', op: 'eq', value: true },
          ]),
        ).toBe(1);
      });

      it('refuses filters on undeclared fields and operators that do not fit the field', async () => {
        const refused: FindQuery['filters'][] = [
          [{ field: 'title', op: 'eq', value: 'x' }],
          [{ field: "accountId') OR 1=1 --", op: 'eq', value: 'x' }],
          [{ field: 'meta', op: 'eq', value: null }],
          [{ field: 'status', op: 'contains', value: 'open' }],
          [{ field: 'serviceIds', op: 'eq', value: 's1' }],
          [{ field: 'severity', op: 'gt', value: null }],
          [{ field: 'status', op: 'in', value: 'open' }],
          [{ field: 'status', op: 'eq', value: { $ne: null } }],
          [{ field: 'status', op: 'regex' as 'eq', value: '.*' }],
        ];
        for (const filters of refused) {
          await expect(store.find(C, { filters, limit: 10 })).rejects.toThrow(ReadStoreUsageError);
          await expect(store.count(C, filters)).rejects.toThrow(ReadStoreUsageError);
        }
      });

      it('refuses sorts on undeclared or array fields, and bad limits', async () => {
        await expect(store.find(C, { sort: { field: 'title', direction: 'asc' }, limit: 5 })).rejects.toThrow(
          ReadStoreUsageError,
        );
        await expect(store.find(C, { sort: { field: 'serviceIds', direction: 'asc' }, limit: 5 })).rejects.toThrow(
          ReadStoreUsageError,
        );
        await expect(
          store.find(C, { sort: { field: 'severity', direction: 'up' as 'asc' }, limit: 5 }),
        ).rejects.toThrow(ReadStoreUsageError);
        for (const limit of [0, -1, 1.5, Number.NaN]) {
          await expect(store.find(C, { limit })).rejects.toThrow(ReadStoreUsageError);
        }
      });
    });

    describe('sort and pagination', () => {
      // Three accounts, repeated creation times (ties), nulls and missing values in both sort fields.
      const docs: Incident[] = Array.from({ length: 23 }, (_, i) =>
        incident(`inc-${String((i * 7) % 23).padStart(2, '0')}`, {
          accountId: `acc-${i % 3}`,
          created_at: i % 5 === 4 ? null : day(1 + (i % 4)),
          severity: i % 6 === 0 ? null : i % 4,
        }),
      );
      docs.push({ id: 'inc-missing', accountId: 'acc-0' });

      beforeEach(async () => {
        await putAll(docs);
      });

      it('sorts by id ascending by default and honours limit', async () => {
        const all = ids(await store.find(C, { limit: 100 }));
        expect(all).toEqual(ids(docs).sort());
        expect(ids(await store.find(C, { limit: 3 }))).toEqual(all.slice(0, 3));
      });

      it.each(['asc', 'desc'] as const)(
        'sorts %s by a field, nulls lowest and ties broken by id',
        async (direction) => {
          for (const field of ['created_at', 'severity'] as const) {
            expect(ids(await store.find(C, { sort: { field, direction }, limit: 100 }))).toEqual(
              expectedOrder(docs, field, direction),
            );
          }
        },
      );

      it.each(['asc', 'desc'] as const)('sorts by id %s', async (direction) => {
        const expected = ids(docs).sort();
        if (direction === 'desc') expected.reverse();
        expect(ids(await store.find(C, { sort: { field: 'id', direction }, limit: 100 }))).toEqual(expected);
        expect(await walk(store, { sort: { field: 'id', direction }, limit: 4 })).toEqual(expected);
      });

      it.each([1, 2, 3, 5, 24, 100])(
        'walks every document exactly once in pages of %i, across ties and nulls',
        async (limit) => {
          for (const direction of ['asc', 'desc'] as const) {
            for (const field of ['created_at', 'severity'] as const) {
              expect(await walk(store, { sort: { field, direction }, limit })).toEqual(
                expectedOrder(docs, field, direction),
              );
            }
          }
        },
      );

      it('walks a filtered list', async () => {
        const mine = docs.filter((doc) => doc.accountId === 'acc-1');
        const query = {
          filters: [{ field: 'accountId', op: 'eq' as const, value: 'acc-1' }],
          sort: { field: 'created_at', direction: 'desc' as const },
          limit: 2,
        };
        expect(await walk(store, query)).toEqual(expectedOrder(mine, 'created_at', 'desc'));
      });

      it('answers several reads sent together (readBatch) exactly as getMany and find answer them one by one', async () => {
        const other: CollectionSpec = { name: 'services_v1_g1', indexes: [{ field: 'accountId' }] };
        await store.ensureCollection(other);
        await store.put(other.name, incident('svc-2'), 1n);
        await store.put(other.name, incident('svc-1', { accountId: 'acc-b' }), 1n);
        const wanted = ['inc-03', 'missing', 'inc-01', 'inc-03'];
        const queries: FindQuery[] = [
          { sort: { field: 'created_at', direction: 'desc' }, limit: 7 },
          { filters: [{ field: 'accountId', op: 'eq', value: 'acc-1' }], sort: { field: 'severity', direction: 'asc' }, limit: 100 },
          { limit: 5 },
          { sort: { field: 'created_at', direction: 'asc' }, limit: 4, after: { value: null, id: 'inc-05' } },
        ];
        const answers = await store.readBatch([
          { collection: C, ids: wanted },
          ...queries.map((query) => ({ collection: C, query })),
          { collection: other.name, ids: ['svc-1', 'svc-2'] },
          { collection: other.name, query: { filters: [{ field: 'accountId', op: 'eq', value: 'acc-a' }], limit: 5 } },
          { collection: C, ids: [] },
        ]);
        expect(answers).toEqual([
          await store.getMany(C, wanted),
          ...(await Promise.all(queries.map((query) => store.find(C, query)))),
          await store.getMany(other.name, ['svc-1', 'svc-2']),
          [incident('svc-2')],
          [],
        ]);
        expect(answers[1].length).toBe(7);
        expect(await store.readBatch([])).toEqual([]);
      });

      it('refuses a batch naming a collection never ensured, or a query find refuses', async () => {
        await expect(store.readBatch([{ collection: C, ids: ['inc-01'] }, { collection: 'never_ensured', ids: ['x'] }])).rejects.toThrow(ReadStoreUsageError);
        await expect(store.readBatch([{ collection: C, query: { sort: { field: 'title', direction: 'asc' }, limit: 5 } }])).rejects.toThrow(ReadStoreUsageError);
      });

      it('starts after a cursor whose document is gone', async () => {
        const order = expectedOrder(docs, 'created_at', 'desc');
        const removed = docs.find((doc) => doc.id === order[4])!;
        await store.delete(C, removed.id, 1n);
        const page = await store.find(C, {
          sort: { field: 'created_at', direction: 'desc' },
          limit: 3,
          after: { value: removed.created_at ?? null, id: removed.id },
        });
        expect(ids(page)).toEqual(order.slice(5, 8));
      });

      it('orders strings by code point, as their UTF-8 bytes do', async () => {
        await store.ensureCollection({ name: 'unicode', indexes: [{ field: 'label' }] });
        const labels = ['\u{1F6A8}', 'b', '\uFFFD', 'é', 'Z', 'a\u{1F6A8}', 'a\uFFFD'];
        for (const label of labels) await store.put('unicode', { id: label, label }, 0n);
        const expected = ['Z', 'a\uFFFD', 'a\u{1F6A8}', 'b', 'é', '\uFFFD', '\u{1F6A8}'];
        expect(ids(await store.find('unicode', { limit: 10 }))).toEqual(expected);
        expect(ids(await store.find('unicode', { sort: { field: 'label', direction: 'desc' }, limit: 10 }))).toEqual(
          [...expected].reverse(),
        );
        expect(
          ids(await store.find('unicode', { filters: [{ field: 'label', op: 'gt', value: '\uFFFD' }], limit: 10 })),
        ).toEqual(['\u{1F6A8}']);
      });

      it('refuses a malformed cursor', async () => {
        const sort = { field: 'created_at', direction: 'asc' } as const;
        await expect(
          store.find(C, { sort, limit: 2, after: { value: { $gt: '' } as unknown as string, id: 'x' } }),
        ).rejects.toThrow(ReadStoreUsageError);
        await expect(
          store.find(C, { sort, limit: 2, after: { value: 'x', id: 7 as unknown as string } }),
        ).rejects.toThrow(ReadStoreUsageError);
      });
    });

    describe('pagination under concurrent inserts', () => {
      it('returns every document that existed when the walk began exactly once, newest first', async () => {
        const original = Array.from({ length: 30 }, (_, i) =>
          incident(`old-${String(i).padStart(2, '0')}`, {
            created_at: `2026-01-01T00:00:${String(i % 10).padStart(2, '0')}.000Z`,
          }),
        );
        await putAll(original);
        let inserted = 0;
        const insertNewer = async () => {
          const batch = Array.from({ length: 3 }, () => {
            inserted += 1;
            return incident(`new-${String(inserted).padStart(3, '0')}`, {
              created_at: `2026-02-01T00:00:${String(inserted % 60).padStart(2, '0')}.000Z`,
            });
          });
          // Written while the next page is being read.
          await Promise.all(batch.map((doc) => store.put(C, doc, 0n)));
        };
        const query = {
          filters: [{ field: 'accountId', op: 'eq' as const, value: 'acc-a' }],
          sort: { field: 'created_at', direction: 'desc' as const },
          limit: 4,
        };
        const seen: string[] = [];
        let after: PageAfter | undefined;
        for (;;) {
          const [page] = await Promise.all([store.find<Incident>(C, { ...query, after }), insertNewer()]);
          seen.push(...ids(page));
          if (page.length < query.limit) break;
          const last = page[page.length - 1];
          after = { value: last.created_at ?? null, id: last.id };
        }
        expect(seen.filter((id) => id.startsWith('old-'))).toEqual(expectedOrder(original, 'created_at', 'desc'));
        expect(new Set(seen).size).toBe(seen.length);
        expect(inserted).toBeGreaterThan(20);
      });
    });

    describe('checkpoints', () => {
      it('answers null until set, then the last position set', async () => {
        expect(await store.getCheckpoint('incidents_v1_g1')).toBeNull();
        await store.setCheckpoint('incidents_v1_g1', 41n);
        await store.setCheckpoint('incidents_v1_g1', 42n);
        await store.setCheckpoint('other', 2n ** 60n + 1n);
        expect(await store.getCheckpoint('incidents_v1_g1')).toBe(42n);
        expect(await store.getCheckpoint('other')).toBe(2n ** 60n + 1n);
      });

      it('moves a checkpoint forward only: an older or equal position changes nothing', async () => {
        await store.setCheckpoint('cp', 10n);
        await store.setCheckpoint('cp', 3n);
        await store.setCheckpoint('cp', 0n);
        await store.setCheckpoint('cp', 10n);
        expect(await store.getCheckpoint('cp')).toBe(10n);
        await store.setCheckpoint('cp', 11n);
        expect(await store.getCheckpoint('cp')).toBe(11n);
      });

      it('keeps racing writers\' newest position, whatever order they land in', async () => {
        await Promise.all([5n, 9n, 2n, 7n].map((position) => store.setCheckpoint('raced', position)));
        expect(await store.getCheckpoint('raced')).toBe(9n);
      });

      it('moves several checkpoints forward in one call, each only forward', async () => {
        await store.setCheckpoint('ahead', 50n);
        await store.setCheckpoints(['ahead', 'behind', 'new'], 20n);
        await store.setCheckpoints([], 99n);
        expect([await store.getCheckpoint('ahead'), await store.getCheckpoint('behind'), await store.getCheckpoint('new')]).toEqual([50n, 20n, 20n]);
      });

      it('forgets a reset checkpoint (a replay starts from the log\'s start)', async () => {
        await store.setCheckpoint('cp', 10n);
        await store.resetCheckpoint('cp');
        expect(await store.getCheckpoint('cp')).toBeNull();
        await store.setCheckpoint('cp', 1n);
        expect(await store.getCheckpoint('cp')).toBe(1n);
        await store.resetCheckpoint('never-set');
        expect(await store.getCheckpoint('never-set')).toBeNull();
      });
    });

    describe('meta', () => {
      it('stores JSON values by key', async () => {
        expect(await store.getMeta('projection:incidents')).toBeNull();
        const value = {
          active: { version: 2, generation: 3 },
          building: null,
          retired: [{ version: 1, generation: 1 }],
          note: 'é🚨',
        };
        await store.setMeta('projection:incidents', value);
        expect(await store.getMeta('projection:incidents')).toEqual(value);
        await store.setMeta('projection:incidents', { replaced: true });
        expect(await store.getMeta('projection:incidents')).toEqual({ replaced: true });
        await store.setMeta('list', [1, 'two', null]);
        expect(await store.getMeta('list')).toEqual([1, 'two', null]);
      });

      it('refuses undefined', async () => {
        await expect(store.setMeta('k', undefined)).rejects.toThrow(ReadStoreUsageError);
      });
    });

    describe('change tokens', () => {
      const OTHER: CollectionSpec = { name: 'services_v1_g1', indexes: [] };

      it('either never answers (null) or changes with every write to the named collections, and only then', async () => {
        await store.ensureCollection(OTHER);
        const first = store.changeToken([C]);
        if (first === null) {
          await store.put(C, incident('inc-1'), 1n);
          expect(store.changeToken([C])).toBeNull();
          return;
        }
        expect(store.changeToken([C])).toBe(first);
        await store.put(OTHER.name, incident('svc-1'), 1n);
        expect(store.changeToken([C])).toBe(first);
        const bothBefore = store.changeToken([C, OTHER.name]);

        await store.put(C, incident('inc-1'), 1n);
        const afterPut = store.changeToken([C]);
        expect(afterPut).not.toBe(first);
        expect(store.changeToken([C, OTHER.name])).not.toBe(bothBefore);

        // A write the revision guard refuses may still have raced with a cached read: it changes the token too.
        await store.put(C, incident('inc-1'), 0n);
        const afterStale = store.changeToken([C]);
        await store.delete(C, 'inc-1', 2n);
        const afterDelete = store.changeToken([C]);
        expect(new Set([first, afterPut, afterStale, afterDelete]).size).toBeGreaterThanOrEqual(3);
        expect(afterDelete).not.toBe(afterPut);
      });

      it('changes every token when collections or generations change', async () => {
        const before = store.changeToken([C]);
        if (before === null) return;
        await store.setMeta('projection:incidents', { active: 2 });
        const afterMeta = store.changeToken([C]);
        expect(afterMeta).not.toBe(before);
        await store.ensureCollection(OTHER);
        expect(store.changeToken([C])).not.toBe(afterMeta);
      });
    });

    describe('collections', () => {
      const OTHER: CollectionSpec = { name: 'incidents_v2_g2', indexes: [{ field: 'accountId' }] };

      it('ensures idempotently, keeping the documents', async () => {
        await store.put(C, incident('inc-1'), 1n);
        await store.ensureCollection(INCIDENTS);
        await store.ensureCollection({ ...INCIDENTS });
        expect((await store.get(C, 'inc-1'))?.revision).toBe(1n);
        expect(await store.count(C, [{ field: 'accountId', op: 'eq', value: 'acc-a' }])).toBe(1);
      });

      it('keeps collections apart', async () => {
        await store.ensureCollection(OTHER);
        await store.put(C, incident('inc-1', { title: 'v1' }), 5n);
        expect(await store.put(OTHER.name, incident('inc-1', { title: 'v2' }), 1n)).toBe(true);
        expect((await store.get<Incident>(C, 'inc-1'))?.doc.title).toBe('v1');
        expect((await store.get<Incident>(OTHER.name, 'inc-1'))?.doc.title).toBe('v2');
        await store.delete(OTHER.name, 'inc-1', 2n);
        expect(await store.get(C, 'inc-1')).not.toBeNull();
        expect(await store.count(OTHER.name)).toBe(0);
        // Each collection has its own declared indexes.
        await expect(
          store.find(OTHER.name, { filters: [{ field: 'status', op: 'eq', value: 'open' }], limit: 1 }),
        ).rejects.toThrow(ReadStoreUsageError);
      });

      it('keeps names apart that differ only in punctuation', async () => {
        for (const name of ['a-b', 'a_b', 'a.b']) await store.ensureCollection({ name, indexes: [] });
        await store.put('a-b', incident('x', { title: 'dash' }), 0n);
        await store.put('a_b', incident('x', { title: 'underscore' }), 0n);
        expect((await store.get<Incident>('a-b', 'x'))?.doc.title).toBe('dash');
        expect((await store.get<Incident>('a_b', 'x'))?.doc.title).toBe('underscore');
        expect(await store.get('a.b', 'x')).toBeNull();
      });

      it('drops a collection with its documents', async () => {
        await store.ensureCollection(OTHER);
        await store.put(OTHER.name, incident('inc-1'), 1n);
        await store.put(C, incident('inc-1'), 1n);
        await store.dropCollection(OTHER.name);
        await expect(store.get(OTHER.name, 'inc-1')).rejects.toThrow(ReadStoreUsageError);
        await store.ensureCollection(OTHER);
        expect(await store.get(OTHER.name, 'inc-1')).toBeNull();
        expect(await store.put(OTHER.name, incident('inc-1'), 0n)).toBe(true);
        expect((await store.get(C, 'inc-1'))?.revision).toBe(1n);
        await store.dropCollection('never_created');
      });

      it('refuses collections that were never ensured', async () => {
        await expect(store.get('nope', 'x')).rejects.toThrow(ReadStoreUsageError);
        await expect(store.put('nope', incident('x'), 0n)).rejects.toThrow(ReadStoreUsageError);
        await expect(store.find('nope', { limit: 1 })).rejects.toThrow(ReadStoreUsageError);
      });

      it('refuses unsafe or reserved collection names and index declarations', async () => {
        for (const name of [
          '',
          'has space',
          'quote"d',
          'semi;colon',
          'meta',
          'Checkpoints',
          'collections',
          'x'.repeat(101),
        ]) {
          await expect(store.ensureCollection({ name, indexes: [] })).rejects.toThrow(ReadStoreUsageError);
        }
        for (const field of ["a'b", 'a b', '1a', 'a..b', '$where', 'id', '']) {
          await expect(store.ensureCollection({ name: 'bad_index', indexes: [{ field }] })).rejects.toThrow(
            ReadStoreUsageError,
          );
        }
        await expect(
          store.ensureCollection({ name: 'dup', indexes: [{ field: 'a' }, { field: 'a', array: true }] }),
        ).rejects.toThrow(ReadStoreUsageError);
        await expect(
          store.ensureCollection({ name: 'arr_sort', indexes: [{ field: 'a', array: true }], sortField: 'a' }),
        ).rejects.toThrow(ReadStoreUsageError);
      });

      it('makes the sort field queryable even when it is not among the indexes', async () => {
        await store.ensureCollection({ name: 'sorted_only', indexes: [], sortField: 'created_at' });
        await store.put('sorted_only', incident('b', { created_at: day(1) }), 0n);
        await store.put('sorted_only', incident('a', { created_at: day(2) }), 0n);
        const page = await store.find('sorted_only', {
          sort: { field: 'created_at', direction: 'asc' },
          filters: [{ field: 'created_at', op: 'lt', value: day(3) }],
          limit: 5,
        });
        expect(ids(page)).toEqual(['b', 'a']);
      });
    });
  });
}

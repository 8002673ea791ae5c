import { StoreUnavailableError } from '../../core/src/errors';
import { StoreProbe } from '../../testing/src/store-probe';
import { BatchingReadStore } from './batched-reads';
import { ReadStoreUsageError } from './collection-schema';
import { InMemoryReadStore } from './in-memory.read-store';

const PAGES = 'pages_v1_g1';
const SERVICES = 'services_v1_g1';

describe('BatchingReadStore', () => {
  let probe: StoreProbe;
  let inner: InMemoryReadStore;
  let store: BatchingReadStore;

  beforeEach(async () => {
    probe = new StoreProbe();
    inner = new InMemoryReadStore();
    store = new BatchingReadStore(probe.wrapReadStore(inner));
    await inner.ensureCollection({ name: PAGES, indexes: [{ field: 'accountId' }] });
    await inner.ensureCollection({ name: SERVICES, indexes: [{ field: 'accountId' }] });
    await inner.put(PAGES, { id: 'p-1', accountId: 'a' }, 1n);
    await inner.put(SERVICES, { id: 's-1', accountId: 'a', name: 'API' }, 2n);
    await inner.put(SERVICES, { id: 's-2', accountId: 'b', name: 'Web' }, 1n);
  });

  const readsTogether = () =>
    Promise.all([
      store.get(PAGES, 'p-1'),
      store.get(PAGES, 'missing'),
      store.getMany(SERVICES, ['s-2', 's-1']),
      store.find(SERVICES, { filters: [{ field: 'accountId', op: 'eq', value: 'a' }], limit: 10 }),
      // Reached through a few awaits, as a query handler's read is: still in the same batch.
      Promise.resolve().then(async () => {
        await Promise.resolve();
        return store.find(PAGES, { limit: 10 });
      }),
    ]);

  it('sends the reads made together inside a scope as one readBatch, answering each as the store would alone', async () => {
    const { result, calls } = await probe.measure(() => BatchingReadStore.together(readsTogether));

    expect(calls.byCall).toEqual({ 'read.readBatch': 1 });
    expect(result).toEqual([
      await inner.get(PAGES, 'p-1'),
      null,
      await inner.getMany(SERVICES, ['s-2', 's-1']),
      [{ id: 's-1', accountId: 'a', name: 'API' }],
      [{ id: 'p-1', accountId: 'a' }],
    ]);
  });

  it('sends each read by itself outside a scope, and a lone read in a scope as the read it is', async () => {
    const outside = await probe.measure(readsTogether);
    expect(outside.calls.byCall).toEqual({ 'read.get': 2, 'read.getMany': 1, 'read.find': 2 });

    const lone = await probe.measure(() =>
      BatchingReadStore.together(async () => {
        const page = await store.get(PAGES, 'p-1');
        return [page, await store.find(SERVICES, { limit: 1 })];
      }),
    );
    expect(lone.calls.byCall).toEqual({ 'read.getMany': 1, 'read.find': 1 });
    expect(lone.result).toEqual([await inner.get(PAGES, 'p-1'), [{ id: 's-1', accountId: 'a', name: 'API' }]]);
  });

  it('lets a scope inside another join it', async () => {
    const { calls } = await probe.measure(() => BatchingReadStore.together(() => Promise.all([BatchingReadStore.together(readsTogether), store.get(SERVICES, 's-1')])));
    expect(calls.byCall).toEqual({ 'read.readBatch': 1 });
  });

  it('fails every read of a batch the store does not answer, and the next batch goes out again', async () => {
    probe.failNext('read', 'readBatch');
    await expect(BatchingReadStore.together(readsTogether)).rejects.toBeInstanceOf(StoreUnavailableError);
    const again = BatchingReadStore.together(() => Promise.all([store.get(PAGES, 'p-1'), store.get(SERVICES, 's-1')]));
    await expect(again).resolves.toEqual([await inner.get(PAGES, 'p-1'), await inner.get(SERVICES, 's-1')]);
  });

  it('fails a batch with a read the store refuses, as the read would fail alone', async () => {
    const batch = BatchingReadStore.together(() => Promise.all([store.get(PAGES, 'p-1'), store.find('never_ensured', { limit: 1 })]));
    await expect(batch).rejects.toBeInstanceOf(ReadStoreUsageError);
  });

  it('passes writes and everything else straight through, in a scope too', async () => {
    const { calls } = await probe.measure(() =>
      BatchingReadStore.together(async () => {
        await store.put(PAGES, { id: 'p-2', accountId: 'a' }, 1n);
        await store.count(PAGES);
        return store.getMeta('x');
      }),
    );
    expect(calls.byCall).toEqual({ 'read.put': 1, 'read.count': 1, 'read.getMeta': 1 });
  });
});

import { StoreUnavailableError } from '../../core/src/errors';
import { ReadStoreUsageError } from './collection-schema';
import { MongoReadStore } from './mongodb.read-store';
import { readStoreContract } from './read-store.contract';
import { silentServer } from '../../testing/src/silent-server';

const url = process.env.MONGODB_URL;

// Needs a running MongoDB, e.g. MONGODB_URL=mongodb://localhost:27017 (none can run on this project's CI, and
// the embedded deployment needs none); without one, jest lists the contract's tests as skipped instead of
// passing them silently.
const describeIfServer = url ? describe : describe.skip;

describeIfServer('MongoDB adapter (skipped unless MONGODB_URL is set)', () => {
  let databases = 0;
  readStoreContract('mongodb', async () => {
    // A database per test, dropped afterwards, keeps tests independent on a shared server.
    const database = `vigil_read_store_test_${process.pid}_${++databases}`;
    const store = await MongoReadStore.connect(url ?? '', { database });
    return {
      store,
      async cleanup() {
        const { MongoClient } = await import('mongodb');
        const client = await MongoClient.connect(url ?? '');
        try {
          await client.db(database).dropDatabase();
        } finally {
          await client.close();
          await store.close();
        }
      },
    };
  });
});

describeIfServer('MongoDB adapter, beyond the contract (skipped unless MONGODB_URL is set)', () => {
  const database = `vigil_read_store_extra_${process.pid}`;
  let store: MongoReadStore;
  let other: MongoReadStore;

  beforeEach(async () => {
    store = await MongoReadStore.connect(url ?? '', { database });
    other = await MongoReadStore.connect(url ?? '', { database });
  });

  afterEach(async () => {
    const { MongoClient } = await import('mongodb');
    const client = await MongoClient.connect(url ?? '');
    await client.db(database).dropDatabase();
    await client.close();
    await store.close();
    await other.close();
  });

  it('never moves a checkpoint back, across instances; a reset forgets it', async () => {
    await store.setCheckpoint('incidents_v1_g1', 40n);
    await other.setCheckpoint('incidents_v1_g1', 30n);
    expect(await store.getCheckpoint('incidents_v1_g1')).toBe(40n);
    await Promise.all([store.setCheckpoint('fresh', 7n), other.setCheckpoint('fresh', 5n)]);
    expect(await store.getCheckpoint('fresh')).toBe(7n);
    await other.resetCheckpoint('incidents_v1_g1');
    expect(await store.getCheckpoint('incidents_v1_g1')).toBeNull();
  });

  it('drops an index the spec no longer names, and keeps the ones it does', async () => {
    const { MongoClient } = await import('mongodb');
    const client = await MongoClient.connect(url ?? '');
    try {
      const indexes = async () => (await client.db(database).collection('rm_timers').listIndexes().toArray()).map((index) => Object.keys(index.key).join(',')).sort();
      await store.ensureCollection({ name: 'timers', indexes: [{ field: 'deadline' }, { field: 'pingToken' }] });
      await store.put('timers', { id: 't', deadline: 5, pingToken: 'x' }, 0n);
      expect(await indexes()).toEqual(['_id', 'doc.deadline,_id', 'doc.pingToken,_id']);

      await store.ensureCollection({ name: 'timers', indexes: [{ field: 'deadline' }] });
      expect(await indexes()).toEqual(['_id', 'doc.deadline,_id']);
      expect(await store.find('timers', { filters: [{ field: 'deadline', op: 'lte', value: 5 }], limit: 5 })).toEqual([{ id: 't', deadline: 5, pingToken: 'x' }]);
      await store.ensureCollection({ name: 'empty', indexes: [] });
    } finally {
      await client.close();
    }
  });

  it('forgets a collection another process dropped', async () => {
    const trusting = await MongoReadStore.connect(url ?? '', { database, schemaTtlMs: 0 });
    try {
      await trusting.ensureCollection({ name: 'services_v1_g1', indexes: [] });
      await trusting.put('services_v1_g1', { id: 'a' }, 1n);
      await other.dropCollection('services_v1_g1');
      await expect(trusting.get('services_v1_g1', 'a')).rejects.toThrow(ReadStoreUsageError);
      await expect(trusting.put('services_v1_g1', { id: 'b' }, 1n)).rejects.toThrow(ReadStoreUsageError);
    } finally {
      await trusting.close();
    }
  });
});

describe('MongoReadStore against a server that never answers', () => {
  let silent: { port: number; close(): Promise<void> };

  beforeAll(async () => {
    silent = await silentServer();
  });

  afterAll(async () => {
    await silent.close();
  });

  it.each([
    ['a single host', (port: number) => `mongodb://127.0.0.1:${port}/vigil?directConnection=true`],
    ['a replica set', (port: number) => `mongodb://127.0.0.1:${port},127.0.0.1:${port}/vigil?replicaSet=rs0`],
  ])('gives up on %s with StoreUnavailableError within the deadline', async (_, urlFor) => {
    const started = Date.now();
    await expect(MongoReadStore.connect(urlFor(silent.port), { timeoutMs: 500 })).rejects.toThrow(StoreUnavailableError);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(1500);
  });
});

describe('MongoReadStore without a server', () => {
  it('loads the driver only when connecting', () => {
    jest.isolateModules(() => {
      jest.doMock('mongodb', () => {
        throw new Error('the driver was loaded');
      });
      expect(() => require('./mongodb.read-store')).not.toThrow();
    });
    jest.dontMock('mongodb');
  });

  it('turns an unreachable server into StoreUnavailableError within the deadline', async () => {
    const started = Date.now();
    // Port 9 on the loopback has no listener, so server selection fails fast and locally.
    const connecting = MongoReadStore.connect('mongodb://127.0.0.1:9/vigil?directConnection=true', { timeoutMs: 300 });
    await expect(connecting).rejects.toThrow(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

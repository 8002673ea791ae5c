import { StoreUnavailableError } from '../../core/src/errors';
import { MongoReadStore } from './mongodb.read-store';
import { readStoreContract } from './read-store.contract';

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

import { InMemoryReadStore } from './in-memory.read-store';
import { readStoreContract } from './read-store.contract';

readStoreContract('in-memory', async () => ({ store: new InMemoryReadStore(), cleanup: async () => undefined }));

import { embeddedEventStoreContract, EventStoreFactory, eventStoreContract } from './event-store.contract';
import { InMemoryEventStore } from './in-memory.event-store';

const freshStore: EventStoreFactory = async () => {
  const store = new InMemoryEventStore();
  return { store, cleanup: () => store.close() };
};

eventStoreContract('in-memory', freshStore);
embeddedEventStoreContract('in-memory', freshStore);

import { eventStoreContract } from './event-store.contract';
import { EventStoreDbEventStore } from './eventstoredb.event-store';

const url = process.env.EVENTSTORE_URL;

// Needs a running server, e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false; without one, jest lists
// these tests as skipped instead of passing them silently.
const describeIfServer = url ? describe : describe.skip;

describeIfServer('EventStoreDB adapter (skipped unless EVENTSTORE_URL is set)', () => {
  eventStoreContract('EventStoreDB', async () => {
    const store = new EventStoreDbEventStore(url ?? '');
    return { store, cleanup: () => store.close() };
  });
});

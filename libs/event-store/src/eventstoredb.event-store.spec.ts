import { randomUUID } from 'node:crypto';
import { EventToAppend } from '../../core/src/event';
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

describeIfServer('EventStoreDB retention (skipped unless EVENTSTORE_URL is set)', () => {
  let store: EventStoreDbEventStore;
  const ping = (n: number, occurredAt: string): EventToAppend => ({ type: 'HeartbeatPingReceived', data: { n }, metadata: { accountId: null, occurredAt } });

  beforeEach(() => {
    store = new EventStoreDbEventStore(url ?? '');
  });
  afterEach(() => store.close());

  it('truncates a heartbeat stream before the cutoff: stream reads lose the old pings, the revision stays', async () => {
    const stream = `heartbeat-${randomUUID()}`;
    await store.appendToStream(stream, [ping(0, '2026-01-01T00:00:00.000Z'), ping(1, '2026-01-02T00:00:00.000Z'), ping(2, '2026-01-03T00:00:00.000Z')]);

    expect(await store.pruneStream(stream, new Date('2026-01-02T12:00:00.000Z'))).toBe(2);
    expect((await store.readStream(stream)).map((event) => event.data)).toEqual([{ n: 2 }]);
    expect(await store.pruneStream(stream, new Date('2026-01-02T12:00:00.000Z'))).toBe(0);
    expect(await store.streamRevision(stream)).toBe(2n);
    expect((await store.appendToStream(stream, [ping(3, '2026-01-04T00:00:00.000Z')], { expectedRevision: 2n })).nextRevision).toBe(3n);
    expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([2n, 3n]);
  });

  it('keeps the newest event of a stream older than the cutoff, so its revision stays readable', async () => {
    const stream = `heartbeat-${randomUUID()}`;
    await store.appendToStream(stream, [ping(0, '2026-01-01T00:00:00.000Z'), ping(1, '2026-01-02T00:00:00.000Z')]);

    expect(await store.pruneStream(stream, new Date('2026-02-01T00:00:00.000Z'))).toBe(1);
    expect((await store.readStream(stream)).map((event) => event.data)).toEqual([{ n: 1 }]);
    expect(await store.streamRevision(stream)).toBe(1n);
  });

  it('keeps a stream whose events are all newer than the cutoff, and ignores an absent one', async () => {
    const stream = `heartbeat-${randomUUID()}`;
    await store.appendToStream(stream, [ping(0, '2026-01-05T00:00:00.000Z')]);
    expect(await store.pruneStream(stream, new Date('2026-01-01T00:00:00.000Z'))).toBe(0);
    expect(await store.readStream(stream)).toHaveLength(1);
    expect(await store.pruneStream(`heartbeat-${randomUUID()}`, new Date())).toBe(0);
  });
});

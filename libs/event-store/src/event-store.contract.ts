import { randomUUID } from 'node:crypto';
import { ConcurrencyError, StoreUnavailableError } from '../../core/src/errors';
import { EventToAppend, RecordedEvent } from '../../core/src/event';
import { EventStore, ExpectedRevision, ReadStreamOptions } from './event-store.port';

export type EventStoreFactory = () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>;

const OCCURRED_AT = '2026-01-01T00:00:00.000Z';

function anEvent(type = 'ThingHappened', data: Record<string, unknown> = {}, occurredAt = OCCURRED_AT): EventToAppend {
  return { type, data, metadata: { accountId: 'account-1', keyId: null, requestId: 'request-1', occurredAt } };
}

function events(count: number, type = 'ThingHappened'): EventToAppend[] {
  return Array.from({ length: count }, (_, index) => anEvent(type, { index }));
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function take(iterator: AsyncIterator<RecordedEvent>, count: number): Promise<RecordedEvent[]> {
  const taken: RecordedEvent[] = [];
  while (taken.length < count) {
    const next = await within(iterator.next(), 5000, `waiting for event ${taken.length + 1} of ${count}`);
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}

async function expectConflict(
  append: Promise<unknown>,
  expected: { stream: string; expected: string; actual: string },
): Promise<void> {
  const error = await append.then(
    () => new Error('expected a ConcurrencyError, but the append succeeded'),
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ConcurrencyError);
  expect(error).toMatchObject(expected);
}

function expectIncreasing(positions: bigint[]): void {
  positions.slice(1).forEach((position, index) => expect(position).toBeGreaterThan(positions[index]));
}

/**
 * An append's events as a read returns them: the same events, each at a position of its own no later than
 * the one the append gave it (a store that reports one position per append gives the earlier events that one).
 */
function expectReadAsAppended(read: RecordedEvent[], appended: RecordedEvent[]): void {
  const withoutPosition = (events: RecordedEvent[]) => events.map(({ position: _position, ...rest }) => rest);
  expect(withoutPosition(read)).toStrictEqual(withoutPosition(appended));
  expectIncreasing(read.map((event) => event.position));
  read.forEach((event, index) => expect(event.position).toBeLessThanOrEqual(appended[index].position));
  expect(read[read.length - 1].position).toBe(appended[appended.length - 1].position);
}

function expectNonDecreasing(positions: bigint[]): void {
  positions.slice(1).forEach((position, index) => expect(position).toBeGreaterThanOrEqual(positions[index]));
}

/**
 * The behaviour every EventStore adapter must share (EventStoreDB semantics). It only assumes that
 * nobody else writes user events while a test runs, so it also runs against a shared server: each
 * test uses fresh stream names and reads the global log from the head it found.
 */
export function eventStoreContract(adapterName: string, factory: EventStoreFactory): void {
  describe(`${adapterName} event store contract`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let runId: string;
    let subscriptions: AbortController[];

    const streamName = (name: string): string => `${name}-${runId}`;
    const head = async (): Promise<bigint | undefined> => (await store.headPosition()) ?? undefined;
    const subscribe = (after: bigint | undefined) => {
      const controller = new AbortController();
      subscriptions.push(controller);
      const iterator = store.subscribeToAll({ after, signal: controller.signal })[Symbol.asyncIterator]();
      return { iterator, stop: () => controller.abort() };
    };

    beforeEach(async () => {
      ({ store, cleanup } = await factory());
      runId = randomUUID();
      subscriptions = [];
    });

    afterEach(async () => {
      for (const controller of subscriptions) controller.abort();
      await cleanup();
    });

    describe('appending and reading a stream', () => {
      it('records events with revisions from 0 and keeps type, data and metadata', async () => {
        const stream = streamName('incident');
        const toAppend = [
          anEvent('IncidentCreated', { title: 'API down', impact: 'major' }),
          anEvent('IncidentUpdatePosted', { message: 'Investigating' }),
          anEvent('IncidentResolved', {}),
        ];

        const result = await store.appendToStream(stream, toAppend);

        expect(result.nextRevision).toBe(2n);
        expect(result.events.map((event) => event.revision)).toEqual([0n, 1n, 2n]);
        expect(result.position).toBe(result.events[2].position);
        expectNonDecreasing(result.events.map((event) => event.position));
        expect(result.events).toEqual(
          toAppend.map((event) => ({ ...event, stream, revision: expect.any(BigInt), position: expect.any(BigInt) })),
        );
        expectReadAsAppended(await store.readStream(stream), result.events);
      });

      it('records data and metadata as a read returns them (what JSON makes of them), not as the caller’s objects', async () => {
        const stream = streamName('incident');
        const flat = { title: 'API down', count: 2, open: true, note: null };
        const changedByJson = { zero: -0, gone: undefined, at: new Date(OCCURRED_AT), nested: { list: [1, undefined] } };
        const toAppend = [anEvent('Flat', flat), anEvent('ChangedByJson', changedByJson)];

        const result = await store.appendToStream(stream, toAppend);
        flat.title = 'changed after the append';
        changedByJson.nested.list.push(3);

        expect(result.events.map((event) => event.data)).toStrictEqual([
          { title: 'API down', count: 2, open: true, note: null },
          { zero: 0, at: OCCURRED_AT, nested: { list: [1, null] } },
        ]);
        expect(result.events[0].metadata).toStrictEqual(JSON.parse(JSON.stringify(toAppend[0].metadata)));
        expect(result.events[0].metadata).not.toBe(toAppend[0].metadata);
        expectReadAsAppended(await store.readStream(stream), result.events);
      });

      it('continues the revisions of an existing stream', async () => {
        const stream = streamName('incident');
        await store.appendToStream(stream, events(2));

        const result = await store.appendToStream(stream, events(1));

        expect(result.nextRevision).toBe(2n);
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0n, 1n, 2n]);
      });

      it('reads a stream that does not exist as empty, with no revision', async () => {
        expect(await store.readStream(streamName('missing'))).toEqual([]);
        expect(await store.streamRevision(streamName('missing'))).toBeNull();
      });

      it('reports the revision of the last event', async () => {
        const stream = streamName('check');
        await store.appendToStream(stream, events(2));
        await store.appendToStream(stream, events(1));

        expect(await store.streamRevision(stream)).toBe(2n);
      });

      it('reads a stream from a given revision', async () => {
        const stream = streamName('heartbeat');
        await store.appendToStream(stream, events(5));

        const tail = await store.readStream(stream, { fromRevision: 3n });

        expect(tail.map((event) => event.revision)).toEqual([3n, 4n]);
        expect(tail.map((event) => event.data)).toEqual([{ index: 3 }, { index: 4 }]);
        expect(await store.readStream(stream, { fromRevision: 5n })).toEqual([]);
      });

      it('reads at most maxCount events, forwards or backwards from a given revision', async () => {
        const stream = streamName('heartbeat');
        await store.appendToStream(stream, events(5));
        const revisions = async (options: ReadStreamOptions) => (await store.readStream(stream, options)).map((event) => event.revision);

        expect(await revisions({ fromRevision: 1n, maxCount: 2 })).toEqual([1n, 2n]);
        expect(await revisions({ maxCount: 1 })).toEqual([0n]);
        expect(await revisions({ direction: 'backwards', maxCount: 2 })).toEqual([4n, 3n]);
        expect(await revisions({ direction: 'backwards', fromRevision: 1n, maxCount: 5 })).toEqual([1n, 0n]);
        expect(await revisions({ direction: 'backwards' })).toEqual([4n, 3n, 2n, 1n, 0n]);
      });

      it('keeps streams apart', async () => {
        const first = streamName('first');
        const second = streamName('second');
        await store.appendToStream(first, [anEvent('A', { n: 1 })]);
        await store.appendToStream(second, [anEvent('B', { n: 2 })]);
        await store.appendToStream(first, [anEvent('A', { n: 3 })]);

        expect((await store.readStream(first)).map((event) => [event.revision, event.data])).toEqual([
          [0n, { n: 1 }],
          [1n, { n: 3 }],
        ]);
        expect((await store.readStream(second)).map((event) => [event.revision, event.data])).toEqual([[0n, { n: 2 }]]);
      });

      it('gives positions that grow across streams', async () => {
        const results = [];
        for (const name of ['a', 'b', 'a', 'c', 'b']) {
          results.push(await store.appendToStream(streamName(name), events(2)));
        }

        expectIncreasing(results.map((result) => result.position));
        expectNonDecreasing(results.flatMap((result) => result.events.map((event) => event.position)));
        for (const [index, result] of results.slice(1).entries()) expect(result.events[0].position).toBeGreaterThan(results[index].position);
      });

      it('round-trips empty data', async () => {
        const stream = streamName('empty');
        await store.appendToStream(stream, [anEvent('NothingInside', {})]);

        const [event] = await store.readStream(stream);

        expect(event.data).toEqual({});
      });

      it('round-trips every kind of JSON value', async () => {
        const stream = streamName('json');
        const data = {
          nothing: null,
          yes: true,
          no: false,
          zero: 0,
          negative: -12.5,
          big: Number.MAX_SAFE_INTEGER,
          list: [1, 'two', { three: [3] }, []],
          nested: { deeper: { deepest: {} } },
          quoted: 'a "quoted" \\ back\\slash',
        };
        await store.appendToStream(stream, [anEvent('Shaped', data)]);

        expect((await store.readStream(stream))[0].data).toEqual(data);
      });

      it('round-trips unicode in stream names, data and metadata', async () => {
        const stream = streamName('statuspage-ünïcødé-状态-🚦');
        const data = {
          title: 'Panne générale — 服务中断 — انقطاع الخدمة — 🔥🧯',
          combining: 'e\u0301',
          controls: 'line\nbreak\ttab\u0000nul',
        };
        const event: EventToAppend = {
          type: 'IncidentCreated',
          data,
          metadata: { accountId: 'account-1', keyName: 'clé ключ 鍵 🗝️', occurredAt: OCCURRED_AT },
        };
        await store.appendToStream(stream, [event]);

        const [read] = await store.readStream(stream);

        expect(read.stream).toBe(stream);
        expect(read.data).toEqual(data);
        expect(read.metadata).toEqual(event.metadata);
      });

      it('round-trips large payloads', async () => {
        const stream = streamName('large');
        const data = {
          text: 'x'.repeat(256 * 1024),
          items: Array.from({ length: 1000 }, (_, index) => ({ index, label: `item ${index}` })),
        };
        await store.appendToStream(stream, [anEvent('LargeThingHappened', data)]);

        expect((await store.readStream(stream))[0].data).toEqual(data);
      });
    });

    describe('expected revision', () => {
      it('defaults to any: appends to a new and to an existing stream', async () => {
        const stream = streamName('any');
        await store.appendToStream(stream, events(1));
        const result = await store.appendToStream(stream, events(1));

        expect(result.nextRevision).toBe(1n);
      });

      it('any appends whatever the stream holds', async () => {
        const stream = streamName('any');
        await store.appendToStream(stream, events(1), { expectedRevision: 'any' });
        const result = await store.appendToStream(stream, events(1), { expectedRevision: 'any' });

        expect(result.nextRevision).toBe(1n);
      });

      it('no_stream creates a stream', async () => {
        const result = await store.appendToStream(streamName('new'), events(1), { expectedRevision: 'no_stream' });

        expect(result.nextRevision).toBe(0n);
      });

      it('no_stream conflicts when the stream exists', async () => {
        const stream = streamName('taken');
        await store.appendToStream(stream, events(1));

        await expectConflict(store.appendToStream(stream, events(1), { expectedRevision: 'no_stream' }), {
          stream,
          expected: 'no_stream',
          actual: '0',
        });
      });

      it('stream_exists appends to an existing stream', async () => {
        const stream = streamName('existing');
        await store.appendToStream(stream, events(1));

        const result = await store.appendToStream(stream, events(1), { expectedRevision: 'stream_exists' });

        expect(result.nextRevision).toBe(1n);
      });

      it('stream_exists conflicts when the stream does not exist', async () => {
        const stream = streamName('absent');

        await expectConflict(store.appendToStream(stream, events(1), { expectedRevision: 'stream_exists' }), {
          stream,
          expected: 'stream_exists',
          actual: 'no_stream',
        });
        expect(await store.streamRevision(stream)).toBeNull();
      });

      it('an exact revision appends when it is the revision of the last event', async () => {
        const stream = streamName('exact');
        await store.appendToStream(stream, events(2));

        const result = await store.appendToStream(stream, events(1), { expectedRevision: 1n });

        expect(result.nextRevision).toBe(2n);
      });

      it.each<[string, bigint]>([
        ['behind', 0n],
        ['ahead', 5n],
      ])('an exact revision that is %s conflicts and writes nothing', async (_, expectedRevision) => {
        const stream = streamName('exact');
        await store.appendToStream(stream, events(2));

        await expectConflict(store.appendToStream(stream, events(1), { expectedRevision }), {
          stream,
          expected: String(expectedRevision),
          actual: '1',
        });
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('an exact revision conflicts when the stream does not exist', async () => {
        const stream = streamName('absent');

        await expectConflict(store.appendToStream(stream, events(1), { expectedRevision: 0n }), {
          stream,
          expected: '0',
          actual: 'no_stream',
        });
      });

      it.each<[string, ExpectedRevision]>([
        ['the same revision', 0n],
        ['no_stream', 'no_stream'],
      ])('lets exactly one of several concurrent appends expecting %s win', async (_, expectedRevision) => {
        const stream = streamName('contended');
        if (expectedRevision !== 'no_stream') await store.appendToStream(stream, events(1));

        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, writer) =>
            store.appendToStream(stream, [anEvent('Written', { writer })], { expectedRevision }),
          ),
        );

        const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const losers = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(9);
        for (const loser of losers) expect(loser).toBeInstanceOf(ConcurrencyError);
        expect(await store.readStream(stream)).toHaveLength(expectedRevision === 'no_stream' ? 1 : 2);
      });

      it('an empty append checks the expectation and writes nothing', async () => {
        const stream = streamName('quiet');
        await store.appendToStream(stream, events(2));

        const result = await store.appendToStream(stream, [], { expectedRevision: 1n });

        expect(result.nextRevision).toBe(1n);
        expect(result.events).toEqual([]);
        expect(await store.readStream(stream)).toHaveLength(2);
        await expectConflict(store.appendToStream(stream, [], { expectedRevision: 'no_stream' }), {
          stream,
          expected: 'no_stream',
          actual: '1',
        });
      });

      it('an empty append to a missing stream answers revision -1 and does not create it', async () => {
        const stream = streamName('never');

        const result = await store.appendToStream(stream, [], { expectedRevision: 'no_stream' });

        expect(result.nextRevision).toBe(-1n);
        expect(await store.streamRevision(stream)).toBeNull();
        await expectConflict(store.appendToStream(stream, [], { expectedRevision: 'stream_exists' }), {
          stream,
          expected: 'stream_exists',
          actual: 'no_stream',
        });
      });
    });

    describe('the global log', () => {
      it('reads events after a position in position order, a page at a time', async () => {
        const start = await head();
        const appended = [];
        for (const name of ['a', 'b', 'c', 'd', 'e']) {
          appended.push(...(await store.appendToStream(streamName(name), [anEvent('Paged', { name })])).events);
        }

        const first = await store.readAll({ after: start, maxCount: 2 });
        const second = await store.readAll({ after: first[1].position, maxCount: 2 });
        const third = await store.readAll({ after: second[1].position, maxCount: 2 });

        expect([...first, ...second, ...third]).toEqual(appended);
        expect(third).toHaveLength(1);
        expect(await store.readAll({ after: third[0].position })).toEqual([]);
      });

      it('returns at most 1000 events when no maxCount is given', async () => {
        const start = await head();
        await store.appendToStream(streamName('bulk'), events(1001));

        const page = await store.readAll({ after: start });

        expect(page).toHaveLength(1000);
        expect(page.map((event) => event.revision)).toEqual(Array.from({ length: 1000 }, (_, index) => BigInt(index)));
      });

      it('reads the whole log from the start, in position order', async () => {
        const ours = [
          ...(await store.appendToStream(streamName('a'), events(3))).events,
          ...(await store.appendToStream(streamName('b'), events(2))).events,
        ];

        const log = await readAllAfter(store, undefined, Number.POSITIVE_INFINITY);

        expectIncreasing(log.map((event) => event.position));
        expectReadAsAppended(log.filter((event) => event.stream.endsWith(runId)), ours);
      });

      it('reports the position of the newest event as the head', async () => {
        await store.appendToStream(streamName('a'), events(2));
        const last = await store.appendToStream(streamName('b'), events(1));

        expect(await store.headPosition()).toBe(last.position);
      });
    });

    describe('subscribing to the global log', () => {
      it('delivers existing events, then live ones, and ends when the signal aborts', async () => {
        const start = await head();
        const stream = streamName('live');
        await store.appendToStream(stream, [anEvent('Before', { n: 1 }), anEvent('Before', { n: 2 })]);
        const { iterator, stop } = subscribe(start);

        const existing = await take(iterator, 2);
        const pending = take(iterator, 1);
        const live = await store.appendToStream(stream, [anEvent('After', { n: 3 })]);

        expect(existing.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
        expect(await pending).toEqual(live.events);
        const ended = iterator.next();
        stop();
        expect(await within(ended, 2000, 'for the subscription to end')).toEqual({ done: true, value: undefined });
      });

      it('ends when the signal aborts while it waits for new events', async () => {
        const { iterator, stop } = subscribe(await head());

        const waiting = iterator.next();
        setTimeout(stop, 50);

        expect(await within(waiting, 2000, 'for the subscription to end')).toEqual({ done: true, value: undefined });
      });

      it('yields nothing when the signal has already aborted', async () => {
        await store.appendToStream(streamName('a'), events(1));
        const controller = new AbortController();
        controller.abort();

        const iterator = store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();

        expect(await within(iterator.next(), 2000, 'for the subscription to end')).toEqual({
          done: true,
          value: undefined,
        });
      });

      it('delivers a backlog of several pages without gaps or repeats', async () => {
        const start = await head();
        for (const name of ['a', 'b', 'c']) await store.appendToStream(streamName(name), events(400));
        const { iterator } = subscribe(start);

        const delivered = await take(iterator, 1200);

        expect(delivered).toHaveLength(1200);
        expectIncreasing(delivered.map((event) => event.position));
        expect(delivered).toEqual(await readAllAfter(store, start, 1200));
      });

      it('resumes strictly after the given position', async () => {
        const stream = streamName('resume');
        await store.appendToStream(stream, events(3));
        // A cursor comes from a read: an append may report its earlier events at its own position.
        const appended = await store.readStream(stream);
        const { iterator } = subscribe(appended[0].position);

        expect(await take(iterator, 2)).toEqual(appended.slice(1));
      });

      it('serves several subscribers at once', async () => {
        const start = await head();
        const first = subscribe(start).iterator;
        const second = subscribe(start).iterator;
        const pendingFirst = take(first, 3);
        const pendingSecond = take(second, 3);

        const appended = [
          ...(await store.appendToStream(streamName('a'), events(2))).events,
          ...(await store.appendToStream(streamName('b'), events(1))).events,
        ];

        expectReadAsAppended(await pendingFirst, appended);
        expectReadAsAppended(await pendingSecond, appended);
      });
    });

    describe('many writers', () => {
      it('makes 500 concurrent appends to different streams all durable', async () => {
        const start = await head();

        const results = await Promise.all(
          Array.from({ length: 500 }, (_, index) =>
            store.appendToStream(streamName(`check-${index}`), [anEvent('HeartbeatPingReceived', { index })], {
              expectedRevision: 'no_stream',
            }),
          ),
        );

        const log = await readAllAfter(store, start, 500);
        expect(log).toHaveLength(500);
        expectIncreasing(log.map((event) => event.position));
        expect(new Set(results.map((result) => result.position)).size).toBe(500);
        expect(log.map((event) => (event.data as { index: number }).index).sort((a, b) => Number(a) - Number(b))).toEqual(
          Array.from({ length: 500 }, (_, index) => index),
        );
        expect(await store.headPosition()).toBe(log[log.length - 1].position);
      });

      it('gives concurrent appends to one stream consecutive revisions', async () => {
        const stream = streamName('busy');

        const results = await Promise.all(
          Array.from({ length: 50 }, (_, index) => store.appendToStream(stream, [anEvent('Pinged', { index })])),
        );

        const revisions = results.map((result) => result.nextRevision).sort((a, b) => (a < b ? -1 : 1));
        expect(revisions).toEqual(Array.from({ length: 50 }, (_, index) => BigInt(index)));
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual(revisions);
      });
    });
  });
}

/**
 * Behaviour of the adapters that own their whole log (in-memory and SQLite): an empty store, pruning
 * by age, and closing. EventStoreDB is left out: its log is shared and it expires events by `$maxAge`.
 */
export function embeddedEventStoreContract(adapterName: string, factory: EventStoreFactory): void {
  describe(`${adapterName} embedded event store contract`, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;

    const prune = (stream: string, before: string): Promise<number> => {
      if (!store.pruneStream) throw new Error(`${adapterName} does not implement pruneStream`);
      return store.pruneStream(stream, new Date(before));
    };

    beforeEach(async () => {
      ({ store, cleanup } = await factory());
    });

    afterEach(async () => {
      await cleanup();
    });

    it('starts with no head position and an empty log', async () => {
      expect(await store.headPosition()).toBeNull();
      expect(await store.readAll()).toEqual([]);
    });

    it('answers an empty append to an empty store with position 0', async () => {
      const result = await store.appendToStream('nothing', []);

      expect(result).toEqual({ nextRevision: -1n, position: 0n, events: [] });
    });

    describe('pruning a stream', () => {
      const pings = [
        anEvent('HeartbeatPingReceived', { n: 0 }, '2026-01-01T00:00:00.000Z'),
        anEvent('HeartbeatPingReceived', { n: 1 }, '2026-01-02T00:00:00.000Z'),
        anEvent('HeartbeatPingReceived', { n: 2 }, '2026-01-03T00:00:00.000Z'),
      ];

      it('deletes events that occurred before the cutoff and keeps later ones', async () => {
        await store.appendToStream('heartbeat-1', pings);

        const pruned = await prune('heartbeat-1', '2026-01-02T12:00:00.000Z');

        expect(pruned).toBe(2);
        expect((await store.readStream('heartbeat-1')).map((event) => event.data)).toEqual([{ n: 2 }]);
        expect((await store.readAll()).map((event) => event.data)).toEqual([{ n: 2 }]);
      });

      it('keeps an event that occurred exactly at the cutoff', async () => {
        await store.appendToStream('heartbeat-1', pings);

        expect(await prune('heartbeat-1', '2026-01-02T00:00:00.000Z')).toBe(1);
        expect(await store.readStream('heartbeat-1')).toHaveLength(2);
      });

      it('compares instants, not text, when occurredAt carries an offset', async () => {
        await store.appendToStream('heartbeat-1', [
          anEvent('HeartbeatPingReceived', { n: 0 }, '2026-01-01T10:00:00.000+02:00'),
        ]);

        expect(await prune('heartbeat-1', '2026-01-01T09:00:00.000Z')).toBe(1);
      });

      it('leaves other streams alone', async () => {
        await store.appendToStream('heartbeat-1', pings);
        await store.appendToStream('heartbeat-2', pings);

        await prune('heartbeat-1', '2026-02-01T00:00:00.000Z');

        expect(await store.readStream('heartbeat-1')).toEqual([]);
        expect(await store.readStream('heartbeat-2')).toHaveLength(3);
      });

      it('keeps the revision, so a fully pruned stream still exists and continues', async () => {
        await store.appendToStream('heartbeat-1', pings);
        await prune('heartbeat-1', '2026-02-01T00:00:00.000Z');

        expect(await store.streamRevision('heartbeat-1')).toBe(2n);
        await expectConflict(store.appendToStream('heartbeat-1', events(1), { expectedRevision: 'no_stream' }), {
          stream: 'heartbeat-1',
          expected: 'no_stream',
          actual: '2',
        });
        const next = await store.appendToStream('heartbeat-1', events(1), { expectedRevision: 2n });
        expect(next.nextRevision).toBe(3n);
        expect((await store.readStream('heartbeat-1')).map((event) => event.revision)).toEqual([3n]);
      });

      it('keeps the revision when the newest event goes and an older one stays', async () => {
        // occurredAt need not follow the revisions (a clock set back between two appends).
        await store.appendToStream('heartbeat-1', [
          anEvent('HeartbeatPingReceived', { n: 0 }, '2026-01-03T00:00:00.000Z'),
          anEvent('HeartbeatPingReceived', { n: 1 }, '2026-01-01T00:00:00.000Z'),
        ]);

        expect(await prune('heartbeat-1', '2026-01-02T00:00:00.000Z')).toBe(1);

        expect(await store.streamRevision('heartbeat-1')).toBe(1n);
        await expectConflict(store.appendToStream('heartbeat-1', events(1), { expectedRevision: 0n }), {
          stream: 'heartbeat-1',
          expected: '0',
          actual: '1',
        });
        const next = await store.appendToStream('heartbeat-1', events(1), { expectedRevision: 1n });
        expect(next.nextRevision).toBe(2n);
        expect((await store.readStream('heartbeat-1')).map((event) => event.revision)).toEqual([0n, 2n]);
      });

      it('returns 0 when nothing is old enough', async () => {
        await store.appendToStream('heartbeat-1', pings);

        expect(await prune('heartbeat-1', '2025-12-31T00:00:00.000Z')).toBe(0);
        expect(await prune('heartbeat-missing', '2026-02-01T00:00:00.000Z')).toBe(0);
      });
    });

    describe('closing', () => {
      it('ends live subscriptions', async () => {
        const controller = new AbortController();
        const iterator = store.subscribeToAll({ signal: controller.signal })[Symbol.asyncIterator]();
        const waiting = iterator.next();

        await store.close();

        expect(await within(waiting, 2000, 'for the subscription to end')).toEqual({ done: true, value: undefined });
        controller.abort();
      });

      it('refuses appends afterwards', async () => {
        await store.close();

        await expect(store.appendToStream('late', events(1))).rejects.toBeInstanceOf(StoreUnavailableError);
      });
    });
  });
}

async function readAllAfter(store: EventStore, after: bigint | undefined, count: number): Promise<RecordedEvent[]> {
  const log: RecordedEvent[] = [];
  while (log.length < count) {
    const page = await store.readAll({ after: log.length > 0 ? log[log.length - 1].position : after, maxCount: 500 });
    if (page.length === 0) break;
    log.push(...page);
  }
  return log;
}

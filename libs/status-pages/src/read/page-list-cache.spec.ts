import { ManualClock } from '../../../core/src/clock';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { ServiceEvent, serviceStream } from '../domain/service.decider';
import { PAGE_LIST_CACHE_MAX_AGE_MS, PAGE_LIST_CACHE_MAX_ENTRIES, Rendered, StatusPageListCache } from './page-list-cache';
import { RESOLVED_INCIDENT_WINDOW_MS, shownUntil } from './page-incidents';
import { ServiceDoc, servicesProjection } from './services.projection';

const ACCOUNT = '01900000-0000-7000-8000-000000000001';
const SERVICE = '01900000-0000-7000-8000-000000000051';
const created: ServiceEvent = { type: 'ServiceCreated', data: { id: SERVICE, accountId: ACCOUNT, name: 'API' } };
const renamed = (name: string): ServiceEvent => ({ type: 'ServiceUpdated', data: { id: SERVICE, name } });
const NOW = Date.parse('2026-03-10T00:00:00.000Z');

describe.each(HARNESS_ADAPTERS)('status page list cache (%s stores)', (adapter) => {
  let harness: ProjectionHarness;
  let clock: ManualClock;
  let cache: StatusPageListCache;
  let builds: number;

  /** What a list shows here: the service's current name, read from the read model as endpoint 8 would. */
  const build = (validUntil = Number.POSITIVE_INFINITY) => async (): Promise<Rendered> => {
    builds += 1;
    const stored = await harness.get<ServiceDoc>('services', SERVICE);
    return { body: Buffer.from(JSON.stringify({ name: stored?.doc.name ?? null })), validUntil };
  };
  const shown = async (key = 'k', validUntil?: number) => JSON.parse((await cache.get(key, build(validUntil))).toString()).name;

  beforeEach(async () => {
    harness = await ProjectionHarness.start(adapter, [servicesProjection]);
    await harness.append(serviceStream(SERVICE), [created]);
    clock = new ManualClock(new Date(NOW));
    cache = new StatusPageListCache(harness.eventStore, harness.readStore, harness.engine, clock);
    builds = 0;
  });
  afterEach(() => harness.close());

  it('reuses a build while the log does not move, and rebuilds once it does', async () => {
    expect(await shown()).toBe('API');
    expect(await shown()).toBe('API');
    expect(builds).toBe(1);
    await harness.append(serviceStream(SERVICE), [renamed('Public API')]);
    expect(await shown()).toBe('Public API');
    expect(builds).toBe(2);
    // Any event moves the head, even one no list shows: a rebuild, never a stale answer.
    await harness.append('unrelated-1', [{ type: 'SomethingHappened', data: {} }]);
    expect(await shown()).toBe('Public API');
    expect(builds).toBe(3);
  });

  it('keys are separate', async () => {
    await shown('a');
    await shown('b');
    await shown('a');
    expect(builds).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('keeps nothing while a read model lags behind the log, so a later catch-up is seen at once', async () => {
    // An event appended but not yet applied (another instance's write, before the daemon gets to it).
    await harness.eventStore.appendToStream(serviceStream(SERVICE), [{ type: 'ServiceUpdated', data: renamed('Status API').data, metadata: { accountId: ACCOUNT, occurredAt: '2026-01-02T00:00:00.000Z' } }]);
    const head = (await harness.eventStore.headPosition())!;
    await harness.readStore.resetCheckpoint(harness.engine.collection('services'));
    await harness.readStore.setCheckpoint(harness.engine.collection('services'), head - 1n);
    const before = await shown();
    expect(await shown()).toBe(before);
    expect(builds).toBe(2);
    expect(cache.size).toBe(0);
    await harness.engine.catchUp();
    expect(await shown()).toBe('Status API');
    expect(await shown()).toBe('Status API');
    expect(builds).toBe(3);
  });

  it('ends with the validity the build reports (inclusive), and when the clock goes backwards', async () => {
    await shown('k', NOW + 1000);
    clock.set(new Date(NOW + 1000));
    await shown('k', NOW + 1000);
    expect(builds).toBe(1);
    clock.set(new Date(NOW + 1001));
    await shown('k', NOW + 5000);
    expect(builds).toBe(2);
    clock.set(new Date(NOW));
    await shown('k', NOW + 5000);
    expect(builds).toBe(3);
  });

  it('serves an entry for at most PAGE_LIST_CACHE_MAX_AGE_MS', async () => {
    await shown();
    clock.advance(PAGE_LIST_CACHE_MAX_AGE_MS);
    await shown();
    expect(builds).toBe(1);
    clock.advance(1);
    await shown();
    expect(builds).toBe(2);
  });

  it('a build already out of date is not kept', async () => {
    await shown('k', NOW - 1);
    await shown('k', NOW - 1);
    expect(builds).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('concurrent misses share one build; a failed build is not kept and the next call builds again', async () => {
    const names = await Promise.all([shown(), shown(), shown()]);
    expect(names).toEqual(['API', 'API', 'API']);
    expect(builds).toBe(1);

    await harness.append(serviceStream(SERVICE), [renamed('Web')]);
    const failing = () => Promise.reject(new Error('store down'));
    await expect(Promise.all([cache.get('k', failing), cache.get('k', failing)])).rejects.toThrow('store down');
    expect(await shown()).toBe('Web');
    expect(builds).toBe(2);
  });

  it('holds a bounded number of entries, dropping the least recently used', async () => {
    for (let i = 0; i <= PAGE_LIST_CACHE_MAX_ENTRIES; i++) await shown(`key-${i}`);
    expect(cache.size).toBe(PAGE_LIST_CACHE_MAX_ENTRIES);
    const count = builds;
    await shown(`key-${PAGE_LIST_CACHE_MAX_ENTRIES}`);
    expect(builds).toBe(count);
    await shown('key-0');
    expect(builds).toBe(count + 1);
  });
});

describe('shownUntil', () => {
  const incident = (id: string, lastUpdateStatus: string, ...dates: string[]) => ({
    id,
    created_at: '2026-03-01T00:00:00.000Z',
    services: [],
    lastUpdateStatus,
    incidentUpdates: dates.map((publicIncidentUpdateDate) => ({ publicIncidentUpdateDate })),
  });

  it('open incidents never expire a list', () => {
    expect(shownUntil([incident('a', 'INVESTIGATING', '2026-01-01T00:00:00.000Z')], NOW)).toBe(Number.POSITIVE_INFINITY);
    expect(shownUntil([], NOW)).toBe(Number.POSITIVE_INFINITY);
  });

  it('the earliest resolution (the latest public date of each resolved timeline) plus 7 days', () => {
    const list = [
      incident('a', 'RESOLVED', '2026-03-01T00:00:00.000Z', '2026-03-05T00:00:00.000Z'),
      incident('b', 'RESOLVED', '2026-03-04T00:00:00.000Z', '2026-03-02T00:00:00.000Z'),
      incident('c', 'MONITORING', '2026-02-01T00:00:00.000Z'),
    ];
    expect(shownUntil(list, NOW)).toBe(Date.parse('2026-03-04T00:00:00.000Z') + RESOLVED_INCIDENT_WINDOW_MS);
  });

  it('a resolved incident without a readable timeline makes the list unusable beyond now', () => {
    expect(shownUntil([incident('a', 'RESOLVED')], NOW)).toBe(NOW);
    expect(shownUntil([incident('a', 'RESOLVED', 'not a date')], NOW)).toBe(NOW);
    const withoutTimeline = { id: 'x', created_at: '', services: [], lastUpdateStatus: 'RESOLVED' };
    expect(shownUntil([withoutTimeline], NOW)).toBe(NOW);
  });
});

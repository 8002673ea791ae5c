import { InMemoryReadStore } from '../../../read-store/src/in-memory.read-store';
import { RECENT_CHECK_INCIDENTS, RecentCheckIncidents } from './recent-check-incidents';

const T = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();

describe('RecentCheckIncidents', () => {
  let store: InMemoryReadStore;
  let recent: RecentCheckIncidents;

  beforeEach(() => {
    store = new InMemoryReadStore();
    recent = new RecentCheckIncidents(store);
  });

  it('keeps the opened incident, then its resolution, reopenable within the flap window', async () => {
    await recent.opened('a', 'c', 'i1', at(0), false, 'f1');
    expect(await recent.reopenable('c', at(1))).toBeNull();
    await recent.resolved((await recent.get('c'))!, at(5));
    expect(await recent.get('c')).toMatchObject({ incidentId: 'i1', resolvedAt: at(5), outageKey: 'f1' });
    expect(await recent.reopenable('c', at(6))).toBe('i1');
  });

  it('ignores a replayed or older write', async () => {
    await recent.opened('a', 'c', 'i1', at(0), false, 'f1');
    const opened = (await recent.get('c'))!;
    await recent.resolved(opened, at(5));
    await recent.opened('a', 'c', 'i1', at(0), false, 'f1');
    await recent.resolved(opened, at(3));
    expect(await recent.get('c')).toMatchObject({ resolvedAt: at(5) });
  });

  it('resolves at the very time it opened, but not the other way round', async () => {
    await recent.opened('a', 'c', 'i1', at(0), false, 'f1');
    await recent.resolved((await recent.get('c'))!, at(0));
    await recent.opened('a', 'c', 'i2', at(0), false, 'f2');
    expect(await recent.get('c')).toMatchObject({ incidentId: 'i1', resolvedAt: at(0) });
  });

  it('orders against a record that kept its event time as revision', async () => {
    await store.ensureCollection({ name: RECENT_CHECK_INCIDENTS, indexes: [] });
    await store.put(RECENT_CHECK_INCIDENTS, { id: 'c', accountId: 'a', incidentId: 'i1', resolvedAt: null, reopened: false }, BigInt(T + 60_000) * 2n);
    await recent.opened('a', 'c', 'i0', at(0), false, 'f0');
    expect(await recent.get('c')).toMatchObject({ incidentId: 'i1' });
    await recent.resolved((await recent.get('c'))!, at(2));
    expect(await recent.get('c')).toMatchObject({ incidentId: 'i1', resolvedAt: at(2) });
  });
});

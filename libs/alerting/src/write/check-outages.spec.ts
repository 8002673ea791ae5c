import { InMemoryReadStore } from '../../../read-store/src/in-memory.read-store';
import { FailedData, PingReceivedData } from '../../../heartbeats/src/heartbeats.api';
import { CheckOutages, OUTAGES } from './check-outages';

const check = { id: 'c1', accountId: 'a1' };
const failed = (eventId: string, first: boolean, deadline = '2026-03-01T10:00:00.000Z'): FailedData => ({ eventId, checkId: 'c1', deadline, first });
const ping = (recoveredFrom: string, at = '2026-03-01T10:30:00.000Z'): PingReceivedData => ({ eventId: 'p', checkId: 'c1', state: 'RECEIVED', at, source: null, userAgent: null, recoveredFrom });

describe('CheckOutages', () => {
  let store: InMemoryReadStore;
  let outages: CheckOutages;

  beforeEach(() => {
    store = new InMemoryReadStore();
    outages = new CheckOutages(store);
  });

  it('opens an outage on a first FAILING and counts the later ones', async () => {
    expect(await outages.follow(check, 10n, failed('f1', true))).toMatchObject({ outageId: 'f1', startedAt: '2026-03-01T10:00:00.000Z', failedRuns: 1, recoveredAt: null });
    expect(await outages.follow(check, 11n, failed('f2', false, '2026-03-01T10:05:00.000Z'))).toMatchObject({ outageId: 'f1', failedRuns: 2 });
  });

  it('gives a FAILING handled again what its first pass stored, without counting it twice', async () => {
    await outages.follow(check, 10n, failed('f1', true));
    await outages.follow(check, 11n, failed('f2', false));
    expect(await outages.follow(check, 11n, failed('f2', false))).toMatchObject({ failedRuns: 2 });
    expect(await outages.get('c1')).toMatchObject({ failedRuns: 2 });
  });

  it('follows nothing once a later event has moved the outage on', async () => {
    await outages.follow(check, 10n, failed('f1', true));
    await outages.follow(check, 12n, failed('f2', false));
    expect(await outages.follow(check, 11n, failed('f1b', false))).toBeNull();
    expect(await outages.get('c1')).toMatchObject({ failedRuns: 2 });
  });

  it('follows no outage that was never opened, or has recovered', async () => {
    expect(await outages.follow(check, 5n, failed('f0', false))).toBeNull();
    await outages.follow(check, 10n, failed('f1', true));
    await outages.recover(11n, ping('f1'));
    expect(await outages.follow(check, 12n, failed('f2', false))).toBeNull();
  });

  it('recovers only the outage the ping names, keeping the first recovery time', async () => {
    await outages.follow(check, 10n, failed('f1', true));
    expect(await outages.recover(11n, ping('other'))).toBeNull();
    expect(await outages.recover(12n, ping('f1'))).toMatchObject({ outageId: 'f1', recoveredAt: '2026-03-01T10:30:00.000Z', failedRuns: 1 });
    expect(await outages.recover(12n, ping('f1', '2026-03-01T11:00:00.000Z'))).toMatchObject({ recoveredAt: '2026-03-01T10:30:00.000Z' });
  });

  it('reads a record stored with its position as revision as applied at that position', async () => {
    await store.ensureCollection({ name: OUTAGES, indexes: [] });
    await store.put(OUTAGES, { id: 'c1', accountId: 'a1', outageId: 'f1', startedAt: '2026-03-01T10:00:00.000Z', failedRuns: 2, recoveredAt: null }, 21n);
    expect(await outages.follow(check, 20n, failed('f2', false))).toMatchObject({ failedRuns: 2 });
    expect(await outages.follow(check, 19n, failed('f0', false))).toBeNull();
    expect(await outages.follow(check, 22n, failed('f3', false))).toMatchObject({ failedRuns: 3 });
  });

  it('lets one of two racing first passes open the outage, and the other agree with it', async () => {
    const other = new CheckOutages(store);
    const [one, two] = await Promise.all([outages.follow(check, 10n, failed('f1', true)), other.follow(check, 10n, failed('f1', true))]);
    expect(one).toMatchObject({ failedRuns: 1 });
    expect(two).toMatchObject({ failedRuns: 1 });
  });
});

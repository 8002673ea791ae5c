import { ManualClock } from '../../libs/core/src/clock';
import { EventRetention } from '../../libs/heartbeats/src/write/event-retention';
import { PROJECTION_ENGINE } from '../../libs/platform/src/tokens';
import { ProjectionEngine } from '../../libs/read-store/src/projection-engine';
import { openSharedStores } from '../../libs/testing/src/production-shaped-stores';
import { startTestServer } from '../../libs/testing/src/test-server';

const DAY = 86_400_000;
const DAYS = 40;
const START = Date.parse('2026-04-01T00:00:00.000Z');

/**
 * Retention prunes raw heartbeat events after VIGIL_EVENT_RETENTION_DAYS; a rebuild of the rollups from
 * the pruned log still gives every day of uptime history (each day's rollups were kept as an event before
 * its raw events went), on the embedded engine and on production-shaped ones.
 */
describe('uptime history across retention and a rebuild', () => {
  // Each rebuild waits out the engine's switch and retire graces (6 s, twice per store set-up): the two set-ups run at once.
  it.concurrent.each([
    ['embedded SQLite', false],
    ['production-shaped in-memory stores, API instance beside a worker', true],
  ])('keeps every day after the raw events of the oldest days are pruned and the rollups rebuilt (%s)', async (_name, shared) => {
    const clock = new ManualClock(new Date(START + 8 * 3_600_000).toISOString());
    const stores = shared ? await openSharedStores(false) : null;
    const env: Record<string, string> = { VIGIL_EVENT_RETENTION_DAYS: '30', ...(shared ? { VIGIL_DAEMON: 'off' } : {}) };
    const server = await startTestServer({ clock, env, openStores: stores?.openStores });
    try {
      const account = await server.account();
      const created = await server.http.post('/v1/checks/heartbeat', { name: 'daily', heartbeat: { period: 1, periodUnit: 'days', grace: 1, graceUnit: 'days' } }, { key: account.key });
      const { id, heartbeat } = created.body as { id: string; heartbeat: { pingToken: string } };
      for (let day = 0; day < DAYS; day++) {
        if (day > 0) clock.advance(DAY);
        expect((await server.http.get(`/ping/${heartbeat.pingToken}`)).status).toBe(200);
      }
      const perDay = async () => {
        const counts: number[] = [];
        for (let day = 0; day < DAYS; day++) {
          const window = `startTime=${new Date(START + day * DAY).toISOString()}&endTime=${new Date(START + (day + 1) * DAY).toISOString()}`;
          const availability = await server.http.get(`/v1/checks/heartbeats/${id}/availability?${window}`, { key: account.key });
          counts.push(availability.body.totalEntitiesCurrentPeriod);
        }
        return counts;
      };
      const everyDayOnce = Array.from({ length: DAYS }, () => 1);
      expect(await perDay()).toEqual(everyDayOnce);

      // Past retention: the raw events of the first days go.
      clock.advance(DAY);
      expect(await server.app.get(EventRetention).runOnce()).toBeGreaterThanOrEqual(9);
      const window = `startTime=${new Date(START).toISOString()}&endTime=${clock.now().toISOString()}`;
      const events = (await server.http.get(`/v1/checks/heartbeats/${id}/events?${window}`, { key: account.key })).body[0].events;
      expect(events.length).toBeLessThan(DAYS);
      expect(await perDay()).toEqual(everyDayOnce);

      await server.app.get<ProjectionEngine>(PROJECTION_ENGINE).rebuild(['heartbeat_rollups']);
      expect(await perDay()).toEqual(everyDayOnce);

      // A second retention run keeps nothing twice, and another rebuild still has every day.
      await server.app.get(EventRetention).runOnce();
      await server.app.get<ProjectionEngine>(PROJECTION_ENGINE).rebuild(['heartbeat_rollups']);
      expect(await perDay()).toEqual(everyDayOnce);
    } finally {
      await server.close();
      await stores?.close();
    }
  }, 120_000);
});

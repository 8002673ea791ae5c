import { ManualClock } from '../../libs/core/src/clock';
import { RunRetention } from '../../libs/monitors/src/monitors.api';
import { PROJECTION_ENGINE } from '../../libs/platform/src/tokens';
import { ProjectionEngine } from '../../libs/read-store/src/projection-engine';
import { openSharedStores } from '../../libs/testing/src/production-shaped-stores';
import { startTestServer } from '../../libs/testing/src/test-server';

const DAY = 86_400_000;
const DAYS = 40;
const START = Date.parse('2026-04-01T00:00:00.000Z');

/**
 * Raw monitor runs are pruned after VIGIL_EVENT_RETENTION_DAYS; the daily and hourly rollups stay, and
 * a rebuild of the rollups from the pruned log still has every day (each kept before its runs went).
 */
describe('monitor rollups across retention and a rebuild', () => {
  // Each rebuild waits out the engine's switch and retire graces (6 s, twice per store set-up): the two set-ups run at once.
  it.concurrent.each([
    ['embedded SQLite', false],
    ['production-shaped in-memory stores', true],
  ])('keeps every day of a daily monitor after its oldest runs are pruned and the rollups rebuilt (%s)', async (_name, shared) => {
    const clock = new ManualClock(new Date(START + 8 * 3_600_000).toISOString());
    const stores = shared ? await openSharedStores(false) : null;
    const server = await startTestServer({ clock, env: { VIGIL_EVENT_RETENTION_DAYS: '30', ...(shared ? { VIGIL_DAEMON: 'off' } : {}) }, openStores: stores?.openStores });
    try {
      const account = await server.account();
      const { runnerKey } = (await server.http.post('/v1/runner-keys', { location: 'lab' }, { key: account.key })).body;
      const monitor = await server.http.post('/v1/checks/url', { name: 'daily', frequency: 1440, locations: ['lab'], request: { url: 'https://example.com' } }, { key: account.key });
      expect(monitor.status).toBe(201);
      const id = monitor.body.id as string;
      const report = (roundAt: string, total: number) =>
        server.http.post('/v1/runners/results', { runner: 'r1', location: 'lab', results: [{ monitorId: id, roundAt, startedAt: roundAt, outcome: 'PASS', timings: { total }, error: null, networkError: false, attempt: 1, final: true }] }, { headers: { authorization: `Bearer ${runnerKey}` } });
      for (let day = 0; day < DAYS; day++) {
        if (day > 0) clock.advance(DAY);
        const answer = await report(clock.now().toISOString(), 10 + day);
        expect(answer.body).toEqual({ accepted: 1, rejected: [] });
      }
      const daily = async () => {
        const res = await server.http.get(`/v1/checks/url/${id}/rollups?granularity=daily&from=${new Date(START).toISOString()}&to=${clock.now().toISOString()}`, { key: account.key });
        return (res.body.entries as { at: string; runs: number }[]).map((e) => e.runs);
      };
      const everyDayOnce = Array.from({ length: DAYS }, () => 1);
      expect(await daily()).toEqual(everyDayOnce);

      // Past retention: the runs of the first days go, and with them their check results.
      clock.advance(DAY);
      expect(await server.app.get(RunRetention).runOnce()).toBeGreaterThanOrEqual(9);
      const results = await server.http.get(`/v2/check-results/${id}?limit=100`, { key: account.key });
      expect(results.body.entries.length).toBeLessThan(DAYS);
      expect(results.body.entries.length).toBeGreaterThanOrEqual(30);
      expect(await daily()).toEqual(everyDayOnce);

      await server.app.get<ProjectionEngine>(PROJECTION_ENGINE).rebuild(['monitor_rollups']);
      expect(await daily()).toEqual(everyDayOnce);

      // A second pass keeps nothing twice; another rebuild still has every day.
      await server.app.get(RunRetention).runOnce();
      await server.app.get<ProjectionEngine>(PROJECTION_ENGINE).rebuild(['monitor_rollups']);
      expect(await daily()).toEqual(everyDayOnce);
    } finally {
      await server.close();
      await stores?.close();
    }
  }, 120_000);
});

import { ManualClock } from '../../../core/src/clock';
import { loadConfig } from '../../../platform/src/config';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { newEventId, timestampOfEventId } from '../../../core/src/ids';
import { heartbeatRollupsProjection, heartbeatTimersProjection, HOUR_MS, LAST_RUNS_KEPT, lastRunsOf, RollupDoc, rollupId, TimerDoc } from './heartbeat.projections';
import { HeartbeatStats } from './heartbeat-stats';
import { EVENT_STATES, HeartbeatEvent, PingState } from '../domain/heartbeat.events';

const CHECK = '01900000-0000-7000-8000-0000000000c1';
const STREAM = `heartbeat-${CHECK}`;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MIN = 60_000;

const schedule: HeartbeatEvent = {
  type: 'HeartbeatScheduleChanged',
  data: { checkId: CHECK, pingToken: 'tok', periodMs: 5 * MIN, graceMs: MIN, activated: true, deleted: false, restartAt: null, checkRevision: 0 },
};
const ping = (at: number, state: PingState = 'RECEIVED'): HeartbeatEvent => ({
  type: 'HeartbeatPingReceived',
  data: { eventId: newEventId(at), checkId: CHECK, state, at: new Date(at).toISOString(), source: 'https://ci.example', userAgent: 'curl' },
});
const failed = (deadline: number): HeartbeatEvent => ({
  type: 'HeartbeatFailed',
  data: { eventId: newEventId(deadline), checkId: CHECK, deadline: new Date(deadline).toISOString(), first: true },
});

describe('heartbeat keys', () => {
  it('a UUID v7 event id carries its timestamp', () => {
    expect(timestampOfEventId(newEventId(T0 + 123))).toBe(T0 + 123);
  });
  it('other UUIDs carry none', () => {
    expect(timestampOfEventId('6f1c5e8a-3b1d-4c2e-9f00-000000000000')).toBeNull();
    expect(timestampOfEventId('not-a-uuid')).toBeNull();
  });
  it('rollup ids name the check, the granularity and the bucket start', () => {
    expect(rollupId(CHECK, 'h', T0)).toBe(`${CHECK}|h|${T0}`);
    expect(rollupId(CHECK, 'h', Date.parse('2001-09-09T01:46:40.000Z')) < rollupId(CHECK, 'h', Date.parse('2286-11-20T17:46:39.000Z'))).toBe(true);
  });
});

describe('heartbeat timers projection', () => {
  it('given a schedule and a ping, then the timer has a deadline one period + grace after the ping', () => {
    const docs = project(heartbeatTimersProjection, recorded(STREAM, [schedule, ping(T0)]));
    expect(docs.get(CHECK)).toMatchObject({ id: CHECK, deadline: T0 + 6 * MIN, streamRevision: 1, everPinged: true, failing: false });
  });

  it('given a FAILING, then the next deadline is one period + grace after the missed one', () => {
    const docs = project(heartbeatTimersProjection, recorded(STREAM, [schedule, ping(T0), failed(T0 + 6 * MIN)]));
    expect(docs.get(CHECK)).toMatchObject({ deadline: T0 + 12 * MIN, failing: true, streamRevision: 2 });
  });

  it('given a document written before schedules and run signals, then a ping still keeps a period timer', () => {
    const [first, second] = recorded(STREAM, [schedule, ping(T0)]);
    const fresh = heartbeatTimersProjection.evolve(null, first!, CHECK)!;
    const { schedule: _s, timezone: _t, nextDueAt: _n, paused: _p, runs: _r, ...old } = fresh;
    const doc = heartbeatTimersProjection.evolve(old as TimerDoc, second!, CHECK);
    expect(doc).toMatchObject({ deadline: T0 + 6 * MIN, schedule: null, runs: [], paused: false });
  });
});

describe('heartbeat timers projection: last runs', () => {
  it('given pings and a FAILING, then the timer holds their states newest first', () => {
    const docs = project(heartbeatTimersProjection, recorded(STREAM, [schedule, ping(T0), ping(T0 + MIN, 'LATE'), failed(T0 + 7 * MIN)]));
    expect(lastRunsOf(docs.get(CHECK)!)).toEqual(['FAILING', 'LATE', 'RECEIVED']);
  });

  it('given more runs than it keeps, then only the newest are kept', () => {
    const pings = Array.from({ length: LAST_RUNS_KEPT + 3 }, (_, i) => ping(T0 + i * MIN, i === LAST_RUNS_KEPT + 2 ? 'GRACE' : 'RECEIVED'));
    const doc = project(heartbeatTimersProjection, recorded(STREAM, [schedule, ...pings])).get(CHECK)!;
    expect(lastRunsOf(doc)).toHaveLength(LAST_RUNS_KEPT);
    expect(lastRunsOf(doc)[0]).toBe('GRACE');
  });

  it('given a run signal and a log, then they are runs too; a document without runs has none', () => {
    const signal = (type: 'HeartbeatRunStarted' | 'HeartbeatLogged', at: number) => ({ type, data: { eventId: newEventId(at), checkId: CHECK, at: new Date(at).toISOString(), source: null, userAgent: null } }) as HeartbeatEvent;
    const docs = project(heartbeatTimersProjection, recorded(STREAM, [schedule, signal('HeartbeatRunStarted', T0), ping(T0 + 1000, 'EARLY'), signal('HeartbeatLogged', T0 + 2000)]));
    expect(lastRunsOf(docs.get(CHECK)!)).toEqual(['LOG', 'EARLY', 'STARTED']);
    expect(lastRunsOf(null)).toEqual([]);
  });

  it('given a schedule change, then no run is added', () => {
    const docs = project(heartbeatTimersProjection, recorded(STREAM, [schedule, ping(T0), schedule]));
    expect(lastRunsOf(docs.get(CHECK)!)).toEqual(['RECEIVED']);
  });
});

describe('heartbeat rollups projection', () => {
  it('counts per hour and per day and state', () => {
    const events = recorded(STREAM, [schedule, ping(T0), ping(T0 + 30 * MIN, 'LATE'), ping(T0 + 70 * MIN), failed(T0 + 90 * MIN)]);
    const docs = project(heartbeatRollupsProjection, events);
    expect(docs.get(rollupId(CHECK, 'h', T0))).toMatchObject({ total: 2, counts: { RECEIVED: 1, LATE: 1, FAILING: 0 } });
    expect(docs.get(rollupId(CHECK, 'h', T0 + HOUR_MS))).toMatchObject({ total: 2, counts: { RECEIVED: 1, FAILING: 1 } });
    expect(docs.get(rollupId(CHECK, 'd', Date.parse('2026-03-01T00:00:00.000Z')))).toMatchObject({ total: 4, counts: { FAILING: 1 } });
  });

  it('keeps the counts per minute in the hour document, and leaves the document it was given unchanged', () => {
    const events = recorded(STREAM, [schedule, ping(T0 + 5 * MIN), ping(T0 + 5 * MIN + 1000, 'LATE'), failed(T0 + 7 * MIN)]);
    const docs = project(heartbeatRollupsProjection, events);
    const hour = docs.get(rollupId(CHECK, 'h', T0))!;
    expect(hour).toEqual({
      id: rollupId(CHECK, 'h', T0),
      checkId: CHECK,
      granularity: 'h',
      bucket: '2026-03-01T10:00:00.000Z',
      total: 3,
      counts: { EARLY: 0, RECEIVED: 1, GRACE: 0, LATE: 1, FAILING: 1 },
      minutes: { '5': [2, 0, 1], '7': [1, 1, 3] },
    });
    expect(Object.keys(hour.counts)).toEqual([...EVENT_STATES]);
    expect(docs.get(rollupId(CHECK, 'd', Date.parse('2026-03-01T00:00:00.000Z')))!.minutes).toBeUndefined();
    expect(docs.size).toBe(2);
    const before = JSON.stringify(hour);
    const [hourId] = heartbeatRollupsProjection.ids(events[1]);
    heartbeatRollupsProjection.evolve(hour, { ...events[1], revision: 9n }, hourId);
    expect(JSON.stringify(hour)).toBe(before);
  });

  it('reads each event afresh when the engine moves between events (ids of one, evolve of another)', () => {
    const [, a, b] = recorded(STREAM, [schedule, ping(T0, 'EARLY'), ping(T0 + 2 * HOUR_MS, 'LATE')]);
    const idsA = heartbeatRollupsProjection.ids(a);
    const idsB = heartbeatRollupsProjection.ids(b);
    expect(idsA).not.toEqual(idsB);
    expect(heartbeatRollupsProjection.evolve(null, a, idsA[0])).toMatchObject({ bucket: '2026-03-01T10:00:00.000Z', counts: { EARLY: 1, LATE: 0 } });
    expect(heartbeatRollupsProjection.evolve(null, b, idsB[0])).toMatchObject({ bucket: '2026-03-01T12:00:00.000Z', counts: { EARLY: 0, LATE: 1 } });
  });
});

describe.each(HARNESS_ADAPTERS)('heartbeat read models through the engine (%s)', (adapter) => {
  let harness: ProjectionHarness;
  beforeEach(async () => {
    harness = await ProjectionHarness.start(adapter, [heartbeatTimersProjection, heartbeatRollupsProjection]);
  });
  afterEach(() => harness.close());

  it('counts a replayed event once (rollups and events are not updated twice)', async () => {
    await harness.append(STREAM, [schedule, ping(T0), ping(T0 + MIN)]);
    await harness.replayAll();
    expect((await harness.get<RollupDoc>('heartbeat_rollups', rollupId(CHECK, 'h', T0)))?.doc.total).toBe(2);
    expect((await harness.get<TimerDoc>('heartbeat_timers', CHECK))?.revision).toBe(2n);
  });

  it('answers counts equal to a brute-force count for windows at every alignment', async () => {
    // 400 events over ~3 days at irregular times, one in 7 a FAILING.
    const times: number[] = [];
    let at = T0 - 26 * HOUR_MS;
    for (let i = 0; i < 400; i++) {
      at += ((i * 7919) % 997) * 1000 + 1000;
      times.push(at);
    }
    const events = times.map((t, i) => (i % 7 === 0 ? failed(t) : ping(t)));
    await harness.append(STREAM, [schedule, ...events]);
    const clock = new ManualClock(new Date(at + HOUR_MS));
    const stats = new HeartbeatStats(harness.readStore, harness.eventStore, harness.engine, clock, loadConfig({}));
    const brute = (from: number, to: number) => {
      const inside = times.map((t, i) => ({ t, failing: i % 7 === 0 })).filter((e) => e.t >= from && e.t < to);
      return { total: inside.length, failing: inside.filter((e) => e.failing).length };
    };
    const windows: [number, number][] = [
      [times[0], times[399] + 1],
      [T0, T0 + HOUR_MS],
      [T0 + 1, T0 + HOUR_MS - 1],
      [T0 - 25 * HOUR_MS + 17, T0 + 30 * HOUR_MS + 5],
      [Date.parse('2026-03-01T00:00:00.000Z'), Date.parse('2026-03-02T00:00:00.000Z')],
      [times[10], times[10] + 1],
      [times[10] + 1, times[11]],
    ];
    for (let i = 0; i < 20; i++) {
      const a = times[(i * 37) % 400] - ((i * 131) % 5000);
      const b = times[(i * 53 + 100) % 400] + ((i * 71) % 7000);
      windows.push([Math.min(a, b), Math.max(a, b) + 1]);
    }
    for (const [from, to] of windows) expect({ window: [from, to], ...(await stats.counts(CHECK, from, to)) }).toEqual({ window: [from, to], ...brute(from, to) });
  });

  it('lists events newest first within a window, both ends included', async () => {
    await harness.append(STREAM, [schedule, ping(T0), ping(T0 + MIN), failed(T0 + 2 * MIN), ping(T0 + 3 * MIN)]);
    const stats = new HeartbeatStats(harness.readStore, harness.eventStore, harness.engine, new ManualClock(new Date(T0 + 10 * MIN)), loadConfig({}));
    const listed = await stats.events(CHECK, { start: T0 + MIN, end: T0 + 3 * MIN }, 10);
    expect(listed.map((e) => [e.timestamp, e.state])).toEqual([
      [new Date(T0 + 3 * MIN).toISOString(), 'RECEIVED'],
      [new Date(T0 + 2 * MIN).toISOString(), 'FAILING'],
      [new Date(T0 + MIN).toISOString(), 'RECEIVED'],
    ]);
    expect(await stats.events(CHECK, { start: T0, end: T0 + 3 * MIN }, 2)).toHaveLength(2);
  });

  it('finds a window anywhere in a long stream, an event by its id, and nothing once pruned', async () => {
    const times = Array.from({ length: 500 }, (_, i) => T0 + i * MIN);
    await harness.append(STREAM, [schedule, ...times.map((t, i) => (i % 50 === 49 ? failed(t) : ping(t)))]);
    const stats = new HeartbeatStats(harness.readStore, harness.eventStore, harness.engine, new ManualClock(new Date(T0 + 600 * MIN)), loadConfig({}));
    const listed = await stats.events(CHECK, { start: times[97], end: times[100] - 1 }, 10);
    expect(listed.map((e) => e.timestamp)).toEqual([times[99], times[98], times[97]].map((t) => new Date(t).toISOString()));
    expect(listed[0].state).toBe('FAILING');
    const [{ id }] = await stats.events(CHECK, { start: times[123], end: times[123] }, 1);
    expect(await stats.event(CHECK, id)).toMatchObject({ id, timestamp: new Date(times[123]).toISOString(), state: 'RECEIVED' });
    expect(await stats.event(CHECK, newEventId(times[123]))).toBeNull();
    // The harness records every event as occurring on 2026-01-01: pruning goes by that.
    await harness.eventStore.pruneStream!(STREAM, new Date('2025-12-31T00:00:00.000Z'));
    expect(await stats.event(CHECK, id)).not.toBeNull();
    await harness.eventStore.pruneStream!(STREAM, new Date('2026-01-02T00:00:00.000Z'));
    expect(await stats.events(CHECK, { start: T0, end: times[499] }, 10)).toEqual([]);
    expect(await stats.event(CHECK, id)).toBeNull();
  });
});

import { ManualClock } from '../../../core/src/clock';
import { DomainEvent } from '../../../core/src/event';
import { loadConfig } from '../../../platform/src/config';
import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { HeartbeatEventDoc, heartbeatEventsProjection } from './heartbeat-events.projection';
import { bucketName, eventDocId, eventTime, HOUR_MS, isoOf, newEventId, rollupId, rollupIdsAt, timestampOfEventId } from './heartbeat-keys';
import { HeartbeatEvent } from '../domain/heartbeat-timer';
import { heartbeatRollupsProjection, RollupDoc } from './heartbeat-rollups.projection';
import { HeartbeatStats } from './heartbeat-stats';
import { heartbeatTimersProjection, TimerDoc } from './heartbeat-timers.projection';
import { EVENT_STATES } from '../domain/heartbeat-timer';

const CHECK = '01900000-0000-7000-8000-0000000000c1';
const STREAM = `heartbeat-${CHECK}`;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const MIN = 60_000;

const schedule: DomainEvent = {
  type: 'HeartbeatScheduleChanged',
  data: { checkId: CHECK, pingToken: 'tok', periodMs: 5 * MIN, graceMs: MIN, activated: true, deleted: false, restartAt: null, checkRevision: 0 },
};
const ping = (at: number, state = 'RECEIVED'): DomainEvent => ({
  type: 'HeartbeatPingReceived',
  data: { eventId: newEventId(at), checkId: CHECK, state, at: new Date(at).toISOString(), source: 'https://ci.example', userAgent: 'curl' },
});
const failed = (deadline: number): DomainEvent => ({
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
  it('a timestamp in toISOString form is kept; any other is formatted from its time', () => {
    const text = '2026-03-01T10:00:00.000Z';
    expect(isoOf(Date.parse(text), text)).toBe(text);
    expect(isoOf(T0, '2026-03-01T11:00:00+01:00')).toBe(text);
    expect(isoOf(T0, '2026-03-01T10:00:00Z')).toBe(text);
    expect(isoOf(T0)).toBe(text);
    expect(eventDocId(CHECK, false, T0, 'e', '2026-03-01T11:00:00+01:00')).toBe(eventDocId(CHECK, false, T0, 'e'));
  });
  it("an event's time is its ping's `at` or its failure's deadline, for each event in turn", () => {
    const [pinged, failure, scheduled] = recorded(STREAM, [ping(T0 + 5), failed(T0 + 6 * MIN), schedule]) as unknown as HeartbeatEvent[];
    expect(eventTime(pinged)).toBe(T0 + 5);
    expect(eventTime(failure)).toBe(T0 + 6 * MIN);
    expect(eventTime(scheduled)).toBeNull();
    expect(eventTime(pinged)).toBe(T0 + 5);
  });
  it('bucket names are the ISO form of the bucket start, also once the name cache was emptied', () => {
    for (let hour = 0; hour < 5000; hour++) expect(bucketName(T0 + hour * HOUR_MS)).toBe(new Date(T0 + hour * HOUR_MS).toISOString());
    expect(rollupId(CHECK, 'h', T0)).toBe(`${CHECK}|h|2026-03-01T10:00:00.000Z`);
  });
  it("a check's rollup ids at a time are its hour's and its day's, the same until the hour or the day changes", () => {
    const first = rollupIdsAt(CHECK, T0 + 5 * MIN);
    expect(first).toMatchObject({ hourId: rollupId(CHECK, 'h', T0), dayId: rollupId(CHECK, 'd', Date.parse('2026-03-01T00:00:00.000Z')) });
    expect(rollupIdsAt(CHECK, T0 + 59 * MIN)).toBe(first);
    const nextHour = rollupIdsAt(CHECK, T0 + HOUR_MS);
    expect(nextHour).toMatchObject({ hourId: rollupId(CHECK, 'h', T0 + HOUR_MS), dayId: first.dayId });
    // Back in time (a replay): the ids of that time again, not the last ones made.
    expect(rollupIdsAt(CHECK, T0 - 20 * HOUR_MS)).toMatchObject({ hourId: rollupId(CHECK, 'h', T0 - 20 * HOUR_MS), dayId: rollupId(CHECK, 'd', Date.parse('2026-02-28T00:00:00.000Z')) });
    expect(rollupIdsAt('another-check', T0).hourId).toBe(rollupId('another-check', 'h', T0));
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
});

describe('heartbeat events projection', () => {
  it('writes one document per ping and failure, keyed for range reads', () => {
    const events = recorded(STREAM, [schedule, ping(T0, 'EARLY'), failed(T0 + 6 * MIN)]);
    const docs = project(heartbeatEventsProjection, events);
    expect(docs.size).toBe(2);
    const p = events[1].data as { eventId: string };
    expect(docs.get(eventDocId(CHECK, false, T0, p.eventId))).toEqual({
      id: eventDocId(CHECK, false, T0, p.eventId),
      eventId: p.eventId,
      checkId: CHECK,
      state: 'EARLY',
      timestamp: new Date(T0).toISOString(),
      source: 'https://ci.example',
      userAgent: 'curl',
    });
    const f = [...docs.values()].find((d) => d.state === 'FAILING')!;
    expect(f).toMatchObject({ source: 'watchdog', userAgent: null, timestamp: new Date(T0 + 6 * MIN).toISOString() });
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

  it('keeps a count per minute in hourly documents only, and leaves the document it was given unchanged', () => {
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
      minutes: { '5': [2, 0], '7': [1, 1] },
    });
    expect(Object.keys(hour.counts)).toEqual([...EVENT_STATES]);
    expect(docs.get(rollupId(CHECK, 'd', Date.parse('2026-03-01T00:00:00.000Z')))!.minutes).toBeUndefined();
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
    const [eventIdA] = heartbeatEventsProjection.ids(a);
    heartbeatEventsProjection.ids(b);
    expect(heartbeatEventsProjection.evolve(null, a, eventIdA)).toMatchObject({ id: eventIdA, state: 'EARLY' });
  });
});

describe.each(HARNESS_ADAPTERS)('heartbeat read models through the engine (%s)', (adapter) => {
  let harness: ProjectionHarness;
  beforeEach(async () => {
    harness = await ProjectionHarness.start(adapter, [heartbeatTimersProjection, heartbeatEventsProjection, heartbeatRollupsProjection]);
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
    const stats = new HeartbeatStats(harness.readStore, harness.engine, clock, loadConfig({}));
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
    const stats = new HeartbeatStats(harness.readStore, harness.engine, new ManualClock(new Date(T0 + 10 * MIN)), loadConfig({}));
    const listed = await stats.events(CHECK, { start: T0 + MIN, end: T0 + 3 * MIN }, 10);
    expect(listed.map((e) => [e.timestamp, e.state])).toEqual([
      [new Date(T0 + 3 * MIN).toISOString(), 'RECEIVED'],
      [new Date(T0 + 2 * MIN).toISOString(), 'FAILING'],
      [new Date(T0 + MIN).toISOString(), 'RECEIVED'],
    ]);
    expect(await stats.events(CHECK, { start: T0, end: T0 + 3 * MIN }, 2)).toHaveLength(2);
  });
});

import { ManualClock } from '../../../core/src/clock';
import { DomainEvent } from '../../../core/src/event';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { loadConfig } from '../../../platform/src/config';
import { pingCommand } from '../http/ping-request';
import { HeartbeatCommandHandler, RunHeartbeatCommand } from '../write/heartbeat.handler';
import { PingTargets } from './ping-targets';
import { HeartbeatStats } from './heartbeat-stats';
import { InMemoryEventStore } from '../../../event-store/src/in-memory.event-store';
import { InMemoryReadStore } from '../../../read-store/src/in-memory.read-store';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { ReadStore } from '../../../read-store/src/read-store.port';
import { newEventId } from '../../../core/src/ids';
import { CheckConfig, checkStream } from '../domain/heartbeat-check.decider';
import { heartbeatChecksProjection } from './heartbeat-checks.projection';
import { heartbeatRollupsProjection, heartbeatTimersProjection } from './heartbeat.projections';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const stats = (store: ReadStore, events: InMemoryEventStore, engine: ProjectionEngine, clock: ManualClock) => new HeartbeatStats(store, events, engine, clock, loadConfig({}));
const CHECKS = 100;
const PINGS = 10_000;
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/** Counts every call the engine makes to the read store: on MongoDB each is one round trip. */
function counting(store: ReadStore): { store: ReadStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(name), (calls.get(String(name)) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

describe('the projection daemon batches its read-store calls (production: MongoDB round trips per ping)', () => {
  it(`given ${PINGS} pings to ${CHECKS} checks, when the daemon catches up, then it makes at most 0.1 read-store calls per ping`, async () => {
    const events = new InMemoryEventStore();
    const checkId = (i: number) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    for (let i = 0; i < CHECKS; i++) {
      const schedule: DomainEvent = {
        type: 'HeartbeatScheduleChanged',
        data: { checkId: checkId(i), pingToken: `tok-${i}`, periodMs: 60_000, graceMs: 0, activated: true, deleted: false, restartAt: null, checkRevision: 0 },
      };
      await events.appendToStream(`heartbeat-${checkId(i)}`, [{ ...schedule, data: schedule.data as Record<string, unknown>, metadata: { accountId: 'acc', occurredAt: new Date(T0).toISOString() } }]);
    }
    for (let n = 0; n < PINGS; n++) {
      const at = T0 + 1000 + n * 100;
      const id = checkId(n % CHECKS);
      await events.appendToStream(`heartbeat-${id}`, [
        {
          type: 'HeartbeatPingReceived',
          data: { eventId: newEventId(at), checkId: id, state: 'RECEIVED', at: new Date(at).toISOString(), source: null, userAgent: null },
          metadata: { accountId: 'acc', occurredAt: new Date(at).toISOString() },
        },
      ]);
    }
    const { store, calls } = counting(new InMemoryReadStore());
    const engine = new ProjectionEngine(store, events, [heartbeatTimersProjection, heartbeatRollupsProjection], silent);
    await engine.start();
    calls.clear();

    await engine.catchUp();

    const total = [...calls.values()].reduce((sum, n) => sum + n, 0);
    expect(calls.get('writeAll')).toBeGreaterThan(0);
    expect(total / PINGS).toBeLessThanOrEqual(0.1);
    const timers = await store.find(engine.collection(heartbeatTimersProjection), { limit: CHECKS + 1 });
    expect(timers).toHaveLength(CHECKS);
  });
});

describe('an API instance applies its own pings without the daemon (production: MongoDB round trips per ping request)', () => {
  const API_PINGS = 2_000;

  it(`given ${CHECKS} checks the worker has applied, when ${API_PINGS} pings arrive, then each costs a bounded number of read-store calls`, async () => {
    const events = new InMemoryEventStore();
    const readStore = new InMemoryReadStore();
    const checkId = (i: number) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    const projections = [heartbeatChecksProjection, heartbeatTimersProjection, heartbeatRollupsProjection];
    for (let i = 0; i < CHECKS; i++) {
      const metadata = { accountId: 'acc', occurredAt: new Date(T0).toISOString() };
      const config: CheckConfig = {
        name: `c${i}`,
        activated: true,
        muted: false,
        tags: [],
        description: null,
        heartbeat: { period: 1, periodUnit: 'minutes', grace: 0, graceUnit: 'minutes', pingToken: `tok-${i}` },
        triggerIncident: null,
        alertSettings: null,
        alertChannelSubscriptions: [],
      };
      await events.appendToStream(checkStream(checkId(i)), [{ type: 'HeartbeatCheckCreated', data: { id: checkId(i), accountId: 'acc', config }, metadata }]);
      const data = { checkId: checkId(i), pingToken: `tok-${i}`, periodMs: 60_000, graceMs: 0, activated: true, deleted: false, restartAt: null, checkRevision: 0 };
      await events.appendToStream(`heartbeat-${checkId(i)}`, [{ type: 'HeartbeatScheduleChanged', data, metadata }]);
    }
    const worker = new ProjectionEngine(readStore, events, projections, silent);
    await worker.start();
    await worker.catchUp();

    const { store, calls } = counting(readStore);
    const api = new ProjectionEngine(store, events, projections, silent);
    await api.start();
    const clock = new ManualClock(new Date(T0));
    const targets = new PingTargets(store, api);
    const heartbeats = new HeartbeatCommandHandler(new CommandRunner(events, clock, api), store, api);
    calls.clear();
    for (let n = 0; n < API_PINGS; n++) {
      clock.set(new Date(T0 + 1000 + n * 100));
      const timer = (await targets.timerOfToken(`tok-${n % CHECKS}`))!;
      const ping = pingCommand({ source: null, userAgent: null }, clock.now().getTime());
      await heartbeats.execute(new RunHeartbeatCommand(timer.id, ping, { accountId: timer.accountId ?? null }, timer));
    }

    // The generations' metadata is re-read by time (at most every 2 s), not per ping: a slow run may see one.
    expect(calls.get('getMeta') ?? 0).toBeLessThanOrEqual(Math.ceil(API_PINGS / 10));
    calls.delete('getMeta');
    const perPing = Object.fromEntries([...calls].map(([name, n]) => [name, n / API_PINGS]));
    // The token lookup (a check's first ping finds the check by index, every ping reads the timer by key),
    // then one read of the touched documents of both projections and one write; a check's first ping of
    // the hour finds its rollups absent: the checkpoint, then those documents again.
    const firsts = CHECKS / API_PINGS;
    expect(perPing).toEqual({ find: firsts, get: 1, getManyOf: 1, getMany: firsts, writeAll: 1, getCheckpoint: firsts });
    const total = await stats(store, events, api, clock).counts(checkId(7), T0, T0 + 1000 + API_PINGS * 100);
    expect(total).toEqual({ total: API_PINGS / CHECKS, failing: 0 });
  });
});

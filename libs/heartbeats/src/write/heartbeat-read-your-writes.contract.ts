import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../core/src/clock';
import { Projection } from '../../../core/src/projection';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { ReadStore } from '../../../read-store/src/read-store.port';
import { loadConfig } from '../../../platform/src/config';
import { heartbeatStream } from '../domain/heartbeat.decider';
import { heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { newEventId } from '../../../core/src/ids';
import { HeartbeatStats } from '../read/heartbeat-stats';
import { heartbeatRollupsProjection, heartbeatTimersProjection, TimerDoc } from '../read/heartbeat.projections';
import { pingCommand } from '../http/ping-request';
import { CheckConfig, checkStream } from '../domain/heartbeat-check.decider';
import { CheckDirectory } from '../read/check-directory';
import { CheckIndex } from '../read/check-index';
import { PingTargets } from '../read/ping-targets';
import { HeartbeatCommandHandler, RunHeartbeatCommand } from './heartbeat.handler';

/**
 * One deployment's engine pair, as an API instance sees it: its event store, its read store and its
 * projection engine (started by the contract). `daemon` is the engine of another process sharing the
 * stores (the worker), whose daemon the contract runs beside the writes; null where the API instance
 * applies everything itself (embedded).
 */
export interface EnginePairFixture {
  eventStore: EventStore;
  readStore: ReadStore;
  engine: ProjectionEngine;
  daemon: ProjectionEngine | null;
  cleanup(): Promise<void>;
}

export type EnginePairFactory = (projections: Projection[]) => Promise<EnginePairFixture>;

const PROJECTIONS = [heartbeatChecksProjection, heartbeatTimersProjection, heartbeatRollupsProjection];
const T0 = Date.parse('2026-03-01T10:58:00.000Z');
const MINUTE = 60_000;

/**
 * Contract §1 read-your-writes for heartbeat writes (pings and the watchdog's FAILING are the writes
 * that start from a snapshot, not from the stream's history): once the command has returned, the
 * timer and the availability counts show it, on any engine pair, whether the worker's daemon applies
 * the same events at the same time, later, or not at all.
 */
export function heartbeatReadYourWritesContract(pairName: string, factory: EnginePairFactory): void {
  describe(`heartbeat read-your-writes: ${pairName}`, () => {
    let pair: EnginePairFixture;
    let clock: ManualClock;
    let heartbeats: HeartbeatCommandHandler;
    let targets: PingTargets;
    let stats: HeartbeatStats;
    let daemon: { stop(): Promise<void> } | null;
    let checkId: string;

    const startDaemon = () => {
      if (!pair.daemon) return null;
      const abort = new AbortController();
      // Polling without pause: the daemon applies the same events as the writes, as often as it can.
      const running = pair.daemon.run(abort.signal, 1);
      return {
        async stop() {
          abort.abort();
          await running;
        },
      };
    };

    const timer = async () => (await pair.readStore.get<TimerDoc>(pair.engine.collection(heartbeatTimersProjection), checkId))?.doc ?? null;
    const counts = () => stats.counts(checkId, T0 - 2 * 24 * 60 * MINUTE, clock.now().getTime() + 1);
    const ping = async () => {
      const current = await targets.timerOf(checkId);
      expect(current).not.toBeNull();
      const ping = pingCommand({ source: '127.0.0.1', userAgent: 'contract' }, clock.now().getTime());
      return heartbeats.execute(new RunHeartbeatCommand(checkId, ping, { accountId: current!.accountId ?? null }, current!));
    };

    beforeEach(async () => {
      pair = await factory(PROJECTIONS);
      await pair.engine.start();
      await pair.daemon?.start();
      clock = new ManualClock(new Date(T0));
      const runner = new CommandRunner(pair.eventStore, clock, pair.engine);
      heartbeats = new HeartbeatCommandHandler(runner, pair.readStore, pair.engine);
      targets = new PingTargets(pair.readStore, pair.engine);
      stats = new HeartbeatStats(pair.readStore, pair.eventStore, pair.engine, clock, loadConfig({}));
      // Unique per run: the production servers keep their streams between runs.
      checkId = randomUUID();
      // The check's schedule, as the check commands copy it: the first write of the stream has its whole history.
      const schedule = {
        type: 'HeartbeatScheduleChanged',
        data: { checkId, pingToken: `ryw-token-${checkId}`, periodMs: 10 * MINUTE, graceMs: 0, activated: true, deleted: false, restartAt: null, checkRevision: 0 },
        metadata: { accountId: 'acc-ryw', occurredAt: new Date(T0).toISOString() },
      };
      const { events } = await pair.eventStore.appendToStream(heartbeatStream(checkId), [schedule], { expectedRevision: 'no_stream' });
      await pair.engine.applyAfterAppend([], events);
      daemon = null;
    });

    afterEach(async () => {
      await daemon?.stop();
      await pair.cleanup();
    });

    it('shows every ping in the timer and the availability counts as soon as the ping returns, while the daemon applies them too', async () => {
      daemon = startDaemon();
      // Across a minute, an hour and the documents' first writes.
      for (let n = 1; n <= 30; n++) {
        clock.advance(7_000);
        const { appended } = await ping();
        expect(appended).toHaveLength(1);
        const doc = await timer();
        expect(doc).toMatchObject({ lastPingAt: clock.now().getTime(), streamRevision: n });
        expect(await counts()).toEqual({ total: n, failing: 0 });
      }
    });

    it("shows the watchdog's FAILING at once: the timer fails and the counts hold it", async () => {
      daemon = startDaemon();
      clock.advance(MINUTE);
      await ping();
      const before = await timer();
      clock.set(new Date(before!.deadline! + 1000));
      const fail = { type: 'Fail' as const, eventId: newEventId(before!.deadline!), deadline: before!.deadline! };
      const { appended } = await heartbeats.execute(new RunHeartbeatCommand(checkId, fail, { accountId: 'acc-ryw', keyName: 'watchdog' }));
      expect(appended).toHaveLength(1);
      expect(await timer()).toMatchObject({ failing: true, streamRevision: 2 });
      expect(await counts()).toEqual({ total: 2, failing: 1 });
    });

    it("shows each ping in the console's check list at once, and a write it has not applied once the daemon has", async () => {
      const config: CheckConfig = {
        name: 'ryw',
        activated: true,
        muted: false,
        tags: [],
        description: null,
        heartbeat: { period: 10, periodUnit: 'minutes', grace: 0, graceUnit: 'minutes', pingToken: `ryw-token-${checkId}` },
        triggerIncident: null,
        alertSettings: null,
        alertChannelSubscriptions: [],
      };
      const metadata = { accountId: 'acc-ryw', occurredAt: new Date(T0).toISOString() };
      const created = await pair.eventStore.appendToStream(checkStream(checkId), [{ type: 'HeartbeatCheckCreated', data: { id: checkId, accountId: 'acc-ryw', config }, metadata }]);
      await pair.engine.applyAfterAppend([], created.events);
      const directory = new CheckDirectory(pair.readStore, pair.engine, loadConfig({}), clock);
      const index = new CheckIndex(pair.readStore, pair.eventStore, pair.engine, clock, directory);
      const shown = async () => (await index.page('acc-ryw', {}, 0, 50)).checks.find((c) => c.id === checkId);
      expect(await shown()).toMatchObject({ lastPingAt: null, lastRuns: [] });
      for (let n = 1; n <= 3; n++) {
        clock.advance(7_000);
        await ping();
        const check = await shown();
        expect(check!.lastPingAt).toBe(clock.now().toISOString());
        expect(check!.lastRuns).toHaveLength(n);
      }
      // Another writer's ping, appended and not applied here: shown once the daemon (if any) has applied it.
      const at = clock.now().getTime() + 1000;
      const data = { eventId: newEventId(at), checkId, state: 'LATE', at: new Date(at).toISOString(), source: null, userAgent: null };
      await pair.eventStore.appendToStream(heartbeatStream(checkId), [{ type: 'HeartbeatPingReceived', data, metadata: { accountId: 'acc-ryw', occurredAt: data.at } }]);
      if (!pair.daemon) return;
      await pair.daemon.catchUp();
      expect((await shown())!.lastRuns[0]).toBe('LATE');
    });

    it('shows pings at once while no daemon runs, into documents the daemon has not caught up', async () => {
      // Pings appended without being applied (another writer that crashed after its append) while the
      // daemon never ran: the new hour's documents are absent but not new, then behind.
      const appendUnapplied = async (at: number) => {
        const data = { eventId: newEventId(at), checkId, state: 'RECEIVED', at: new Date(at).toISOString(), source: null, userAgent: null };
        await pair.eventStore.appendToStream(heartbeatStream(checkId), [{ type: 'HeartbeatPingReceived', data, metadata: { accountId: 'acc-ryw', occurredAt: data.at } }]);
      };
      const hour = T0 + 2 * MINUTE;
      for (let n = 1; n <= 3; n++) await appendUnapplied(hour + n * 10_000);
      clock.set(new Date(hour + 31_000));
      await ping();
      expect(await timer()).toMatchObject({ lastPingAt: clock.now().getTime(), streamRevision: 4 });
      expect(await counts()).toEqual({ total: 4, failing: 0 });
      clock.advance(MINUTE);
      await ping();
      expect(await counts()).toEqual({ total: 5, failing: 0 });
      await appendUnapplied(clock.now().getTime() + 1000);
      clock.advance(2000);
      await ping();
      expect(await timer()).toMatchObject({ lastPingAt: clock.now().getTime(), streamRevision: 7 });
      expect(await counts()).toEqual({ total: 7, failing: 0 });

      // The daemon, when it comes, changes nothing and counts nothing twice.
      await pair.daemon?.catchUp();
      expect(await counts()).toEqual({ total: 7, failing: 0 });
    });
  });
}

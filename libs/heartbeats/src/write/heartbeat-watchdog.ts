import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { CLOCK, Clock } from '../../../core/src/clock';
import { newEventId } from '../../../core/src/ids';
import { sleep } from '../../../core/src/sleep';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore, StoredDoc } from '../../../read-store/src/read-store.port';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { COMMAND_RUNNER, DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { HeartbeatCommand, rescheduleOf } from '../domain/heartbeat.decider';
import { CheckDoc, heartbeatChecksProjection } from '../read/heartbeat-checks.projection';
import { heartbeatTimersProjection, TimerDoc } from '../read/heartbeat.projections';
import { MaintenanceDirectory, WindowFilter } from '../../../maintenance/src/maintenance.api';
import { RunHeartbeatCommand } from './heartbeat.handler';

/** Due timers per query, all failed at once: the store batches their commits (10,000 due at one instant). */
const PAGE = 500;
/** The longest wait between passes without news: a safety poll, the next deadline is waited for exactly. */
export const WATCHDOG_IDLE_MS = 10_000;
/** A heartbeat event applied brings a pass within this: a burst of pings costs one pass, FAILING still lands within 2 s. */
const NEWS_MS = 500;
/** The shortest wait for a deadline just ahead (a frozen test clock must not make the loop spin). */
const MIN_WAIT_MS = 20;

/** When the maintenance covering an instant ends (null: none), from an account's windows read once. */
type MaintenanceEnds = (instant: Date, filter?: WindowFilter) => Date | null;

export interface WatchdogPass {
  /** FAILING events this pass wrote. */
  failed: number;
  /** Appends that lost a race (a ping, a reconfiguration, another watchdog). */
  conflicts: number;
  /** ms from the pass's end to the next deadline (null: none), so the next pass can start right after it. */
  nextDueInMs: number | null;
}

/**
 * Fails checks whose deadline has passed: asks the indexed `deadline` of the timers for what is
 * due and runs the decider's Fail, which a ping or another watchdog that got there first turns into
 * a conflict and then into nothing, so each deadline fails exactly once. The new
 * timer starts at the deadline, so a pass keeps going until nothing is due: deadlines missed while
 * no watchdog ran are caught up one FAILING each.
 * Where background work runs, one pass at start (before the server listens) catches up what was missed while
 * nothing ran; then a pass at the next deadline it knows of, on news of a heartbeat event applied here (an
 * append, or a page of the log the daemon applied), and every WATCHDOG_IDLE_MS at the latest.
 */
@Injectable()
export class HeartbeatWatchdog implements OnApplicationBootstrap, OnApplicationShutdown {
  private loop: BackgroundLoop | null = null;
  private unsubscribe = (): void => undefined;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly commands: CommandBus,
    private readonly maintenance: MaintenanceDirectory,
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.daemon) return;
    const caughtUp = await this.runOnce();
    if (caughtUp.failed > 0) this.logger.info({ failed: caughtUp.failed }, 'watchdog caught up missed deadlines');
    const untilNext = (pass: WatchdogPass) => (pass.nextDueInMs === null ? null : Math.max(MIN_WAIT_MS, pass.nextDueInMs + 1));
    const loop = new BackgroundLoop({ name: 'heartbeat watchdog', idleMs: WATCHDOG_IDLE_MS, firstMs: untilNext(caughtUp) ?? WATCHDOG_IDLE_MS, pass: async () => untilNext(await this.runOnce()), logger: this.logger, clock: this.clock });
    const moving = new Set<string>(heartbeatTimersProjection.handles);
    this.unsubscribe = this.engine.onApplied((events) => events.some((event) => moving.has(event.type)) && loop.wake(NEWS_MS));
    this.loop = loop;
    loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.unsubscribe();
    await this.loop?.stop();
  }

  /** One deterministic pass at the clock's now (tests call this directly). */
  async runOnce(): Promise<WatchdogPass> {
    const now = this.clock.now().getTime();
    const pass: WatchdogPass = { failed: 0, conflicts: 0, nextDueInMs: null };
    const skip = new Set<string>();
    const conflicts = new Map<string, number>();
    // Per pass, not longer: a window created meanwhile counts from the next pass (half a second later).
    const windows = new Map<string, Promise<MaintenanceEnds>>();
    for (;;) {
      const todo = (await this.byDeadline('lt', now, PAGE + skip.size)).filter((doc) => !skip.has(doc.id));
      if (todo.length === 0) {
        const [next] = await this.byDeadline('gte', now, 1);
        return { ...pass, nextDueInMs: next ? next.deadline! - this.clock.now().getTime() : null };
      }
      const stored = await this.store.getMany<CheckDoc>(this.engine.collection(heartbeatChecksProjection), todo.map((timer) => timer.id));
      const checks = new Map(stored.map((check) => [check.doc.id, check]));
      const outcomes = await Promise.all(todo.map((timer) => this.failOne(timer, checks.get(timer.id) ?? null, windows)));
      for (const [index, timer] of todo.entries()) {
        const outcome = outcomes[index];
        if (outcome === 'failed') pass.failed += 1;
        // A timer that could not move (a store error) waits for the next pass instead of spinning.
        if (outcome === 'stuck') skip.add(timer.id);
        if (outcome !== 'conflict') continue;
        pass.conflicts += 1;
        const seen = (conflicts.get(timer.id) ?? 0) + 1;
        conflicts.set(timer.id, seen);
        if (seen >= 3) skip.add(timer.id);
      }
    }
  }

  /** Timers by deadline, earliest first: those due before `now` (lt) or the next ones (gte). */
  private byDeadline(op: 'lt' | 'gte', now: number, limit: number): Promise<TimerDoc[]> {
    return this.store.find<TimerDoc>(this.engine.collection(heartbeatTimersProjection), {
      filters: [{ field: 'deadline', op, value: now }],
      sort: { field: 'deadline', direction: 'asc' },
      limit,
    });
  }

  private async failOne(timer: TimerDoc, stored: StoredDoc<CheckDoc> | null, windows: Map<string, Promise<MaintenanceEnds>>): Promise<'failed' | 'conflict' | 'synced' | 'stuck'> {
    try {
      if (!stored || Number(stored.revision) > timer.checkRevision) {
        // The configuration changed after the schedule was copied (a crash between the two appends):
        // bring the schedule up to date first; the next query sees the right deadline.
        return (await this.reschedule(timer.id)) ? 'synced' : 'stuck';
      }
      // Contract §4.1: a deadline inside a maintenance window of one of the check's tags fails nothing; the timer restarts at its end.
      const check = stored.doc;
      let ends = windows.get(check.accountId);
      if (!ends) windows.set(check.accountId, (ends = this.maintenance.maintenanceEnds(check.accountId)));
      const until = (await ends)(new Date(timer.deadline!), { tags: check.tags });
      // The timer just queried is the first snapshot: no second read, and a stale one only costs a stream read.
      const deadline = timer.deadline!;
      if (until) {
        if (await this.write(check.id, { type: 'DeferForMaintenance', deadline, until: until.getTime() }, check.accountId, timer)) return 'synced';
      } else if (await this.write(check.id, { type: 'Fail', eventId: newEventId(deadline), deadline }, check.accountId, timer)) return 'failed';
      // A ping or another watchdog moved the deadline first; production may need the daemon to catch up.
      await sleep(10);
      return 'conflict';
    } catch (error) {
      this.logger.error({ err: error, checkId: timer.id }, 'watchdog could not write FAILING');
      return 'stuck';
    }
  }

  /** True when the command wrote something; `timer`, just queried, is the first snapshot. */
  private async write(checkId: string, command: HeartbeatCommand, accountId: string | null, timer?: TimerDoc): Promise<boolean> {
    const actor: Actor = { accountId, keyName: 'watchdog' };
    const { appended } = await this.commands.execute(new RunHeartbeatCommand(checkId, command, actor, timer));
    return appended.length > 0;
  }

  /** Copies the check's configuration onto its timer; idempotent, so retries and other instances converge. */
  private async reschedule(checkId: string): Promise<boolean> {
    const check = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
    const command = rescheduleOf(checkId, check.state, check.revision, this.clock.now());
    return command !== null && (await this.write(checkId, command, check.state.accountId));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { newEventId } from '../../../core/src/ids';
import { iso } from '../../../core/src/time';
import { Actor, CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { HeartbeatCommand, heartbeatDecider, HeartbeatEvent, heartbeatStream, TimerState } from '../domain/heartbeat.decider';
import { CheckDoc } from '../read/heartbeat-checks.projection';
import { TimerDoc, timerSnapshot } from '../read/heartbeat.projections';

/**
 * Every write to `heartbeat-<id>` (the watchdog's failures, pauses, schedule copies; pings in
 * ping.routes.ts) is a command of the heartbeat decider run by the shared command runner, starting
 * from the timer document as a snapshot: the decision sees every committed event, and a conflict is
 * decided again.
 */
@Injectable()
export class HeartbeatCommands {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Restarts the timer at `until` (a maintenance's end) instead of failing `deadline`; true when written. `timer`: the watchdog's copy, the first snapshot. */
  async deferForMaintenance(check: CheckDoc, deadline: number, until: number, timer?: TimerDoc): Promise<boolean> {
    const command: HeartbeatCommand = { type: 'DeferForMaintenance', deadline, until };
    const { appended } = await this.run(check.id, command, { accountId: check.accountId, keyName: 'watchdog' }, timer);
    return appended.length > 0;
  }

  /** Stops the timer until the next ping; false when the check has no running timer (deactivated, deleted). */
  async pause(checkId: string, actor: Actor): Promise<boolean> {
    const command: HeartbeatCommand = { type: 'Pause', at: iso(this.clock.now().getTime()) };
    const { appended } = await this.run(checkId, command, actor);
    return appended.length > 0;
  }

  /** Fails `deadline` unless a ping or another watchdog moved it first; true when this call wrote the FAILING. `timer`: as above. */
  async fail(check: CheckDoc, deadline: number, timer?: TimerDoc): Promise<boolean> {
    const command: HeartbeatCommand = { type: 'Fail', eventId: newEventId(deadline), deadline };
    const { appended } = await this.run(check.id, command, { accountId: check.accountId, keyName: 'watchdog' }, timer);
    return appended.length > 0;
  }

  /** Copies the check's configuration onto its timer; idempotent, so retries and other instances converge. */
  async reschedule(checkId: string, actor: Actor): Promise<boolean> {
    const check = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
    if (check.revision === null || !check.state.accountId) return false;
    const config = check.state.status === 'active' ? check.state.config : null;
    const command: HeartbeatCommand = { type: 'Reschedule', checkId, config, checkRevision: Number(check.revision), at: this.clock.now() };
    const { appended } = await this.run(checkId, command, { ...actor, accountId: check.state.accountId });
    return appended.length > 0;
  }

  private run(checkId: string, command: HeartbeatCommand, actor: Actor, first?: TimerDoc): Promise<RunResult<TimerState, HeartbeatEvent>> {
    return this.runner.run(heartbeatStream(checkId), heartbeatDecider, command, actor, { snapshot: timerSnapshot(this.store, this.engine, checkId, first) });
  }
}

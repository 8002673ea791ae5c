import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { HeartbeatCommand, heartbeatDecider, heartbeatStream } from '../domain/heartbeat.decider';
import { HeartbeatEvent } from '../domain/heartbeat.events';
import { TimerState } from '../domain/heartbeat-timer';
import { TimerDoc, timerSnapshot } from '../read/heartbeat.projections';

export type HeartbeatRun = RunResult<TimerState, HeartbeatEvent>;

/** A command of a check's timer; `timer`, a timer document the caller has just read, is the first snapshot. */
export class RunHeartbeatCommand extends AggregateCommand<HeartbeatCommand, HeartbeatRun> {
  constructor(
    readonly checkId: string,
    command: HeartbeatCommand,
    actor: Actor,
    readonly timer?: TimerDoc,
  ) {
    super(command, actor);
  }
}

/**
 * Every write to `heartbeat-<id>` (pings, the watchdog's failures and deferrals, pauses, schedule copies),
 * starting from the timer document as a snapshot: the decision sees every committed event, and a conflict
 * is decided again.
 */
@CommandHandler(RunHeartbeatCommand)
export class HeartbeatCommandHandler implements ICommandHandler<RunHeartbeatCommand, HeartbeatRun> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  execute({ checkId, command, actor, ifMatch, timer }: RunHeartbeatCommand): Promise<HeartbeatRun> {
    const snapshot = timerSnapshot(this.store, this.engine, checkId, timer);
    return this.runner.run(heartbeatStream(checkId), heartbeatDecider, command, actor, { ifMatch, snapshot });
  }
}

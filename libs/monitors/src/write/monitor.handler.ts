import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { MonitorCommand, monitorDecider, MonitorEvent, MonitorState, monitorStream } from '../domain/monitor.decider';
import { monitorsProjection } from '../read/monitors.projection';

export type MonitorRunResult = RunResult<MonitorState, MonitorEvent>;

/** Who records runs: no one, in the metadata. The stream names the monitor, and a run event must stay under 100 bytes. */
export const RUN_ACTOR = { accountId: null };

export class RunMonitorCommand extends AggregateCommand<MonitorCommand, MonitorRunResult> {}

/** The one writer of monitor streams. The monitor's document is the snapshot, so a run does not read the stream's history. */
@CommandHandler(RunMonitorCommand)
export class MonitorCommandHandler implements ICommandHandler<RunMonitorCommand, MonitorRunResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  execute({ command, actor, ifMatch }: RunMonitorCommand): Promise<MonitorRunResult> {
    const snapshot = async () => {
      const stored = await this.store.get(this.engine.collection(monitorsProjection), command.id);
      return stored ? { state: stored.doc.state, revision: stored.revision } : null;
    };
    return this.runner.run(monitorStream(command.id), monitorDecider, command, actor, { ifMatch, snapshot });
  }
}

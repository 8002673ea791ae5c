import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore, StoredDoc } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { ValidationError } from '../../../core/src/errors';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import { MonitorCommand, monitorDecider, MonitorEvent, MonitorState, monitorStream } from '../domain/monitor.decider';
import { MonitorDoc, monitorsProjection } from '../read/monitors.projection';
import { MonitorLinks } from './monitor-links';

export type MonitorRunResult = RunResult<MonitorState, MonitorEvent>;

/** Who records runs: no one, in the metadata. The stream names the monitor, and a run event must stay under 100 bytes. */
export const RUN_ACTOR = { accountId: null };

/** A command of a monitor; `monitor`, its document as the caller has just read it, is the first snapshot. */
export class RunMonitorCommand extends AggregateCommand<MonitorCommand, MonitorRunResult> {
  constructor(
    command: MonitorCommand,
    actor: Actor,
    ifMatch?: bigint,
    readonly monitor?: StoredDoc<MonitorDoc>,
  ) {
    super(command, actor, ifMatch);
  }
}

/** The one writer of monitor streams. The monitor's document is the snapshot, so a run does not read the stream's history. */
@CommandHandler(RunMonitorCommand)
export class MonitorCommandHandler implements ICommandHandler<RunMonitorCommand, MonitorRunResult> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    private readonly services: ServiceDirectory,
    private readonly links: MonitorLinks,
  ) {}

  async execute({ command, actor, ifMatch, monitor }: RunMonitorCommand): Promise<MonitorRunResult> {
    if (command.type === 'CreateMonitor' || command.type === 'UpdateMonitor') {
      // What the config names must be the account's: its incident's service and its alert channels.
      const serviceId = command.config.triggerIncident?.serviceId;
      if (serviceId && !(await this.services.get(command.accountId, serviceId))) {
        throw ValidationError.of([{ path: 'triggerIncident.serviceId', message: 'must name an existing service of this account' }]);
      }
      await this.links.validate(command.accountId, command.config);
    }
    let given = monitor?.doc.id === command.id ? monitor : undefined;
    const snapshot = async () => {
      const stored = given ?? (await this.store.get(this.engine.collection(monitorsProjection), command.id));
      given = undefined;
      return stored ? { state: stored.doc.state, revision: stored.revision } : null;
    };
    return this.runner.run(monitorStream(command.id), monitorDecider, command, actor, { ifMatch, snapshot });
  }
}

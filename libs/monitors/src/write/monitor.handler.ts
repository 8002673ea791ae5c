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
import { MonitorRounds, monitorRoundsDecider } from '../domain/monitor-rounds.decider';
import { configOf, MonitorDoc, monitorsProjection } from '../read/monitors.projection';
import { MonitorStateDoc, monitorStatesProjection } from '../read/monitor-states.projection';
import { MonitorLinks } from './monitor-links';

export type MonitorRunResult = RunResult<MonitorState | MonitorRounds, MonitorEvent>;

/** Who records runs: no one, in the metadata. The stream names the monitor, and a run event must stay under 100 bytes. */
export const RUN_ACTOR = { accountId: null };

/** A command of a monitor; `monitor`, its state document as the caller has just read it, is a run's first snapshot. */
export class RunMonitorCommand extends AggregateCommand<MonitorCommand, MonitorRunResult> {
  constructor(
    command: MonitorCommand,
    actor: Actor,
    ifMatch?: bigint,
    readonly monitor?: StoredDoc<MonitorStateDoc>,
  ) {
    super(command, actor, ifMatch);
  }
}

/**
 * The one writer of monitor streams. Nothing reads a stream's history: a run is decided on its monitor's small
 * state document (the rounds decider), a configuration change on that and the configuration document together.
 */
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
    const stream = monitorStream(command.id);
    if (command.type === 'RecordMonitorRun') {
      let given = monitor?.doc.id === command.id ? monitor : undefined;
      const snapshot = async () => {
        const stored = given ?? (await this.store.get(this.engine.collection(monitorStatesProjection), command.id));
        given = undefined;
        return stored ? { state: stored.doc.rounds, revision: stored.revision } : null;
      };
      return this.runner.run(stream, monitorRoundsDecider, command, actor, { ifMatch, snapshot });
    }
    if (command.type === 'CreateMonitor' || command.type === 'UpdateMonitor') {
      // What the config names must be the account's: its incident's service and its alert channels.
      const serviceId = command.config.triggerIncident?.serviceId;
      if (serviceId && !(await this.services.get(command.accountId, serviceId))) {
        throw ValidationError.of([{ path: 'triggerIncident.serviceId', message: 'must name an existing service of this account' }]);
      }
      await this.links.validate(command.accountId, command.config);
    }
    return this.runner.run(stream, monitorDecider, command, actor, { ifMatch, snapshot: () => this.snapshot(command.id) });
  }

  /** The whole state from both documents, when they reflect the same configuration event; otherwise the stream decides. */
  private async snapshot(id: string): Promise<{ state: MonitorState; revision: bigint } | null> {
    const [[config], [state]] = (await this.store.getManyOf([
      { collection: this.engine.collection(monitorsProjection), ids: [id] },
      { collection: this.engine.collection(monitorStatesProjection), ids: [id] },
    ])) as [StoredDoc<MonitorDoc>[], StoredDoc<MonitorStateDoc>[]];
    if (!config || !state || BigInt(state.doc.configRevision) !== config.revision) return null;
    const { id: known, accountId, deleted, status, statusSince, round, outage } = state.doc.rounds;
    return { state: { id: known, accountId, deleted, config: configOf(config.doc), status, statusSince, round, outage }, revision: state.revision };
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { IncidentCommand, incidentDecider, IncidentEvent, IncidentState, incidentStream } from '../domain/incident.decider';
import { IncidentDirectory } from '../read/incident-directory';

export class RunIncidentCommand extends AggregateCommand<IncidentCommand, RunResult<IncidentState, IncidentEvent>> {}

/**
 * Every write to `incident-<id>`, from the incident's document as a snapshot (creation has none yet), so a
 * write folds only what the document has not seen.
 */
@CommandHandler(RunIncidentCommand)
export class IncidentCommandHandler implements ICommandHandler<RunIncidentCommand> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly incidents: IncidentDirectory,
  ) {}

  execute({ command, actor, ifMatch }: RunIncidentCommand): Promise<RunResult<IncidentState, IncidentEvent>> {
    const snapshot = command.type === 'CreateIncident' ? undefined : this.incidents.snapshot(command.id);
    return this.runner.run(incidentStream(command.id), incidentDecider, command, actor, { ifMatch, snapshot });
  }
}

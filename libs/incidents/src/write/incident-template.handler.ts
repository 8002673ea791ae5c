import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationError } from '../../../core/src/errors';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ServiceDirectory } from '../../../status-pages/src/status-pages.api';
import {
  IncidentTemplateCommand,
  incidentTemplateDecider,
  IncidentTemplateEvent,
  IncidentTemplateState,
  incidentTemplateStream,
} from '../domain/incident-template.decider';
import { checkServiceRefs } from './service-refs';

export class RunIncidentTemplateCommand extends AggregateCommand<IncidentTemplateCommand, RunResult<IncidentTemplateState, IncidentTemplateEvent>> {}

/** Every write to `incidenttemplate-<id>`; the services a template names must be the account's, each once, when it is saved. */
@CommandHandler(RunIncidentTemplateCommand)
export class IncidentTemplateCommandHandler implements ICommandHandler<RunIncidentTemplateCommand> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
  ) {}

  async execute({ command, actor, ifMatch }: RunIncidentTemplateCommand): Promise<RunResult<IncidentTemplateState, IncidentTemplateEvent>> {
    const stream = incidentTemplateStream(command.id);
    if (command.type === 'ReplaceIncidentTemplate') {
      // A missing or foreign template is a 404 before its services are looked at, so a 400 never confirms an id.
      incidentTemplateDecider.decide(command, (await this.runner.load(stream, incidentTemplateDecider)).state);
    }
    if (command.type !== 'DeleteIncidentTemplate') {
      const { details } = await checkServiceRefs(this.services, command.accountId, command.template.serviceIds);
      if (details.length > 0) throw ValidationError.of(details);
    }
    return this.runner.run(stream, incidentTemplateDecider, command, actor, { ifMatch });
  }
}

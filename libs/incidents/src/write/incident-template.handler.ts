import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
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
    if (command.type !== 'DeleteIncidentTemplate') await this.requireServices(command.accountId, command.template.serviceIds);
    return this.runner.run(stream, incidentTemplateDecider, command, actor, { ifMatch });
  }

  /** Every id names a service of this account, once (400 at `services[i].id`). */
  private async requireServices(accountId: string, serviceIds: string[]): Promise<void> {
    const details: ViolationDetail[] = [];
    const seen = new Map<string, number>();
    serviceIds.forEach((id, i) => {
      const path = `services[${i}].id`;
      if (!isUuid(id)) return void details.push({ path, message: 'id must be the id of a service of this account' });
      const first = seen.get(id.toLowerCase());
      if (first !== undefined) return void details.push({ path, message: `id duplicates services[${first}].id` });
      seen.set(id.toLowerCase(), i);
    });
    const found = seen.size > 0 ? await this.services.getMany(accountId, [...seen.keys()]) : new Map();
    for (const [id, i] of seen) if (!found.has(id)) details.push({ path: `services[${i}].id`, message: 'id names no service of this account' });
    if (details.length > 0) throw ValidationError.of(details.sort((a, b) => index(a.path) - index(b.path)));
  }
}

const index = (path: string) => Number(/\[(\d+)\]/.exec(path)?.[1] ?? 0);

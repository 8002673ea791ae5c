import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { VigilError } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { IncidentsQuery, IncidentTemplateView, IncidentView, RunIncidentCommand } from '../../../incidents/src/incidents.api';
import { Visit } from './console-access';

/** The incident pages' one way to the incidents context: its query for one incident, its command for every change. */
@Injectable()
export class IncidentActions {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** Sends the command; a refusal of the decider (4xx) is the form's error, anything else propagates. */
  async run(command: RunIncidentCommand['command'], visit: Visit): Promise<string | null> {
    try {
      await this.commands.execute(new RunIncidentCommand(command, visit.actor));
      return null;
    } catch (error) {
      if (error instanceof VigilError && error.statusCode < 500) return error.message;
      throw error;
    }
  }

  async incident(visit: Visit, id: string): Promise<IncidentView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncident', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.incident ?? null;
  }

  async template(visit: Visit, id: string): Promise<IncidentTemplateView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentTemplate', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.template ?? null;
  }

  /** The newest TEMPLATES_SHOWN templates by name, and whether there are more. */
  async templates(accountId: string): Promise<{ templates: IncidentTemplateView[]; more: boolean }> {
    const rows = await this.queries.execute(new IncidentsQuery({ type: 'ListIncidentTemplates', accountId, limit: TEMPLATES_SHOWN }));
    return { templates: rows.slice(0, TEMPLATES_SHOWN).sort((a, b) => a.name.localeCompare(b.name)), more: rows.length > TEMPLATES_SHOWN };
  }
}

/** Templates the console lists and offers to start from (the API pages through all). */
export const TEMPLATES_SHOWN = 100;

/** `?account=…&param` or `?param`: a redirect that keeps the chosen account. */
export const and = (visit: Visit, param: string) => (visit.chrome.q ? `${visit.chrome.q}&${param}` : `?${param}`);

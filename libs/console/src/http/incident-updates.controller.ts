import { Body, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { IncidentUpdateView, IncidentView, UPDATE_STATUSES } from '../../../incidents/src/incidents.api';
import { when } from '../read/console-reads';
import { ConsolePages } from '../render/console-pages';
import { ConsoleAccess, ConsoleController, seeOther, sendHtml, Visit } from './console-access';
import { and, IncidentActions } from './incident-actions';
import { choices, editCommand, FieldErrors, IncidentFormValues, localValue, readIncidentForm, updateErrors } from './incident-form';

/** Editing one update of an incident: its text, status and public date (never re-notifies subscribers). */
@ConsoleController('incidents/:id/updates/:updateId')
export class ConsoleIncidentUpdatesController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly actions: IncidentActions,
    private readonly pages: ConsolePages,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async show(@Param('id') id: string, @Param('updateId') updateId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const found = await this.find(visit, id, updateId);
    if (!found) return this.notFound(reply, visit);
    if (!visit.canWrite) return this.access.message(reply, 403, visit, 'Request refused', 'Your role on this account is READ_ONLY: you can see, not change.');
    const { incident, update } = found;
    const values = { ...readIncidentForm({}), status: update.status, description: update.description, at: localValue(update.publicIncidentUpdateDate) };
    return this.page(reply, 200, visit, incident, update, values, {});
  }

  @Post()
  async edit(@Param('id') id: string, @Param('updateId') updateId: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const found = await this.find(visit, id, updateId);
    if (!found) return this.notFound(reply, visit);
    const values = readIncidentForm(body);
    const errors = updateErrors(values, this.clock.now());
    if (Object.keys(errors).length > 0) return this.page(reply, 400, visit, found.incident, found.update, values, errors);
    const refused = await this.actions.run(editCommand(values, visit.accountId!, found.incident.id, found.update.id), visit);
    if (refused) return this.page(reply, 400, visit, found.incident, found.update, values, { description: refused });
    return seeOther(reply, `/console/incidents/${found.incident.id}${and(visit, 'notice=edited')}`);
  }

  private async find(visit: Visit, id: string, updateId: string): Promise<{ incident: IncidentView; update: IncidentUpdateView } | null> {
    if (!isUuid(updateId)) return null;
    const incident = await this.actions.incident(visit, id);
    const update = incident?.incidentUpdates.find((u) => u.id === updateId.toLowerCase());
    return incident && update ? { incident, update } : null;
  }

  private notFound(reply: FastifyReply, visit: Visit): FastifyReply {
    return this.access.message(reply, 404, visit, 'No such update', 'This account has no incident update at this address.');
  }

  private page(reply: FastifyReply, code: number, visit: Visit, incident: IncidentView, update: IncidentUpdateView, values: IncidentFormValues, errors: FieldErrors) {
    const view = {
      incident,
      updateId: update.id,
      posted: when(update.publicIncidentUpdateDate),
      values,
      errors: Object.keys(errors).length > 0 ? errors : undefined,
      statuses: choices(UPDATE_STATUSES, values.status),
    };
    return sendHtml(reply, code, this.pages.render('incident-update', { ...visit.chrome, title: `Edit an update – ${incident.name}`, nav: 'incidents' }, view));
  }
}

import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { VigilError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { Public } from '../../../http/src/account-context';
import { IncidentsQuery, IncidentView, RunIncidentCommand, SEVERITIES, UPDATE_STATUSES } from '../../../incidents/src/incidents.api';
import { ConsoleReads, when } from '../read/console-reads';
import { ConsolePages } from '../render/console-pages';
import { ConsoleAccess, seeOther, sendHtml, Visit } from './console-access';
import { choices, declarationErrors, declareCommand, FieldErrors, IncidentFormValues, readIncidentForm, updateCommand, updateErrors } from './incident-form';

const NOTICES: Record<string, string> = { declared: 'Incident declared.', posted: 'Update posted.', resolved: 'Incident resolved.' };
const BLANK: IncidentFormValues = { name: '', severity: 'MAJOR', services: [], status: 'INVESTIGATING', description: '', notify: true };

/** Incidents: the list, declaring one, an incident's timeline and its updates; every write a RunIncidentCommand. */
@Public()
@ApiExcludeController()
@Controller('console/incidents')
export class ConsoleIncidentsController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly pages: ConsolePages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Query('status') status: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit) return seeOther(reply, '/console/sign-in');
    return this.listPage(reply, 200, visit, status, BLANK, {});
  }

  @Post()
  async declare(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, reply, body);
    if (!visit) return reply;
    const accountId = visit.accountId!;
    const values = readIncidentForm(body);
    const known = new Set((await this.reads.services(accountId)).map((s) => s.id));
    const errors = declarationErrors(values, known);
    if (Object.keys(errors).length > 0) return this.listPage(reply, 400, visit, undefined, values, errors);
    const id = this.ids.next();
    const command = declareCommand(values, accountId, id, this.ids.next(), this.clock.now().toISOString());
    const refused = await this.run(command, visit);
    if (refused) return this.listPage(reply, 400, visit, undefined, values, { name: refused });
    return seeOther(reply, `/console/incidents/${id}${this.and(visit, 'notice=declared')}`);
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit) return seeOther(reply, '/console/sign-in');
    const incident = await this.incident(visit, id);
    if (!incident) return this.access.message(reply, 404, visit, 'No such incident', 'This account has no incident at this address.');
    const resolved = incident.lastUpdateStatus === 'RESOLVED';
    const values = { ...BLANK, status: resolved ? 'RESOLVED' : incident.lastUpdateStatus };
    return this.incidentPage(reply, 200, visit, incident, values, {}, typeof notice === 'string' ? NOTICES[notice] : undefined);
  }

  @Post(':id/updates')
  async post(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, reply, body);
    if (!visit) return reply;
    const incident = await this.incident(visit, id);
    if (!incident) return this.access.message(reply, 404, visit, 'No such incident', 'This account has no incident at this address.');
    const values = readIncidentForm(body);
    const errors = updateErrors(values);
    if (Object.keys(errors).length > 0) return this.incidentPage(reply, 400, visit, incident, values, errors);
    const refused = await this.run(updateCommand(values, visit.accountId!, incident.id, this.ids.next(), this.clock.now().toISOString()), visit);
    if (refused) return this.incidentPage(reply, 400, visit, incident, values, { description: refused });
    const notice = values.status === 'RESOLVED' ? 'resolved' : 'posted';
    return seeOther(reply, `/console/incidents/${incident.id}${this.and(visit, `notice=${notice}`)}`);
  }

  /** Sends the command; a refusal of the decider (4xx) is the form's error, anything else propagates. */
  private async run(command: RunIncidentCommand['command'], visit: Visit): Promise<string | null> {
    try {
      await this.commands.execute(new RunIncidentCommand(command, visit.actor));
      return null;
    } catch (error) {
      if (error instanceof VigilError && error.statusCode < 500) return error.message;
      throw error;
    }
  }

  private async incident(visit: Visit, id: string): Promise<IncidentView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncident', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.incident ?? null;
  }

  private and(visit: Visit, param: string): string {
    return visit.chrome.q ? `${visit.chrome.q}&${param}` : `?${param}`;
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, status: unknown, values: IncidentFormValues, errors: FieldErrors) {
    if (!visit.accountId) return this.access.message(reply, 200, visit, 'No account yet', 'You are not a member of any account.');
    const filter = status === 'open' || status === 'resolved' ? status : undefined;
    const [incidents, services] = await Promise.all([this.reads.incidents(visit.accountId, filter), this.reads.services(visit.accountId)]);
    const chosen = new Set(values.services);
    const view = {
      incidents: incidents.map((i) => ({ ...i, created: when(i.incidentUpdates[0]?.publicIncidentUpdateDate ?? i.created_at) })),
      status: filter,
      statusOpen: filter === 'open',
      statusResolved: filter === 'resolved',
      canWrite: visit.canWrite,
      values,
      errors: Object.keys(errors).length > 0 ? errors : undefined,
      severities: choices(SEVERITIES, values.severity),
      statuses: choices(UPDATE_STATUSES, values.status),
      serviceChoices: services.map((s) => ({ id: s.id, name: s.name, checked: chosen.has(s.id) })),
    };
    return sendHtml(reply, code, this.pages.render('incidents', { ...visit.chrome, title: 'Incidents', nav: 'incidents' }, view));
  }

  private incidentPage(reply: FastifyReply, code: number, visit: Visit, incident: IncidentView, values: IncidentFormValues, errors: FieldErrors, notice?: string) {
    // Updates come in timeline order; the page shows the newest first.
    const timeline = [...incident.incidentUpdates].reverse().map((u) => ({ ...u, when: when(u.publicIncidentUpdateDate) }));
    const view = {
      incident,
      timeline,
      resolved: incident.lastUpdateStatus === 'RESOLVED',
      canWrite: visit.canWrite,
      values,
      errors: Object.keys(errors).length > 0 ? errors : undefined,
      statuses: choices(UPDATE_STATUSES, values.status),
    };
    return sendHtml(reply, code, this.pages.render('incident', { ...visit.chrome, title: incident.name, nav: 'incidents', notice }, view));
  }
}

import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { RunServiceCommand, ServiceBodyDto, ServiceView, StatusPagesQuery } from '../../../status-pages/src/status-pages.api';
import { ConsoleReads } from '../read/console-reads';
import { ConsoleAccess, ConsoleController, fieldOf, Visit } from './console-access';
import { checkBody, FieldErrors, hasErrors, noticeOf, send, shownErrors } from './form-check';

const NOTICES: Record<string, string> = { added: 'Service added.', saved: 'Service saved.', deleted: 'Service deleted.' };
type Values = { name: string; description: string };

const readForm = (body: unknown): Values => ({ name: fieldOf(body, 'name'), description: fieldOf(body, 'description') });

/** Services: the list, adding, editing and deleting one; every write a RunServiceCommand, checked as the API checks it. */
@ConsoleController('services')
export class ConsoleServicesController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    return this.listPage(reply, 200, visit, { name: '', description: '' }, {}, noticeOf(NOTICES, notice));
  }

  @Post()
  async create(@Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const values = readForm(raw);
    const { body, errors } = await checkBody(ServiceBodyDto, values);
    if (hasErrors(errors)) return this.listPage(reply, 400, visit, values, errors);
    const command = { type: 'CreateService' as const, id: this.ids.next(), accountId: visit.accountId!, name: body.name, description: body.description ?? null };
    const refused = await send(this.commands, new RunServiceCommand(command, visit.actor), 'name');
    if (refused) return this.listPage(reply, 400, visit, values, refused);
    return this.access.done(reply, visit, '/console/services', 'notice=added');
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const service = await this.service(visit, id);
    if (!service) return this.access.message(reply, 404, visit, 'No such service', 'This account has no service at this address.');
    return this.servicePage(reply, 200, visit, service, { name: service.name, description: service.description ?? '' }, {}, noticeOf(NOTICES, notice));
  }

  @Post(':id')
  async update(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const service = await this.service(visit, id);
    if (!service) return this.access.message(reply, 404, visit, 'No such service', 'This account has no service at this address.');
    const values = readForm(raw);
    const { body, errors } = await checkBody(ServiceBodyDto, values);
    if (hasErrors(errors)) return this.servicePage(reply, 400, visit, service, values, errors);
    const command = { type: 'UpdateService' as const, id: service.id, accountId: visit.accountId!, name: body.name, description: body.description ?? null };
    const refused = await send(this.commands, new RunServiceCommand(command, visit.actor), 'name');
    if (refused) return this.servicePage(reply, 400, visit, service, values, refused);
    return this.access.done(reply, visit, `/console/services/${service.id}`, 'notice=saved');
  }

  @Post(':id/delete')
  async remove(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const service = await this.service(visit, id);
    if (!service) return this.access.message(reply, 404, visit, 'No such service', 'This account has no service at this address.');
    const refused = await send(this.commands, new RunServiceCommand({ type: 'DeleteService', id: service.id, accountId: visit.accountId! }, visit.actor), 'form');
    if (refused) return this.servicePage(reply, 409, visit, service, { name: service.name, description: service.description ?? '' }, {}, undefined, refused.form);
    return this.access.done(reply, visit, '/console/services', 'notice=deleted');
  }

  private async service(visit: Visit, id: string): Promise<ServiceView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new StatusPagesQuery({ type: 'GetService', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.service ?? null;
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, values: Values, errors: FieldErrors, notice?: string) {
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const services = (await this.reads.services(visit.accountId)).sort((a, b) => a.name.localeCompare(b.name));
    const view = { services, canWrite: visit.canWrite, values, errors: shownErrors(errors) };
    return this.access.render(reply, code, visit, 'services', { title: 'Services', nav: 'services', notice }, view);
  }

  private servicePage(reply: FastifyReply, code: number, visit: Visit, service: ServiceView, values: Values, errors: FieldErrors, notice?: string, deleteError?: string) {
    const view = { service, canWrite: visit.canWrite, values, errors: shownErrors(errors), deleteError };
    return this.access.render(reply, code, visit, 'service', { title: service.name, nav: 'services', notice }, view);
  }
}

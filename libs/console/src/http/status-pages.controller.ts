import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { CustomDomainChecks, RunStatusPageCommand, StatusPageBodyDto, StatusPageDetailView, StatusPagesQuery, THEME_COLOR_KEYS, toPageInput } from '../../../status-pages/src/status-pages.api';
import { ConsoleReads, LIST_LIMIT } from '../read/console-reads';
import { ConsoleAccess, ConsoleController, seeOther, Visit } from './console-access';
import { checkBody, FieldErrors, hasErrors, noticeOf, send, shownErrors, withParam } from './form-check';
import { formErrors, pageBody, pageValues, PageValues, readPageForm } from './status-page-form';

const NOTICES: Record<string, string> = { created: 'Status page created.', saved: 'Status page saved.', checked: 'Domain checked.' };

/** Status pages: the list, creating and editing one (details, custom domain, theme, cards); every write a RunStatusPageCommand. */
@ConsoleController('status-pages')
export class ConsoleStatusPagesController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly domains: CustomDomainChecks,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const pages = await this.queries.execute(new StatusPagesQuery({ type: 'ListStatusPages', accountId: visit.accountId, limit: LIST_LIMIT, after: undefined }));
    const view = { pages: pages.slice(0, LIST_LIMIT), canWrite: visit.canWrite };
    return this.access.render(reply, 200, visit, 'status-pages', { title: 'Status pages', nav: 'status-pages' }, view);
  }

  @Get('new')
  async blank(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    this.access.mayWrite(visit);
    return this.formPage(reply, 200, visit, null, pageValues(null, await this.reads.services(visit.accountId!)), {});
  }

  @Post()
  async create(@Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const id = this.ids.next();
    return this.save(reply, visit, null, raw, (page) => new RunStatusPageCommand({ type: 'CreateStatusPage', id, accountId: visit.accountId!, page }, visit.actor), `/console/status-pages/${id}${withParam(visit.chrome.q, 'notice=created')}`);
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const found = await this.page(visit, id);
    if (!found) return this.notFound(reply, visit);
    return this.formPage(reply, 200, visit, found.page, pageValues(found.page, await this.reads.services(visit.accountId!)), {}, noticeOf(NOTICES, notice));
  }

  @Post(':id')
  async update(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const found = await this.page(visit, id);
    if (!found) return this.notFound(reply, visit);
    const command = (page: ReturnType<typeof toPageInput>) => new RunStatusPageCommand({ type: 'UpdateStatusPage', id: found.page.id, accountId: visit.accountId!, page }, visit.actor, found.revision);
    return this.save(reply, visit, found.page, raw, command, `/console/status-pages/${found.page.id}${withParam(visit.chrome.q, 'notice=saved')}`);
  }

  @Post(':id/domain-check')
  async checkDomain(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const found = await this.page(visit, id);
    if (!found) return this.notFound(reply, visit);
    if (found.page.customDomain) await this.domains.check(found.page.id, found.page.customDomain);
    return this.access.done(reply, visit, `/console/status-pages/${found.page.id}`, 'notice=checked');
  }

  /** Checks the form as the API checks a PUT body, then sends the command; a failure writes nothing and shows the form again. */
  private async save(reply: FastifyReply, visit: Visit, page: StatusPageDetailView | null, raw: unknown, command: (input: ReturnType<typeof toPageInput>) => object, done: string) {
    const services = await this.reads.services(visit.accountId!);
    const values = readPageForm(raw, services);
    const { body, errors: positionErrors, cardKeys } = pageBody(values, new Set(services.map((s) => s.id)));
    const { body: dto, errors } = await checkBody(StatusPageBodyDto, body);
    const all = { ...formErrors(errors, cardKeys), ...positionErrors };
    if (hasErrors(all)) return this.formPage(reply, 400, visit, page, values, all);
    const refused = await send(this.commands, command(toPageInput(dto, this.ids)), 'form');
    if (refused) return this.formPage(reply, 400, visit, page, values, formErrors(refused, cardKeys));
    return seeOther(reply, done);
  }

  private async page(visit: Visit, id: string) {
    if (!visit.accountId || !isUuid(id)) return null;
    return this.queries.execute(new StatusPagesQuery({ type: 'GetStatusPage', accountId: visit.accountId, id: id.toLowerCase() }));
  }

  private notFound(reply: FastifyReply, visit: Visit) {
    return this.access.message(reply, 404, visit, 'No such status page', 'This account has no status page at this address.');
  }

  private async formPage(reply: FastifyReply, code: number, visit: Visit, page: StatusPageDetailView | null, values: PageValues, errors: FieldErrors, notice?: string) {
    const domain = page?.customDomain
      ? { ...(await this.domains.instructions(page.id, page.customDomain)), status: page.customDomainVerified ? 'VERIFIED' : 'PENDING', verified: page.customDomainVerified === true }
      : null;
    const cards = values.cards.map((card) => ({
      ...card,
      nameError: errors[`${card.key}-name`],
      posError: errors[`${card.key}-pos`],
      servicesError: errors[`${card.key}-services`],
      services: card.services.map((s) => ({ ...s, error: errors[`${card.key}-s${s.index}`] })),
    }));
    const view = {
      page,
      domain,
      canWrite: visit.canWrite,
      action: page ? `/console/status-pages/${page.id}${visit.chrome.q}` : `/console/status-pages${visit.chrome.q}`,
      values: values.fields,
      svcs: values.serviceIds.join(' '),
      cards,
      themes: ['AUTO', 'LIGHT', 'DARK'].map((value) => ({ value, text: value === 'AUTO' ? 'The visitor’s preference' : value === 'LIGHT' ? 'Light' : 'Dark', selected: value === values.fields.defaultTheme })),
      errors: shownErrors(errors),
      colorKeys: THEME_COLOR_KEYS,
    };
    return this.access.render(reply, code, visit, 'status-page', { title: page?.name ?? 'New status page', nav: 'status-pages', notice }, view);
  }
}

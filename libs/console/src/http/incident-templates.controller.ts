import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { IncidentTemplateBodyDto, IncidentTemplateView, RunIncidentTemplateCommand, SEVERITIES, TemplateContent, toTemplateContent, UPDATE_STATUSES } from '../../../incidents/src/incidents.api';
import { ConsoleReads } from '../read/console-reads';
import { ConsolePages } from '../render/console-pages';
import { ConsoleAccess, ConsoleController, seeOther, sendHtml, Visit } from './console-access';
import { checkBody, FieldErrors, hasErrors, noticeOf, send, withParam } from './form-check';
import { IncidentActions, TEMPLATES_SHOWN } from './incident-actions';
import { choices } from './incident-form';
import { BLANK_TEMPLATE, formErrors, readTemplateForm, templateBody, TemplateFormValues, templateValues } from './template-form';

const NOTICES: Record<string, string> = { added: 'Template added.', saved: 'Template saved.', deleted: 'Template deleted.' };

/** Incident templates: the list, adding, editing and deleting one; every write a RunIncidentTemplateCommand, checked as the API checks it. */
@ConsoleController('incidents/templates')
export class ConsoleIncidentTemplatesController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly pages: ConsolePages,
    private readonly actions: IncidentActions,
    private readonly commands: CommandBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    return this.listPage(reply, 200, visit, BLANK_TEMPLATE, {}, noticeOf(NOTICES, notice));
  }

  @Post()
  async create(@Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const values = readTemplateForm(raw);
    const checked = await this.check(values);
    if (!checked.content) return this.listPage(reply, 400, visit, values, checked.errors);
    const command = { type: 'CreateIncidentTemplate' as const, id: this.ids.next(), accountId: visit.accountId!, template: checked.content };
    const refused = await send(this.commands, new RunIncidentTemplateCommand(command, visit.actor), 'name');
    if (refused) return this.listPage(reply, 400, visit, values, formErrors(refused));
    return seeOther(reply, `/console/incidents/templates${withParam(visit.chrome.q, 'notice=added')}`);
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const template = await this.actions.template(visit, id);
    if (!template) return this.notFound(reply, visit);
    return this.templatePage(reply, 200, visit, template, templateValues(template), {}, noticeOf(NOTICES, notice));
  }

  @Post(':id')
  async save(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const template = await this.actions.template(visit, id);
    if (!template) return this.notFound(reply, visit);
    const values = readTemplateForm(raw);
    const checked = await this.check(values);
    if (!checked.content) return this.templatePage(reply, 400, visit, template, values, checked.errors);
    const command = { type: 'ReplaceIncidentTemplate' as const, id: template.id, accountId: visit.accountId!, template: checked.content };
    const refused = await send(this.commands, new RunIncidentTemplateCommand(command, visit.actor), 'name');
    if (refused) return this.templatePage(reply, 400, visit, template, values, formErrors(refused));
    return seeOther(reply, `/console/incidents/templates/${template.id}${withParam(visit.chrome.q, 'notice=saved')}`);
  }

  @Post(':id/delete')
  async remove(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const template = await this.actions.template(visit, id);
    if (!template) return this.notFound(reply, visit);
    const refused = await send(this.commands, new RunIncidentTemplateCommand({ type: 'DeleteIncidentTemplate', id: template.id, accountId: visit.accountId! }, visit.actor), 'form');
    if (refused) return this.templatePage(reply, 409, visit, template, templateValues(template), {}, undefined, refused.form);
    return seeOther(reply, `/console/incidents/templates${withParam(visit.chrome.q, 'notice=deleted')}`);
  }

  /** The form checked by the API's own body class: the template's content, or the errors beside their fields. */
  private async check(values: TemplateFormValues): Promise<{ content: TemplateContent | null; errors: FieldErrors }> {
    const { body, errors } = await checkBody(IncidentTemplateBodyDto, templateBody(values));
    return hasErrors(errors) ? { content: null, errors: formErrors(errors) } : { content: toTemplateContent(body), errors: {} };
  }

  private notFound(reply: FastifyReply, visit: Visit): FastifyReply {
    return this.access.message(reply, 404, visit, 'No such incident template', 'This account has no incident template at this address.');
  }

  private async formChoices(visit: Visit, values: TemplateFormValues) {
    const services = visit.canWrite ? await this.reads.services(visit.accountId!) : [];
    const chosen = new Set(values.services);
    return {
      severities: choices(SEVERITIES, values.severity),
      statuses: choices(UPDATE_STATUSES, values.status),
      serviceChoices: services.map((s) => ({ id: s.id, name: s.name, checked: chosen.has(s.id) })),
    };
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, values: TemplateFormValues, errors: FieldErrors, notice?: string) {
    if (!visit.accountId) return this.access.message(reply, 200, visit, 'No account yet', 'You are not a member of any account.');
    const [{ templates, more }, formChoices] = await Promise.all([this.actions.templates(visit.accountId), this.formChoices(visit, values)]);
    const view = { templates, more, shown: TEMPLATES_SHOWN, canWrite: visit.canWrite, values, errors: hasErrors(errors) ? errors : undefined, ...formChoices };
    return sendHtml(reply, code, this.pages.render('incident-templates', { ...visit.chrome, title: 'Incident templates', nav: 'incidents', notice }, view));
  }

  private async templatePage(reply: FastifyReply, code: number, visit: Visit, template: IncidentTemplateView, values: TemplateFormValues, errors: FieldErrors, notice?: string, deleteError?: string) {
    const view = { template, canWrite: visit.canWrite, values, errors: hasErrors(errors) ? errors : undefined, deleteError, ...(await this.formChoices(visit, values)) };
    return sendHtml(reply, code, this.pages.render('incident-template', { ...visit.chrome, title: template.name, nav: 'incidents', notice }, view));
  }
}

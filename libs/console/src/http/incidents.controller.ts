import { Body, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { IncidentView, SEVERITIES, UPDATE_STATUSES } from '../../../incidents/src/incidents.api';
import { PublicRenderer } from '../../../public-web/src/public-web.api';
import { ServiceView } from '../../../status-pages/src/status-pages.api';
import { ConsoleReads, when } from '../read/console-reads';
import { IncidentList, IncidentListParams, readListParams } from '../read/incident-list';
import { ConsolePages } from '../render/console-pages';
import { ConsoleAccess, ConsoleController, fieldOf, seeOther, sendHtml, Visit } from './console-access';
import { and, IncidentActions } from './incident-actions';
import { changeCommand, choices, declarationErrors, declareCommand, detailsErrors, FieldErrors, IncidentFormValues, previewIncident, readIncidentForm, updateCommand, updateErrors } from './incident-form';
import { noticeOf } from './form-check';
import { declaredFrom } from './template-form';

const NOTICES: Record<string, string> = { declared: 'Incident declared.', posted: 'Update posted.', resolved: 'Incident resolved.', changed: 'Details saved.', edited: 'Update saved.' };
export const BLANK: IncidentFormValues = { name: '', severity: 'MAJOR', services: [], status: 'INVESTIGATING', description: '', notify: true, at: '', resolvedAt: '', resolution: '' };

/** What the declaration part of the list page shows besides the form's values. */
interface Declaring {
  values: IncidentFormValues;
  errors: FieldErrors;
  preview?: string;
  /** The template the form was filled from. */
  templateId?: string;
}

/** Incidents: the list, declaring one (with a preview), an incident's timeline, its updates and details; every write a RunIncidentCommand. */
@ConsoleController('incidents')
export class ConsoleIncidentsController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly list: IncidentList,
    private readonly pages: ConsolePages,
    private readonly publicPages: PublicRenderer,
    private readonly actions: IncidentActions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async index(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    // `?template=<id>` fills the declare form from a template: a plain GET, so it works without JavaScript.
    if (typeof query.template !== 'string' || query.template === '' || !visit.canWrite) return this.listPage(reply, 200, visit, query, { values: BLANK, errors: {} });
    const template = await this.actions.template(visit, query.template);
    if (!template) return this.access.message(reply, 404, visit, 'No such incident template', 'This account has no incident template with this id: it may have been deleted.');
    return this.listPage(reply, 200, visit, query, { values: declaredFrom(template, BLANK), errors: {}, templateId: template.id });
  }

  /** Declares, or with `action=preview` shows the incident as customers would see it and declares nothing. */
  @Post()
  async declare(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const accountId = visit.accountId!;
    const values = readIncidentForm(body);
    const services = await this.reads.services(accountId);
    const now = this.clock.now();
    const errors = declarationErrors(values, new Set(services.map((s) => s.id)), now);
    if (Object.keys(errors).length > 0) return this.listPage(reply, 400, visit, {}, { values, errors });
    if (fieldOf(body, 'action') === 'preview') {
      const preview = this.publicPages.incidentCard(previewIncident(values, services, now.toISOString()));
      return this.listPage(reply, 200, visit, {}, { values, errors: {}, preview });
    }
    const id = this.ids.next();
    const refused = await this.actions.run(declareCommand(values, accountId, id, () => this.ids.next(), now.toISOString()), visit);
    if (refused) return this.listPage(reply, 400, visit, {}, { values, errors: { name: refused } });
    return seeOther(reply, `/console/incidents/${id}${and(visit, 'notice=declared')}`);
  }

  @Get(':id')
  async show(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const incident = await this.actions.incident(visit, id);
    if (!incident) return this.notFound(reply, visit);
    const notice = (request.query as Record<string, unknown> | undefined)?.notice;
    return this.incidentPage(reply, 200, visit, incident, {}, noticeOf(NOTICES, notice));
  }

  /** Name, severity and services (the API's PATCH). */
  @Post(':id')
  async change(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const incident = await this.actions.incident(visit, id);
    if (!incident) return this.notFound(reply, visit);
    const values = readIncidentForm(body);
    const errors = detailsErrors(values, new Set((await this.reads.services(visit.accountId!)).map((s) => s.id)));
    if (Object.keys(errors).length > 0) return this.incidentPage(reply, 400, visit, incident, { details: { values, errors } });
    const refused = await this.actions.run(changeCommand(values, visit.accountId!, incident.id), visit);
    if (refused) return this.incidentPage(reply, 400, visit, incident, { details: { values, errors: { name: refused } } });
    return seeOther(reply, `/console/incidents/${incident.id}${and(visit, 'notice=changed')}`);
  }

  /** Posts an update: a new status (RESOLVED resolves), optionally dated in the past. */
  @Post(':id/updates')
  async post(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const incident = await this.actions.incident(visit, id);
    if (!incident) return this.notFound(reply, visit);
    const values = readIncidentForm(body);
    const now = this.clock.now();
    const errors = updateErrors(values, now);
    if (Object.keys(errors).length > 0) return this.incidentPage(reply, 400, visit, incident, { update: { values, errors } });
    const refused = await this.actions.run(updateCommand(values, visit.accountId!, incident.id, this.ids.next(), now.toISOString()), visit);
    if (refused) return this.incidentPage(reply, 400, visit, incident, { update: { values, errors: { description: refused } } });
    const notice = values.status === 'RESOLVED' ? 'resolved' : 'posted';
    return seeOther(reply, `/console/incidents/${incident.id}${and(visit, `notice=${notice}`)}`);
  }

  notFound(reply: FastifyReply, visit: Visit): FastifyReply {
    return this.access.message(reply, 404, visit, 'No such incident', 'This account has no incident at this address.');
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, query: Record<string, unknown>, declaring: Declaring) {
    if (!visit.accountId) return this.access.message(reply, 200, visit, 'No account yet', 'You are not a member of any account.');
    const { params, error } = readListParams(query);
    const [page, services, templates] = await Promise.all([
      this.list.page(visit.accountId, params),
      this.reads.services(visit.accountId),
      visit.canWrite ? this.actions.templates(visit.accountId) : { templates: [] },
    ]);
    const { values, errors, preview, templateId } = declaring;
    const view = {
      incidents: page.incidents.map((i) => ({ ...i, created: when(i.incidentUpdates[0]?.publicIncidentUpdateDate ?? i.created_at) })),
      list: this.listView(visit, params, services, page.next, page.scanned, error),
      accountParam: visit.chrome.q ? visit.accountId : null,
      canWrite: visit.canWrite,
      values,
      preview,
      backfill: values.resolvedAt !== '' || values.resolution !== '',
      errors: Object.keys(errors).length > 0 ? errors : undefined,
      ...this.detailChoices(values, services),
      statuses: choices(UPDATE_STATUSES, values.status),
      templateChoices: templates.templates.map((t) => ({ id: t.id, name: t.name, selected: t.id === templateId })),
    };
    return sendHtml(reply, error ? 400 : code, this.pages.render('incidents', { ...visit.chrome, title: 'Incidents', nav: 'incidents' }, view));
  }

  private listView(visit: Visit, params: IncidentListParams, services: ServiceView[], next: string | null, scanned: boolean, error: string | null) {
    const kept = new URLSearchParams();
    if (visit.chrome.q) kept.set('account', visit.accountId!);
    for (const [name, value] of [['search', params.search], ['status', params.status], ['severity', params.severity], ['service', params.serviceId]]) {
      if (value) kept.set(name!, value);
    }
    const href = (extra?: [string, string]) => {
      const all = new URLSearchParams(kept);
      if (extra) all.set(...extra);
      const text = all.toString();
      return `/console/incidents${text ? `?${text}` : ''}`;
    };
    return {
      error,
      search: params.search,
      filtered: params.search !== '' || params.status || params.severity || params.serviceId,
      statuses: [{ value: 'open', text: 'Open' }, { value: 'resolved', text: 'Resolved' }].map((s) => ({ ...s, selected: s.value === params.status })),
      severities: choices(SEVERITIES, params.severity ?? ''),
      services: services.map((s) => ({ value: s.id, text: s.name, selected: s.id === params.serviceId })),
      next: next ? href(['after', next]) : null,
      first: params.after ? href() : null,
      scanned,
      scanMax: '2,000',
    };
  }

  detailChoices(values: Pick<IncidentFormValues, 'severity' | 'services'>, services: ServiceView[]) {
    const chosen = new Set(values.services);
    return { severities: choices(SEVERITIES, values.severity), serviceChoices: services.map((s) => ({ id: s.id, name: s.name, checked: chosen.has(s.id) })) };
  }

  /** The incident's page; `forms` are the values and errors of a form that came back. */
  private async incidentPage(reply: FastifyReply, code: number, visit: Visit, incident: IncidentView, forms: { update?: Declaring; details?: Declaring }, notice?: string) {
    const resolved = incident.lastUpdateStatus === 'RESOLVED';
    const update = forms.update ?? { values: { ...BLANK, status: incident.lastUpdateStatus }, errors: {} };
    const details = forms.details ?? { values: { ...BLANK, name: incident.name, severity: incident.severity, services: incident.services.map((s) => s.id) }, errors: {} };
    const services = visit.canWrite ? await this.reads.services(visit.accountId!) : [];
    // Updates come in timeline order; the page shows the newest first.
    const timeline = [...incident.incidentUpdates].reverse().map((u) => ({ ...u, when: when(u.publicIncidentUpdateDate) }));
    const view = {
      incident,
      timeline,
      resolved,
      canWrite: visit.canWrite,
      values: update.values,
      errors: Object.keys(update.errors).length > 0 ? update.errors : undefined,
      statuses: choices(UPDATE_STATUSES, update.values.status),
      detailErrors: Object.keys(details.errors).length > 0,
      details: { values: details.values, errors: Object.keys(details.errors).length > 0 ? details.errors : undefined, ...this.detailChoices(details.values, services) },
    };
    return sendHtml(reply, code, this.pages.render('incident', { ...visit.chrome, title: incident.name, nav: 'incidents', notice }, view));
  }
}

import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AlertingQuery, CHANNEL_TYPES, ChannelSettings, ChannelType, ChannelView, DeliveryDoc, parseChannelBody, presentDelivery, resolvedTargetProblems, RunAlertChannelCommand } from '../../../alerting/src/alerting.api';
import { CLOCK, Clock } from '../../../core/src/clock';
import { VigilError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { HeartbeatsQuery, RunHeartbeatCheckCommand } from '../../../heartbeats/src/heartbeats.api';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { ConsoleReads, LIST_LIMIT, when } from '../read/console-reads';
import { blankChannel, channelBody, forgetTypedSecrets, channelChoices, ChannelFormValues, channelSummary, channelValues, fieldErrors, isChannelType, readChannelForm, TYPE_NAMES } from './channel-form';
import { ConsoleAccess, ConsoleController, Visit } from './console-access';
import { FieldErrors, noticeOf, shownErrors } from './form-check';

const NOTICES: Record<string, string> = { created: 'Channel created.', saved: 'Channel saved.', test: 'Test alert queued: it shows in the delivery log once sent.', retried: 'Delivery queued again.' };
/** Deliveries per page of the log. */
export const DELIVERY_PAGE = 20;
/** Checkboxes a channel form lists besides the checks already chosen (the rest subscribe from their check's page). */
export const CHECK_CHOICES = 50;
const NOT_FOUND = ['No such alert channel', 'This account has no alert channel at this address.'] as const;

/** Alert channels: list, create and edit each type, send a test, the delivery log with retry. Every write is the API's. */
@ConsoleController('alert-channels')
export class ConsoleAlertChannelsController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const [rows, summary] = await Promise.all([
      this.queries.execute(new AlertingQuery({ type: 'ListAlertChannelSettings', accountId: visit.accountId, limit: LIST_LIMIT, after: undefined })),
      this.reads.checkSummary(visit.accountId),
    ]);
    // Subscriptions live on the checks: the heartbeats summary counts every channel's.
    const counts = new Map(Object.entries(summary.byChannel));
    const channels = rows.slice(0, LIST_LIMIT).map((c) => ({ id: c.id, ...channelSummary(c), typeName: TYPE_NAMES[c.type], checkCount: counts.get(c.id) ?? 0 }));
    const types = CHANNEL_TYPES.map((value) => ({ value, text: TYPE_NAMES[value] }));
    return this.access.render(reply, 200, visit, 'channels', { title: 'Alert channels', nav: 'channels' }, { channels, types, canWrite: visit.canWrite });
  }

  @Get('new')
  async blank(@Query('type') type: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!isChannelType(type)) return this.access.message(reply, 400, visit, 'No such channel type', `Choose one of ${CHANNEL_TYPES.join(', ')}.`);
    this.access.mayWrite(visit);
    return this.newPage(reply, 200, visit, blankChannel(type), {});
  }

  @Post()
  async create(@Query('type') type: unknown, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    if (!isChannelType(type)) return this.access.message(reply, 400, visit, 'No such channel type', `Choose one of ${CHANNEL_TYPES.join(', ')}.`);
    const values = readChannelForm(type, body);
    const checked = await this.checked(visit, values);
    if ('errors' in checked) return this.newPage(reply, 400, visit, ...this.again(values, checked.errors));
    const id = this.ids.next();
    const refused = await this.run(visit, { type: 'CreateAlertChannel', id, accountId: visit.accountId!, settings: checked.settings });
    if (refused) return this.newPage(reply, 400, visit, ...this.again(values, { type: refused }));
    await this.subscribe(visit, id, [], values.checks);
    return this.access.done(reply, visit, `/console/alert-channels/${id}`, 'notice=created');
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const channel = await this.channel(visit, id);
    if (!channel) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    const before = parseCursor(query.before);
    if (query.before !== undefined && !before) return this.access.message(reply, 400, visit, 'No such page', 'This page of the delivery log does not exist: start from the channel.');
    const notice = noticeOf(NOTICES, query.notice);
    return this.channelPage(reply, 200, visit, channel, channelValues(channel), {}, before, notice);
  }

  @Post(':id')
  async update(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const channel = await this.channel(visit, id);
    if (!channel) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    const values = readChannelForm(channel.type, body);
    const stored = await this.queries.execute(new AlertingQuery({ type: 'AlertChannelSettings', accountId: visit.accountId!, id: channel.id }));
    const checked = await this.checked(visit, values, stored ?? undefined);
    if ('errors' in checked) return this.channelPage(reply, 400, visit, channel, ...this.again(values, checked.errors));
    const refused = await this.run(visit, { type: 'UpdateAlertChannel', id: channel.id, accountId: visit.accountId!, settings: checked.settings });
    if (refused) return this.channelPage(reply, 400, visit, channel, ...this.again(values, { type: refused }));
    await this.subscribe(visit, channel.id, channel.subscriptions.filter((s) => s.activated).map((s) => s.checkId), values.checks);
    return this.access.done(reply, visit, `/console/alert-channels/${channel.id}`, 'notice=saved');
  }

  @Post(':id/test')
  async test(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const channel = await this.channel(visit, id);
    if (!channel) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    await this.commands.execute(new RunAlertChannelCommand({ type: 'RequestAlertChannelTest', id: channel.id, accountId: visit.accountId!, notificationId: this.ids.next() }, visit.actor));
    return this.access.done(reply, visit, `/console/alert-channels/${channel.id}`, 'notice=test');
  }

  /** The channel's RetryAlertDelivery: a FAILED delivery is due again now (others are left as they are). */
  @Post(':id/deliveries/:deliveryId/retry')
  async retry(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const channel = await this.channel(visit, id);
    const refused = channel && isUuid(deliveryId) ? await this.run(visit, { type: 'RetryAlertDelivery', id: channel.id, accountId: visit.accountId!, notificationId: deliveryId.toLowerCase(), failed: true }) : 'Not found';
    if (!channel || refused) return this.access.message(reply, 404, visit, 'No such delivery', 'This channel has no delivery at this address.');
    return this.access.done(reply, visit, `/console/alert-channels/${channel.id}`, 'notice=retried');
  }

  /** The form checked as the API checks a body (the same parser and DNS check), and its checks this account's. */
  private async checked(visit: Visit, values: ChannelFormValues, stored?: ChannelSettings): Promise<{ settings: ChannelSettings } | { errors: FieldErrors }> {
    const { body, errors } = channelBody(values);
    const options = { allowPrivate: this.config.outboundAllowPrivate };
    const parsed = parseChannelBody(body, options, stored);
    const problems = parsed.settings ? await resolvedTargetProblems(parsed.settings.config, options) : [];
    Object.assign(errors, fieldErrors([...parsed.details, ...problems]), errors);
    const named = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckNames', accountId: visit.accountId!, include: values.checks, limit: 0 }));
    const known = new Set(named.checks.map((c) => c.id));
    if (values.checks.some((c) => !known.has(c))) errors.checks = 'Choose checks of this account (one is no longer there: reload the page).';
    if (Object.keys(errors).length > 0 || !parsed.settings) return { errors };
    return { settings: parsed.settings };
  }

  /** Subscriptions live on the checks: one command per check whose box changed. */
  private async subscribe(visit: Visit, channelId: string, before: string[], after: string[]): Promise<void> {
    const was = new Set(before);
    const now = new Set(after);
    const changes = [...after.filter((c) => !was.has(c)).map((c) => [c, true] as const), ...before.filter((c) => !now.has(c)).map((c) => [c, null] as const)];
    for (const [checkId, activated] of changes) {
      const command = { type: 'SetAlertChannelSubscription' as const, id: checkId, accountId: visit.accountId!, alertChannelId: channelId, activated };
      await this.commands.execute(new RunHeartbeatCheckCommand(command, visit.actor));
    }
  }

  private async run(visit: Visit, command: RunAlertChannelCommand['command']): Promise<string | null> {
    try {
      await this.commands.execute(new RunAlertChannelCommand(command, visit.actor));
      return null;
    } catch (error) {
      if (error instanceof VigilError && error.statusCode < 500) return error.message;
      throw error;
    }
  }

  private async channel(visit: Visit, id: string): Promise<ChannelView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new AlertingQuery({ type: 'GetAlertChannel', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.channel ?? null;
  }

  /** A failed form's values and errors: typed secrets left out, each with a note. */
  private again(values: ChannelFormValues, errors: FieldErrors): [ChannelFormValues, FieldErrors] {
    return [forgetTypedSecrets(values, errors), errors];
  }

  /** The first CHECK_CHOICES checks by name and every chosen one (so saving keeps them); others subscribe from their check's page. */
  private async checkChoices(visit: Visit, values: ChannelFormValues) {
    const chosen = new Set(values.checks);
    const named = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckNames', accountId: visit.accountId!, include: values.checks, limit: CHECK_CHOICES }));
    const choices = named.checks.map((c) => ({ id: c.id, name: c.name, checked: chosen.has(c.id) }));
    return { checkChoices: choices, checksLeftOut: named.total > choices.length ? named.total - choices.length : undefined };
  }

  private async newPage(reply: FastifyReply, code: number, visit: Visit, values: ChannelFormValues, errors: FieldErrors) {
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const typeName = TYPE_NAMES[values.type as ChannelType];
    const view = { values, typeName, ...channelChoices(values), ...(await this.checkChoices(visit, values)), errors: shownErrors(errors) };
    return this.access.render(reply, code, visit, 'channelNew', { title: `New ${typeName} channel`, nav: 'channels' }, view);
  }

  private async channelPage(reply: FastifyReply, code: number, visit: Visit, channel: ChannelView, values: ChannelFormValues, errors: FieldErrors, before?: Cursor, notice?: string) {
    const filter = { alertChannelId: channel.id };
    const rows: DeliveryDoc[] = await this.queries.execute(new AlertingQuery({ type: 'ListNotifications', accountId: visit.accountId!, limit: DELIVERY_PAGE, after: before, filter }));
    const page = rows.slice(0, DELIVERY_PAGE);
    const last = page[page.length - 1];
    const deliveries = page.map((d) => ({ ...presentDelivery(d), when: when(d.created_at), retry: visit.canWrite && d.status === 'FAILED' }));
    const summary = channelSummary(channel);
    const view = {
      id: channel.id,
      ...summary,
      typeName: TYPE_NAMES[channel.type],
      deliveries,
      older: rows.length > DELIVERY_PAGE && last ? `${last.created_at}~${last.id}` : undefined,
      paged: before !== undefined,
      canWrite: visit.canWrite,
      values,
      ...channelChoices(values),
      ...(await this.checkChoices(visit, values)),
      errors: shownErrors(errors),
    };
    return this.access.render(reply, code, visit, 'channel', { title: summary.title, nav: 'channels', notice }, view);
  }
}

type Cursor = { value: string; id: string };

/** `before=<created_at>~<id>`: the last delivery of the previous page. */
function parseCursor(raw: unknown): Cursor | undefined {
  if (typeof raw !== 'string') return undefined;
  const [value, id, extra] = raw.split('~');
  if (extra !== undefined || !id || !isUuid(id) || Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  return { value, id: id.toLowerCase() };
}

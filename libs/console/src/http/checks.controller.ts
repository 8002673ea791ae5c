import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AlertingQuery } from '../../../alerting/src/alerting.api';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ValidationError, VigilError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { CHECK_STATES, CheckState, CheckView, HeartbeatCheckCommand, HeartbeatEventView, HeartbeatsQuery, RunHeartbeatCheckCommand, RunHeartbeatCommand } from '../../../heartbeats/src/heartbeats.api';
import { ConsoleReads, LIST_LIMIT, when } from '../read/console-reads';
import { channelSummary } from './channel-form';
import { BLANK_CHECK, checkChoices, checkFieldErrors, CheckFormValues, checkInput, checkValues, readCheckForm } from './check-form';
import { ConsoleAccess, ConsoleController, Visit } from './console-access';
import { FieldErrors, noticeOf, shownErrors } from './form-check';
import { cronLine, cursorAfter, PingCursor, pingDetail, pingsBefore, timingText } from './check-view';

const NOTICES: Record<string, string> = {
  paused: 'Check paused: no alert until its next ping, which resumes it.',
  created: 'Check created: add its ping URL to the job.',
  saved: 'Check saved.',
  deactivated: 'Monitoring turned off: pings are ignored until you resume it.',
  resumed: 'Monitoring resumed: the check waits for its next ping from now.',
};
/** Checks per page of the list (each with its last runs), pings per page of a check's log. */
export const CHECK_PAGE = 50;
export const PING_PAGE = 20;
const NOT_FOUND = ['No such check', 'This account has no check at this address.'] as const;

/** Checks: the list with recent runs, by state and tag; create; a check's page with its ping log, settings and actions. */
@ConsoleController('checks')
export class ConsoleChecksController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    return this.listPage(reply, 200, visit, query, BLANK_CHECK, {});
  }

  @Post()
  async create(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const values = readCheckForm(body);
    const { input, errors } = checkInput(values, null);
    if (Object.keys(errors).length > 0) return this.listPage(reply, 400, visit, {}, values, errors);
    const id = this.ids.next();
    const refused = await this.run(visit, { type: 'CreateHeartbeatCheck', id, accountId: visit.accountId!, config: input });
    if (refused) return this.listPage(reply, 400, visit, {}, values, refused);
    return this.access.done(reply, visit, `/console/checks/${id}`, 'notice=created');
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const check = await this.check(visit, id);
    if (!check) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    const before = pingsBefore(query.before);
    if (before === null) return this.access.message(reply, 400, visit, 'No such page', 'This page of the ping log does not exist: start from the check.');
    const notice = noticeOf(NOTICES, query.notice);
    return this.checkPage(reply, 200, visit, check, checkValues(check), {}, before, notice);
  }

  @Post(':id')
  async update(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const check = await this.check(visit, id);
    if (!check) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    const values = readCheckForm(body);
    const { input, errors } = checkInput(values, check);
    if (Object.keys(errors).length > 0) return this.checkPage(reply, 400, visit, check, values, errors);
    const refused = await this.run(visit, { type: 'UpdateHeartbeatCheck', id: check.id, accountId: visit.accountId!, config: input });
    if (refused) return this.checkPage(reply, 400, visit, check, values, refused);
    return this.access.done(reply, visit, `/console/checks/${check.id}`, 'notice=saved');
  }

  /** The API's pause: no alert until the next ping. */
  @Post(':id/pause')
  async pause(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const check = await this.check(visit, id);
    if (!check) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    await this.commands.execute(new RunHeartbeatCommand(check.id, { type: 'Pause', at: this.clock.now().toISOString() }, visit.actor));
    return this.access.done(reply, visit, `/console/checks/${check.id}`, 'notice=paused');
  }

  /** The check's `activated` setting, as a PUT of the API changes it: off ignores pings; on restarts the timer. */
  @Post(':id/deactivate')
  deactivate(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.activate(id, false, body, request, reply);
  }

  @Post(':id/resume')
  resume(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.activate(id, true, body, request, reply);
  }

  @Get(':id/pings/:eventId')
  async ping(@Param('id') id: string, @Param('eventId') eventId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const check = await this.check(visit, id);
    const found = check && isUuid(eventId) ? await this.queries.execute(new HeartbeatsQuery({ type: 'CheckEvent', accountId: visit.accountId!, checkId: check.id, eventId: eventId.toLowerCase() })) : null;
    if (!check || !found?.event) return this.access.message(reply, 404, visit, 'No such ping', 'This check has no ping at this address (old pings are removed after the retention period).');
    const view = { ping: found.event, when: when(found.event.timestamp), detail: pingDetail(found.event), checkId: check.id, checkName: check.name };
    return this.access.render(reply, 200, visit, 'ping', { title: `${check.name}: ping of ${when(found.event.timestamp)}`, nav: 'checks' }, view);
  }

  private async activate(id: string, activated: boolean, body: unknown, request: FastifyRequest, reply: FastifyReply) {
    const visit = await this.access.act(request, body);
    const check = await this.check(visit, id);
    if (!check) return this.access.message(reply, 404, visit, ...NOT_FOUND);
    const { input } = checkInput(checkValues(check), check);
    const refused = await this.run(visit, { type: 'UpdateHeartbeatCheck', id: check.id, accountId: visit.accountId!, config: { ...input, activated, alertChannelSubscriptions: check.alertChannelSubscriptions } });
    if (refused) return this.checkPage(reply, 400, visit, check, checkValues(check), refused);
    return this.access.done(reply, visit, `/console/checks/${check.id}`, activated ? 'notice=resumed' : 'notice=deactivated');
  }

  /** Sends the command; a refusal of the decider (4xx) is the form's errors, anything else propagates. */
  private async run(visit: Visit, command: HeartbeatCheckCommand): Promise<FieldErrors | null> {
    try {
      await this.commands.execute(new RunHeartbeatCheckCommand(command, visit.actor));
      return null;
    } catch (error) {
      if (error instanceof ValidationError && error.details.length > 0) return checkFieldErrors(error.details);
      if (error instanceof VigilError && error.statusCode < 500) return { name: error.message };
      throw error;
    }
  }

  private async check(visit: Visit, id: string): Promise<CheckView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.check ?? null;
  }

  private async channelChoices(visit: Visit, values: CheckFormValues) {
    const chosen = new Set(values.channels);
    const rows = await this.queries.execute(new AlertingQuery({ type: 'ListAlertChannelSettings', accountId: visit.accountId!, limit: LIST_LIMIT, after: undefined }));
    return rows.slice(0, LIST_LIMIT).map((c) => ({ id: c.id, title: channelSummary(c).title, checked: chosen.has(c.id) }));
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, query: Record<string, unknown>, values: CheckFormValues, errors: FieldErrors) {
    if (!visit.accountId) return this.access.noAccount(reply, visit);
    const { state, tag } = query;
    const stateFilter = (CHECK_STATES as readonly unknown[]).includes(state) ? String(state) : undefined;
    if (state !== undefined && !stateFilter) return this.access.message(reply, 400, visit, 'No such state', `Filter by one of ${CHECK_STATES.join(', ')}.`);
    const tagFilter = typeof tag === 'string' && tag !== '' ? tag : undefined;
    const offset = /^\d{1,6}$/.test(String(query.from ?? '0')) ? Number(query.from ?? 0) : 0;
    const [page, summary] = await Promise.all([
      this.reads.checks(visit.accountId, { state: stateFilter as CheckState | undefined, tag: tagFilter }, offset, CHECK_PAGE),
      this.reads.checkSummary(visit.accountId),
    ]);
    const checks = page.checks.map((c) => ({ ...c, runs: c.lastRuns, runsText: c.lastRuns.length > 0 ? c.lastRuns.join(', ') : 'none yet' }));
    const filters = [stateFilter ? `state=${stateFilter}` : '', tagFilter ? `tag=${encodeURIComponent(tagFilter)}` : ''].filter(Boolean);
    const view = {
      checks,
      state: stateFilter,
      tag: tagFilter,
      filtered: stateFilter !== undefined || tagFilter !== undefined,
      stateFilters: CHECK_STATES.map((value) => ({ value, current: value === stateFilter })),
      tagFilters: summary.tags.map((value) => ({ value, param: encodeURIComponent(value), current: value === tagFilter })),
      more: page.total > offset + CHECK_PAGE ? [...filters, `from=${offset + CHECK_PAGE}`].join('&') : undefined,
      canWrite: visit.canWrite,
      values,
      ...checkChoices(values),
      channelChoices: visit.canWrite ? await this.channelChoices(visit, values) : [],
      errors: shownErrors(errors),
    };
    return this.access.render(reply, code, visit, 'checks', { title: 'Checks', nav: 'checks' }, view);
  }

  private async checkPage(reply: FastifyReply, code: number, visit: Visit, check: CheckView, values: CheckFormValues, errors: FieldErrors, before?: PingCursor, notice?: string) {
    const end = before?.ms ?? this.clock.now().getTime();
    const skip = before?.shown ?? 0;
    const window = { start: 0, end };
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckEvents', accountId: visit.accountId!, checkId: check.id, window, limit: skip + PING_PAGE + 1 }));
    // The pings at `end` the previous page showed are newest here: left out.
    const events: HeartbeatEventView[] = (found?.events ?? []).filter((e, i) => i >= skip || Date.parse(e.timestamp) !== end);
    const page = events.slice(0, PING_PAGE);
    const choices = await this.channelChoices(visit, values);
    const subscribed = new Set(check.alertChannelSubscriptions.filter((s) => s.activated).map((s) => s.alertChannelId));
    const ratio = (r: number | undefined) => (r === undefined ? 'no runs' : `${Math.round(r * 1000) / 10}%`);
    const view = {
      check,
      lastPingText: check.lastPingAt ? `last ping ${when(check.lastPingAt)}` : 'no ping yet',
      timingText: timingText(check),
      cron: cronLine(check),
      paused: check.state === 'PAUSED',
      deactivated: !check.activated,
      channels: choices.filter((c) => subscribed.has(c.id)),
      stats: found ? { day: ratio(found.stats.last24Hours.successRatio.currentPeriod), week: ratio(found.stats.last7Days.successRatio.currentPeriod) } : undefined,
      pings: page.map((e) => ({ ...e, when: when(e.timestamp).replace(' UTC', `:${e.timestamp.slice(17, 19)} UTC`), detail: pingDetail(e) })),
      older: events.length > PING_PAGE ? (before && Date.parse(page[page.length - 1].timestamp) === end ? `${end}.${skip + page.length}` : cursorAfter(page)) : undefined,
      paged: before !== undefined,
      canWrite: visit.canWrite,
      values,
      ...checkChoices(values),
      channelChoices: choices,
      errors: shownErrors(errors),
    };
    return this.access.render(reply, code, visit, 'check', { title: check.name, nav: 'checks', notice }, view);
  }
}

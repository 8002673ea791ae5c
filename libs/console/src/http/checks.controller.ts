import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { isUuid } from '../../../core/src/ids';
import { Public } from '../../../http/src/account-context';
import { CHECK_STATES, CheckView, HeartbeatsQuery, RunHeartbeatCommand } from '../../../heartbeats/src/heartbeats.api';
import { CHECKS_PER_PAGE, ConsoleReads, when } from '../read/console-reads';
import { ConsolePages } from '../render/console-pages';
import { ConsoleAccess, seeOther, sendHtml, Visit } from './console-access';

const NOTICES: Record<string, string> = { paused: 'Check paused: no alert until its next ping, which resumes it.' };

/** Checks: the list by state, a check's page with its ping URL and a cron line, and pause (a ping resumes). */
@Public()
@ApiExcludeController()
@Controller('console/checks')
export class ConsoleChecksController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly reads: ConsoleReads,
    private readonly pages: ConsolePages,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async list(@Query('state') state: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit) return seeOther(reply, '/console/sign-in');
    if (!visit.accountId) return this.access.message(reply, 200, visit, 'No account yet', 'You are not a member of any account.');
    const filter = (CHECK_STATES as readonly string[]).includes(String(state)) ? String(state) : undefined;
    if (state !== undefined && !filter) return this.access.message(reply, 400, visit, 'No such state', `Filter by one of ${CHECK_STATES.join(', ')}.`);
    const all = (await this.reads.checks(visit.accountId)).filter((c) => !filter || c.state === filter);
    const pages = Math.max(1, Math.ceil(all.length / CHECKS_PER_PAGE));
    const asked = Number((request.query as Record<string, unknown>).page ?? 1);
    if (!Number.isInteger(asked) || asked < 1 || asked > pages) return this.access.message(reply, 400, visit, 'No such page', `This list has pages 1 to ${pages}.`);
    const href = (page: number) => {
      const params = new URLSearchParams(visit.chrome.q.slice(1));
      if (filter) params.set('state', filter);
      if (page > 1) params.set('page', String(page));
      const text = params.toString();
      return `/console/checks${text ? `?${text}` : ''}`;
    };
    const checks = all.slice((asked - 1) * CHECKS_PER_PAGE, asked * CHECKS_PER_PAGE);
    const paging = pages > 1 && { page: asked, pages, previous: asked > 1 ? href(asked - 1) : null, next: asked < pages ? href(asked + 1) : null };
    const view = { checks, ...paging, state: filter, stateFilters: CHECK_STATES.map((value) => ({ value, current: value === filter })) };
    return sendHtml(reply, 200, this.pages.render('checks', { ...visit.chrome, title: 'Checks', nav: 'checks' }, view));
  }

  @Get(':id')
  async show(@Param('id') id: string, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!visit) return seeOther(reply, '/console/sign-in');
    const check = await this.check(visit, id);
    if (!check) return this.access.message(reply, 404, visit, 'No such check', 'This account has no check at this address.');
    const view = {
      check,
      lastPingText: check.lastPingAt ? `last ping ${when(check.lastPingAt)}` : 'no ping yet',
      cron: cronLine(check),
      paused: check.state === 'PAUSED',
      canWrite: visit.canWrite,
    };
    return sendHtml(reply, 200, this.pages.render('check', { ...visit.chrome, title: check.name, nav: 'checks', notice: typeof notice === 'string' ? NOTICES[notice] : undefined }, view));
  }

  @Post(':id/pause')
  async pause(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, reply, body);
    if (!visit) return reply;
    const check = await this.check(visit, id);
    if (!check) return this.access.message(reply, 404, visit, 'No such check', 'This account has no check at this address.');
    await this.commands.execute(new RunHeartbeatCommand(check.id, { type: 'Pause', at: this.clock.now().toISOString() }, visit.actor));
    const q = visit.chrome.q ? `${visit.chrome.q}&` : '?';
    return seeOther(reply, `/console/checks/${check.id}${q}notice=paused`);
  }

  private async check(visit: Visit, id: string): Promise<CheckView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.check ?? null;
  }
}

/** A crontab line that runs the job and pings with its exit code (so a failing job is reported at once). */
function cronLine(check: CheckView): string {
  const schedule = check.heartbeat.schedule ?? periodCron(check.heartbeat.period, check.heartbeat.periodUnit);
  return `${schedule} /path/to/job.sh; curl -fsS -m 10 --retry 3 -o /dev/null ${check.heartbeat.pingUrl}/$?`;
}

/** A cron schedule for a period check when one fits; otherwise the five fields to fill in. */
function periodCron(period: number | null | undefined, unit: string | null | undefined): string {
  if (!period) return 'm h dom mon dow';
  if (unit === 'minutes' && 60 % period === 0) return period === 1 ? '* * * * *' : `*/${period} * * * *`;
  if (unit === 'hours' && 24 % period === 0) return period === 1 ? '0 * * * *' : `0 */${period} * * *`;
  if (unit === 'days' && period === 1) return '0 0 * * *';
  return 'm h dom mon dow';
}

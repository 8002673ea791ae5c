import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { VigilError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { addedCount, RunSubscriptionsCommand, StatusPageDetailView, StatusPagesQuery } from '../../../status-pages/src/status-pages.api';
import { LIST_LIMIT, when } from '../read/console-reads';
import { CONSOLE_HEADERS, ConsoleAccess, ConsoleController, fieldOf, Visit } from './console-access';
import { MAX_ROWS, MAX_TEXT, parseRows, toCsv } from './subscriber-rows';

type Values = { rows: string; verified: boolean };

/** A page's subscribers: the list, adding or importing (all rows valid or nothing written), CSV export, removal. */
@ConsoleController('status-pages/:id/subscribers')
export class ConsoleSubscribersController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Param('id') id: string, @Query('added') added: unknown, @Query('skipped') skipped: unknown, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const page = await this.page(visit, id);
    if (!page) return this.notFound(reply, visit);
    const counts = /^\d{1,3}$/.test(String(added)) && /^\d{1,3}$/.test(String(skipped)) ? `${added} added, ${skipped} skipped (already subscribed or repeated).` : undefined;
    return this.listPage(reply, 200, visit, page, { rows: '', verified: false }, [], undefined, notice === 'removed' ? 'Subscriber removed.' : counts);
  }

  @Get('export.csv')
  async csv(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    const page = await this.page(visit, id);
    if (!page) return this.notFound(reply, visit);
    const subscribers = (await this.subscribers(visit, page.id)) ?? [];
    return reply
      .status(200)
      .headers(CONSOLE_HEADERS)
      .header('content-disposition', `attachment; filename="subscribers-${page.url}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(toCsv(subscribers));
  }

  @Post()
  async add(@Param('id') id: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const page = await this.page(visit, id);
    if (!page) return this.notFound(reply, visit);
    const values = { rows: fieldOf(raw, 'rows'), verified: fieldOf(raw, 'verified') === 'on' };
    const isAdmin = visit.chrome.account?.role === 'ADMIN';
    if (values.verified && !isAdmin) return this.access.message(reply, 403, visit, 'Request refused', 'Only an ADMIN may add subscribers without their confirmation.');
    const { rows, errors } = parseRows(values.rows);
    if (errors.length > 0) return this.listPage(reply, 400, visit, page, values, errors);
    const status = values.verified ? ('VERIFIED' as const) : ('PENDING' as const);
    const verifiedBy = values.verified ? { autoVerifiedBy: `person:${visit.me.user.email}` } : {};
    const candidates = rows.map((row) => ({ id: this.ids.next(), type: row.type, address: row.address, status, ...verifiedBy }));
    const command = { type: 'AddSubscriptions' as const, statusPageId: page.id, accountId: visit.accountId!, candidates, requestedAt: this.clock.now().toISOString() };
    try {
      const result = await this.commands.execute(new RunSubscriptionsCommand(command, visit.actor));
      const created = addedCount(result);
      return this.access.done(reply, visit, `/console/status-pages/${page.id}/subscribers`, `added=${created}&skipped=${candidates.length - created}`);
    } catch (error) {
      if (!(error instanceof VigilError) || error.statusCode >= 500) throw error;
      return this.listPage(reply, 400, visit, page, values, [], error.message);
    }
  }

  @Post(':subscriptionId/remove')
  async remove(@Param('id') id: string, @Param('subscriptionId') subscriptionId: string, @Body() raw: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.act(request, raw);
    const page = await this.page(visit, id);
    if (!page || !isUuid(subscriptionId)) return this.notFound(reply, visit);
    try {
      await this.commands.execute(new RunSubscriptionsCommand({ type: 'RemoveSubscription', statusPageId: page.id, accountId: visit.accountId!, id: subscriptionId.toLowerCase() }, visit.actor));
    } catch (error) {
      if (!(error instanceof VigilError) || error.statusCode >= 500) throw error;
      return this.access.message(reply, error.statusCode, visit, 'Not removed', error.message);
    }
    return this.access.done(reply, visit, `/console/status-pages/${page.id}/subscribers`, 'notice=removed');
  }

  private async page(visit: Visit, id: string): Promise<StatusPageDetailView | null> {
    if (!visit.accountId || !isUuid(id)) return null;
    const found = await this.queries.execute(new StatusPagesQuery({ type: 'GetStatusPage', accountId: visit.accountId, id: id.toLowerCase() }));
    return found?.page ?? null;
  }

  private subscribers(visit: Visit, statusPageId: string) {
    return this.queries.execute(new StatusPagesQuery({ type: 'ListSubscriptions', accountId: visit.accountId!, statusPageId }));
  }

  private notFound(reply: FastifyReply, visit: Visit) {
    return this.access.message(reply, 404, visit, 'No such status page', 'This account has no status page at this address.');
  }

  private async listPage(reply: FastifyReply, code: number, visit: Visit, page: StatusPageDetailView, values: Values, rowErrors: string[], error?: string, notice?: string) {
    const all = (await this.subscribers(visit, page.id)) ?? [];
    const subscribers = all.slice(0, LIST_LIMIT).map((s) => ({ ...s, added: when(s.created_at) }));
    const view = { page, subscribers, more: all.length > LIST_LIMIT, shown: LIST_LIMIT, total: all.length, canWrite: visit.canWrite, isAdmin: visit.chrome.account?.role === 'ADMIN', values, rowErrors: rowErrors.length ? rowErrors : undefined, errors: error ? { form: error } : undefined, maxRows: MAX_ROWS, maxText: MAX_TEXT };
    return this.access.render(reply, code, visit, 'subscribers', { title: `Subscribers of ${page.name}`, nav: 'status-pages', notice }, view);
  }
}

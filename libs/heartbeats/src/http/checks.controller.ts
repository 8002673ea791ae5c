import { applyDecorators, Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { NotFoundError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { iso } from '../../../core/src/time';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { CheckInput } from '../domain/heartbeat-check.decider';
import { CheckView } from '../read/check-directory';
import { HeartbeatsQuery } from '../read/heartbeats.queries';
import { parseWindow } from '../read/heartbeat-window';
import { RunHeartbeatCheckCommand } from '../write/heartbeat-check.handler';
import { RunHeartbeatCommand } from '../write/heartbeat.handler';
import { AvailabilityDto, CheckBodyDto, CheckDto, CheckPageDto, HeartbeatEventDetailDto, HeartbeatEventsDto } from './check.dto';
import { CATALOG_MAX, catalogPage, parseCatalogFilter } from './checkly-check-list';
import { CatalogCheck, OtherChecks } from '../read/other-checks';
import { ApiLimitedPageQuery } from '../../../http/src/page-query';

function toInput(body: CheckBodyDto): CheckInput {
  const trigger = body.triggerIncident;
  return {
    name: body.name,
    activated: body.activated ?? true,
    muted: body.muted ?? false,
    tags: body.tags ?? [],
    description: body.description ?? null,
    slug: body.slug ?? null,
    heartbeat: {
      period: body.heartbeat.period ?? null,
      periodUnit: body.heartbeat.periodUnit ?? null,
      schedule: body.heartbeat.schedule ?? null,
      timezone: body.heartbeat.timezone ?? null,
      grace: body.heartbeat.grace,
      graceUnit: body.heartbeat.graceUnit,
      pingToken: body.heartbeat.pingToken?.toLowerCase() ?? null,
    },
    triggerIncident: trigger
      ? {
          serviceId: trigger.serviceId.toLowerCase(),
          severity: trigger.severity,
          name: trigger.name,
          description: trigger.description ?? '',
          notifySubscribers: trigger.notifySubscribers ?? false,
        }
      : null,
    alertSettings: body.alertSettings ?? null,
    alertChannelSubscriptions: (body.alertChannelSubscriptions ?? []).map((s) => ({ alertChannelId: s.alertChannelId.toLowerCase(), activated: s.activated ?? true })),
  };
}

/** The path's check id; a malformed one names nothing (404). */
export const CheckIdParam = () => Param('checkId', { transform: (value: string) => requireId(value, 'Check') });

const WindowQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'startTime', required: false, schema: { type: 'string', format: 'date-time' }, description: 'ISO 8601; default endTime − 24 h' }),
    ApiQuery({ name: 'endTime', required: false, schema: { type: 'string', format: 'date-time' }, description: 'ISO 8601; default now' }),
  );

@ApiTags('heartbeat checks')
@ApiBearerAuth()
@Controller('v1/checks')
export class ChecksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly others: OtherChecks,
  ) {}

  @Post('heartbeat')
  @HttpCode(201)
  @ApiCreatedResponse({ type: CheckDto })
  async create(@Account() account: AccountContext, @Body() body: CheckBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = this.ids.next();
    await this.commands.execute(new RunHeartbeatCheckCommand({ type: 'CreateHeartbeatCheck', id, accountId: account.accountId, config: toInput(body) }, actorOf(account)));
    return this.read(account, id, reply);
  }

  @Put('heartbeat/:checkId')
  @ApiOkResponse({ type: CheckDto })
  async update(
    @Account() account: AccountContext,
    @Param('checkId') checkId: string,
    @Body() body: CheckBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // Checked after the body: an invalid body is a 400 whatever the id.
    const id = requireId(checkId, 'Check');
    const command = { type: 'UpdateHeartbeatCheck' as const, id, accountId: account.accountId, config: toInput(body) };
    await this.commands.execute(new RunHeartbeatCheckCommand(command, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, reply);
  }

  @Get()
  @ApiOkResponse({ type: CheckPageDto })
  @ApiLimitedPageQuery()
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'Checkly’s paging: with page, every kind of check (heartbeats and monitors) as an array, the total in Content-Range; filters checkType, tag, search, status' })
  async list(@Account() account: AccountContext, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: Record<string, string | string[] | undefined>, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    if (query.page !== undefined) return this.catalog(account, query, reply);
    const scope = `heartbeat-checks:${account.accountId}`;
    const size = parseLimit(limit);
    const rows = await this.queries.execute(new HeartbeatsQuery({ type: 'ListChecks', accountId: account.accountId, limit: size, after: this.cursors.decode(scope, nextId) }));
    return this.cursors.page(scope, rows, size, (c: CheckView) => ({ value: c.created_at, id: c.id }));
  }

  /** Contract §4.1: stops the timer (no FAILING, no alert) until the next ping. */
  @Post(':checkId/pause')
  @HttpCode(200)
  @ApiOkResponse({ type: CheckDto })
  async pause(@Account() account: AccountContext, @CheckIdParam() id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.read(account, id, reply);
    await this.commands.execute(new RunHeartbeatCommand(id, { type: 'Pause', at: iso(this.clock.now().getTime()) }, actorOf(account)));
    return this.read(account, id, reply);
  }

  @Get(':checkId')
  @ApiOkResponse({ type: CheckDto })
  async get(@Account() account: AccountContext, @CheckIdParam() id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    // A monitor answers at Checkly's one path for every kind of check, as `checkly checks get` reads it.
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId: account.accountId, id }));
    if (!found) return (await this.others.get(account.accountId, id)) ?? this.read(account, id, reply);
    setEtag(reply, found.revision);
    return found.check;
  }

  @Delete(':checkId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @CheckIdParam() id: string, @Headers('if-match') ifMatch: string | undefined) {
    await this.commands.execute(new RunHeartbeatCheckCommand({ type: 'DeleteHeartbeatCheck', id, accountId: account.accountId }, actorOf(account), parseIfMatch(ifMatch)));
  }

  /** Endpoint 9: `[{events, stats}]`, events newest first within the window. */
  @Get('heartbeats/:checkId/events')
  @ApiOkResponse({ type: [HeartbeatEventsDto] })
  @WindowQueries()
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 10, default: 10 } })
  async events(
    @Account() account: AccountContext,
    @CheckIdParam() id: string,
    @Query('startTime') startTime?: unknown,
    @Query('endTime') endTime?: unknown,
    @Query('limit') limit?: unknown,
  ) {
    const size = parseLimit(limit, { fallback: 10, max: 10 });
    const window = parseWindow(startTime, endTime, this.clock.now());
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckEvents', accountId: account.accountId, checkId: id, window, limit: size }));
    if (!found) throw new NotFoundError('Check not found');
    return [found];
  }

  @Get('heartbeats/:checkId/events/:eventId')
  @ApiOkResponse({ type: HeartbeatEventDetailDto })
  async event(@Account() account: AccountContext, @CheckIdParam() id: string, @Param('eventId') eventId: string) {
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckEvent', accountId: account.accountId, checkId: id, eventId: requireId(eventId, 'Event') }));
    if (!found) throw new NotFoundError('Check not found');
    if (!found.event) throw new NotFoundError('Event not found');
    return found;
  }

  /** Endpoint 10. */
  @Get('heartbeats/:checkId/availability')
  @ApiOkResponse({ type: AvailabilityDto })
  @WindowQueries()
  async availability(
    @Account() account: AccountContext,
    @CheckIdParam() id: string,
    @Query('startTime') startTime?: unknown,
    @Query('endTime') endTime?: unknown,
  ) {
    const window = parseWindow(startTime, endTime, this.clock.now());
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckAvailability', accountId: account.accountId, checkId: id, window }));
    if (!found) throw new NotFoundError('Check not found');
    return found;
  }

  /** Checkly's `GET /v1/checks?page=&limit=`, what `checkly checks list` and `stats` read: every kind of check. */
  private async catalog(account: AccountContext, query: Record<string, string | string[] | undefined>, reply: FastifyReply): Promise<CatalogCheck[]> {
    const filter = parseCatalogFilter(query);
    const [heartbeats, others, heartbeatStatuses, otherStatuses] = await Promise.all([
      this.queries.execute(new HeartbeatsQuery({ type: 'ListChecks', accountId: account.accountId, limit: CATALOG_MAX, after: undefined })),
      this.others.list(account.accountId, CATALOG_MAX),
      this.queries.execute(new HeartbeatsQuery({ type: 'CheckStatuses', accountId: account.accountId })),
      this.others.statuses(account.accountId),
    ]);
    const all = [...(heartbeats as unknown as CatalogCheck[]), ...others].slice(0, CATALOG_MAX);
    const { page, total, first } = catalogPage(all, [...heartbeatStatuses, ...otherStatuses], filter);
    reply.header('content-range', page.length === 0 ? `*/${total}` : `${first}-${first + page.length - 1}/${total}`);
    return page;
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<CheckView> {
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId: account.accountId, id }));
    if (!found) throw new NotFoundError('Check not found');
    setEtag(reply, found.revision);
    return found.check;
  }
}

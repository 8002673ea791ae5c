import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { NotFoundError, ValidationError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { parseMonitorBody } from '../domain/monitor-body';
import { CheckType, MonitorConfig } from '../domain/monitor-config';
import { LocationView } from '../read/locations';
import { MonitorsQuery, MonitorView } from '../read/monitors.queries';
import { RunMonitorCommand } from '../write/monitor.handler';
import { LOCATIONS_SCHEMA, MONITOR_BODY_SCHEMA, MONITOR_PAGE_SCHEMA, MONITOR_SCHEMA, ROLLUPS_SCHEMA } from './monitor.schemas';
import { ApiLimitedPageQuery } from '../../../http/src/page-query';

const TYPES: Record<string, CheckType> = { url: 'URL', api: 'API', tcp: 'TCP', dns: 'DNS', ssl: 'SSL' };
const PATHS = Object.keys(TYPES);
const ITEM_PATHS = PATHS.map((p) => `${p}/:id`);
const DAY = 86_400_000;

/** The monitor type a route serves, from its path (`/v1/checks/<type>…`). */
function typeOf(req: FastifyRequest): CheckType {
  return TYPES[req.url.split('?')[0].split('/')[3]];
}

function configOf(type: CheckType, body: unknown, known: LocationView[]): MonitorConfig {
  const config = parseMonitorBody(type, body);
  const unknown = config.locations.filter((l) => !known.some((k) => k.region === l));
  if (unknown.length > 0) throw ValidationError.of(unknown.map((l) => ({ path: 'locations', message: `unknown location "${l}" (see GET /v1/locations)` })));
  return config;
}

function parseTime(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const ms = Date.parse(raw);
  if (!Number.isFinite(ms)) throw ValidationError.of([{ path: name, message: 'must be an ISO 8601 date-time' }]);
  return ms;
}

/** URL, API, TCP, DNS and SSL monitors at Checkly's paths; heartbeat checks keep their own routes. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('v1')
export class MonitorsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post(PATHS.map((p) => `checks/${p}`))
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a monitor', description: 'A URL, API, TCP, DNS or SSL monitor (the type is the path) in the body Checkly’s constructs send. Its first run starts at once; every field is checked (400 with details).' })
  @ApiBody({ schema: MONITOR_BODY_SCHEMA })
  @ApiCreatedResponse({ schema: MONITOR_SCHEMA })
  async create(@Account() account: AccountContext, @Req() req: FastifyRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<MonitorView> {
    const type = typeOf(req);
    const id = this.ids.next();
    await this.commands.execute(new RunMonitorCommand({ type: 'CreateMonitor', id, accountId: account.accountId, config: configOf(type, body, await this.locationsOf(account)) }, actorOf(account)));
    return this.read(account, id, type, reply);
  }

  @Get(PATHS.map((p) => `checks/${p}`))
  @ApiOperation({ summary: 'List monitors of a type', description: 'The account’s monitors of the path’s type with their state and last run, newest first. Paged with limit and nextId.' })
  @ApiLimitedPageQuery()
  @ApiOkResponse({ schema: MONITOR_PAGE_SCHEMA })
  async list(@Account() account: AccountContext, @Req() req: FastifyRequest, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    const checkType = typeOf(req);
    const scope = `monitors:${checkType}:${account.accountId}`;
    const size = parseLimit(limit);
    const rows = await this.queries.execute(new MonitorsQuery({ type: 'ListMonitors', accountId: account.accountId, checkType, limit: size, after: this.cursors.decode(scope, nextId) }));
    return this.cursors.page(scope, rows, size, (m: MonitorView) => ({ value: m.created_at, id: m.id }));
  }

  @Get(ITEM_PATHS.map((p) => `checks/${p}`))
  @ApiOperation({ summary: 'Get a monitor', description: 'The monitor with status.state (PASSING, DEGRADED or FAILING), since when, its last run and its next round. The ETag is its revision.' })
  @ApiOkResponse({ schema: MONITOR_SCHEMA })
  get(@Account() account: AccountContext, @Req() req: FastifyRequest, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<MonitorView> {
    return this.read(account, requireId(id, 'Monitor'), typeOf(req), reply);
  }

  @Put(ITEM_PATHS.map((p) => `checks/${p}`))
  @ApiOperation({ summary: 'Replace a monitor', description: 'Replaces the whole configuration; the type cannot change. Send the ETag as If-Match to refuse overwriting someone else’s change.' })
  @ApiBody({ schema: MONITOR_BODY_SCHEMA })
  @ApiOkResponse({ schema: MONITOR_SCHEMA })
  async update(
    @Account() account: AccountContext,
    @Req() req: FastifyRequest,
    @Param('id') rawId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MonitorView> {
    const type = typeOf(req);
    const id = await this.owned(account, rawId, type);
    await this.commands.execute(new RunMonitorCommand({ type: 'UpdateMonitor', id, accountId: account.accountId, config: configOf(type, body, await this.locationsOf(account)) }, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, type, reply);
  }

  @Delete(ITEM_PATHS.map((p) => `checks/${p}`))
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a monitor', description: 'Stops its runs; its history and rollups stay in the log.' })
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Req() req: FastifyRequest, @Param('id') rawId: string, @Headers('if-match') ifMatch: string | undefined): Promise<void> {
    const id = await this.owned(account, rawId, typeOf(req));
    await this.commands.execute(new RunMonitorCommand({ type: 'DeleteMonitor', id, accountId: account.accountId }, actorOf(account), parseIfMatch(ifMatch)));
  }

  /** Hourly or daily availability and response-time percentiles, from the rollups. */
  @Get(ITEM_PATHS.map((p) => `checks/${p}/rollups`))
  @ApiOperation({ summary: 'A monitor’s hourly or daily figures', description: 'Runs, failures, degraded runs, availability and average, p50, p95 and p99 response time per hour (default: the last day) or per day (default: the last 90 days).' })
  @ApiQuery({ name: 'granularity', required: false, schema: { type: 'string', enum: ['hourly', 'daily'] } })
  @ApiQuery({ name: 'from', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'to', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiOkResponse({ schema: ROLLUPS_SCHEMA })
  async rollups(
    @Account() account: AccountContext,
    @Req() req: FastifyRequest,
    @Param('id') rawId: string,
    @Query('granularity') granularity?: string,
    @Query('from') from?: string,
    @Query('to') to?: string,
  ) {
    const id = await this.owned(account, rawId, typeOf(req));
    if (granularity !== undefined && granularity !== 'hourly' && granularity !== 'daily') throw ValidationError.of([{ path: 'granularity', message: 'must be hourly or daily' }]);
    const until = parseTime(to, this.clock.now().getTime() + 1, 'to');
    const since = parseTime(from, until - (granularity === 'daily' ? 90 : 1) * DAY, 'from');
    if (since >= until || until - since > 400 * DAY) throw ValidationError.of([{ path: 'from', message: 'must be before to, at most 400 days apart' }]);
    const rows = await this.queries.execute(
      new MonitorsQuery({ type: 'GetMonitorRollups', accountId: account.accountId, id, granularity: granularity === 'daily' ? 'd' : 'h', from: new Date(since).toISOString(), to: new Date(until).toISOString() }),
    );
    return { entries: rows ?? [] };
  }

  @Get('locations')
  @ApiOperation({ summary: 'List locations', description: 'The places monitors run from; the embedded location `local` runs probes inside the Vigil process; each runner location of the account says whether its runners report (UP, DOWN, NEW) and lists them, ACTIVE or LOST.' })
  @ApiOkResponse({ schema: LOCATIONS_SCHEMA })
  locations(@Account() account: AccountContext) {
    return this.queries.execute(new MonitorsQuery({ type: 'ListLocations', accountId: account.accountId }));
  }

  private locationsOf(account: AccountContext): Promise<LocationView[]> {
    return this.queries.execute(new MonitorsQuery({ type: 'ListLocations', accountId: account.accountId }));
  }

  private async owned(account: AccountContext, rawId: string, checkType: CheckType): Promise<string> {
    const id = requireId(rawId, 'Monitor');
    const found = await this.queries.execute(new MonitorsQuery({ type: 'GetMonitor', accountId: account.accountId, id, checkType }));
    if (!found) throw new NotFoundError('Monitor not found');
    return id;
  }

  private async read(account: AccountContext, id: string, checkType: CheckType, reply: FastifyReply): Promise<MonitorView> {
    const found = await this.queries.execute(new MonitorsQuery({ type: 'GetMonitor', accountId: account.accountId, id, checkType }));
    if (!found) throw new NotFoundError('Monitor not found');
    setEtag(reply, found.revision);
    return found.monitor;
  }
}

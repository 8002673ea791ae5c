import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { ValidationError } from '../../../core/src/errors';
import { parseIsoDate } from '../../../core/src/time';
import { Account, AccountContext } from '../../../http/src/account-context';
import { withEtag } from '../../../http/src/account-resources';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { createdIncidentView, incidentDate, IncidentListFilter, IncidentView } from '../read/incident-directory';
import { IncidentCommand } from '../domain/incident.decider';
import { IncidentsQuery } from '../read/incidents.queries';
import { StatusPageDirectory } from '../../../status-pages/src/status-pages.api';
import { RunIncidentCommand } from '../write/incident.handler';
import { IncidentBodies } from './incident-bodies';
import { CreateIncidentDto, IncidentDto, IncidentHistoryDto, IncidentPageDto, PatchIncidentDto, ReplaceIncidentDto } from './incident.dto';
import { parseListIncidentsParams } from './list-incidents.params';
import { ApiLimitedPageQuery } from '../../../http/src/page-query';

@ApiTags('incidents')
@ApiBearerAuth()
@Controller('v1/status-pages/incidents')
export class IncidentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly bodies: IncidentBodies,
    private readonly pages: StatusPageDirectory,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiBody({ type: CreateIncidentDto })
  @ApiCreatedResponse({ type: IncidentDto })
  async create(@Account() account: AccountContext, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { command, services } = await this.bodies.createWithServices(account.accountId, body);
    const result = await this.commands.execute(new RunIncidentCommand(command, actorOf(account)));
    // The answer is what the append made, with the services validation just read: no read back.
    const created = createdIncidentView(result.appended, services);
    if (!created || result.revision === null) return this.read(account, command.id, reply);
    setEtag(reply, result.revision);
    return created;
  }

  @Get()
  @ApiOkResponse({ type: IncidentPageDto, description: 'Newest first by when they happened (the first update\'s publicIncidentUpdateDate)' })
  @ApiLimitedPageQuery()
  @ApiQuery({ name: 'statusPageId', required: false, schema: { type: 'string', format: 'uuid' }, description: 'Incidents touching any service on the page' })
  @ApiQuery({ name: 'serviceId', required: false, schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'status', required: false, enum: ['open', 'resolved'] })
  async list(@Account() account: AccountContext, @Query() query: Record<string, unknown>) {
    const params = parseListIncidentsParams(query, account.accountId, this.cursors);
    const filter: IncidentListFilter = params.status ? { status: params.status } : {};
    if (params.statusPageId !== undefined) {
      const onPage = (await this.pages.serviceIdsOf(account.accountId, params.statusPageId)) ?? [];
      filter.serviceIds = params.serviceId === undefined ? onPage : onPage.filter((id) => id === params.serviceId);
    } else if (params.serviceId !== undefined) {
      filter.serviceIds = [params.serviceId];
    }
    const rows = await this.queries.execute(new IncidentsQuery({ type: 'ListIncidents', accountId: account.accountId, limit: params.limit, after: params.after, filter }));
    return this.cursors.page(params.scope, rows, params.limit, (i: IncidentView) => ({ value: incidentDate(i), id: i.id }));
  }

  @Get(':incidentId')
  @ApiOkResponse({ type: IncidentDto })
  @ApiQuery({ name: 'asOf', required: false, schema: { type: 'string', format: 'date-time' }, description: 'ISO 8601: the incident as it stood then' })
  async get(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Query('asOf') asOf: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(incidentId, 'Incident');
    if (asOf === undefined) return this.read(account, id, reply);
    const at = parseIsoDate(asOf);
    if (!at) throw ValidationError.of([{ path: 'asOf', message: 'asOf must be an ISO 8601 date or date-time' }]);
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentAsOf', accountId: account.accountId, id, at }));
    return withEtag(reply, found, 'Incident').incident;
  }

  @Put(':incidentId')
  @ApiBody({ type: ReplaceIncidentDto })
  @ApiOkResponse({ type: IncidentDto })
  async replace(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(incidentId, 'Incident');
    await this.run(account, await this.bodies.replace(account.accountId, id, body), ifMatch);
    return this.read(account, id, reply);
  }

  @Patch(':incidentId')
  @ApiBody({ type: PatchIncidentDto })
  @ApiOkResponse({ type: IncidentDto })
  async patch(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(incidentId, 'Incident');
    await this.run(account, await this.bodies.patch(account.accountId, id, body), ifMatch);
    return this.read(account, id, reply);
  }

  @Delete(':incidentId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('incidentId') incidentId: string, @Headers('if-match') ifMatch: string | undefined) {
    await this.run(account, { type: 'DeleteIncident', id: requireId(incidentId, 'Incident'), accountId: account.accountId }, ifMatch);
  }

  @Get(':incidentId/history')
  @ApiOkResponse({ type: IncidentHistoryDto, description: 'Every event of the incident; ADMIN keys also see deleted incidents' })
  async history(@Account() account: AccountContext, @Param('incidentId') incidentId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = requireId(incidentId, 'Incident');
    const history = await this.queries.execute(
      new IncidentsQuery({ type: 'GetIncidentHistory', id, accountId: account.accountId, includeDeleted: account.role === 'ADMIN' }),
    );
    return { entries: withEtag(reply, history, 'Incident').entries };
  }

  private async run(account: AccountContext, command: IncidentCommand, ifMatch: string | undefined): Promise<void> {
    await this.commands.execute(new RunIncidentCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<IncidentView> {
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncident', accountId: account.accountId, id }));
    return withEtag(reply, found, 'Incident').incident;
  }
}

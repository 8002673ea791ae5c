import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { actorOf, requireId } from '../../../http/src/params';
import { IncidentUpdateView } from '../read/incident-directory';
import { IncidentsQuery } from '../read/incidents.queries';
import { RunIncidentCommand } from '../write/incident.handler';
import { IncidentBodies } from './incident-bodies';
import { IncidentUpdateBodyDto, IncidentUpdateDto } from './incident.dto';

/** An incident's updates. Their ETag is the incident's: one stream holds the incident and its updates. */
@ApiTags('incidents')
@ApiBearerAuth()
@Controller('v1/status-pages/incidents/:incidentId/incident-updates')
export class IncidentUpdatesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly bodies: IncidentBodies,
  ) {}

  @Get()
  @ApiOkResponse({ type: [IncidentUpdateDto], description: 'Chronological' })
  async list(@Account() account: AccountContext, @Param('incidentId') incidentId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentUpdates', accountId: account.accountId, id: requireId(incidentId, 'Incident') }));
    if (!found) throw new NotFoundError('Incident not found');
    setEtag(reply, found.revision);
    return found.updates;
  }

  @Post()
  @HttpCode(200)
  @ApiBody({ type: IncidentUpdateBodyDto })
  @ApiOkResponse({ type: IncidentUpdateDto })
  async post(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(incidentId, 'Incident');
    const command = await this.bodies.post(account.accountId, id, body);
    await this.commands.execute(new RunIncidentCommand(command, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, command.update.id, reply);
  }

  @Get(':incidentUpdateId')
  @ApiOkResponse({ type: IncidentUpdateDto })
  async get(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Param('incidentUpdateId') incidentUpdateId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.read(account, requireId(incidentId, 'Incident'), requireId(incidentUpdateId, 'Incident update'), reply);
  }

  @Put(':incidentUpdateId')
  @ApiBody({ type: IncidentUpdateBodyDto, description: 'status and publicIncidentUpdateDate, when left out, keep their values; notifySubscribers is never changed' })
  @ApiOkResponse({ type: IncidentUpdateDto })
  async edit(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Param('incidentUpdateId') incidentUpdateId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(incidentId, 'Incident');
    const updateId = requireId(incidentUpdateId, 'Incident update');
    await this.commands.execute(new RunIncidentCommand(await this.bodies.edit(account.accountId, id, updateId, body), actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, updateId, reply);
  }

  @Delete(':incidentUpdateId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @Account() account: AccountContext,
    @Param('incidentId') incidentId: string,
    @Param('incidentUpdateId') incidentUpdateId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ) {
    const id = requireId(incidentId, 'Incident');
    const updateId = requireId(incidentUpdateId, 'Incident update');
    const command = { type: 'DeleteIncidentUpdate', id, accountId: account.accountId, updateId } as const;
    await this.commands.execute(new RunIncidentCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, incidentId: string, updateId: string, reply: FastifyReply): Promise<IncidentUpdateView> {
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentUpdates', accountId: account.accountId, id: incidentId }));
    if (!found) throw new NotFoundError('Incident not found');
    const update = found.updates.find((u) => u.id === updateId);
    if (!update) throw new NotFoundError('Incident update not found');
    setEtag(reply, found.revision);
    return update;
  }
}

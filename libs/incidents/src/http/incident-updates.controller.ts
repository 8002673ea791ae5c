import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { withEtag } from '../../../http/src/account-resources';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { actorOf, requireId } from '../../../http/src/params';
import { IncidentUpdateView } from '../read/incident-directory';
import { IncidentCommand } from '../domain/incident.decider';
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
    return withEtag(reply, found, 'Incident').updates;
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
    await this.run(account, command, ifMatch);
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
    await this.run(account, await this.bodies.edit(account.accountId, id, updateId, body), ifMatch);
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
    await this.run(account, { type: 'DeleteIncidentUpdate', id, accountId: account.accountId, updateId }, ifMatch);
  }

  private async run(account: AccountContext, command: IncidentCommand, ifMatch: string | undefined): Promise<void> {
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

import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { NotFoundError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { IncidentTemplateView } from '../read/incident-template-directory';
import { IncidentsQuery } from '../read/incidents.queries';
import { RunIncidentTemplateCommand } from '../write/incident-template.handler';
import { IncidentTemplateBodyDto, IncidentTemplateDto, IncidentTemplatePageDto, toTemplateContent } from './incident-template.dto';

/** Incident templates (a Vigil extension, after Statuspage's): what an incident declared from one starts with. */
@ApiTags('incident templates')
@ApiBearerAuth()
@Controller('v1/incident-templates')
export class IncidentTemplatesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  @ApiOkResponse({ type: IncidentTemplatePageDto })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiQuery({ name: 'nextId', required: false, type: String })
  async list(@Account() account: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    const scope = `incident-templates:${account.accountId}`;
    const size = parseLimit(limit);
    const rows = await this.queries.execute(new IncidentsQuery({ type: 'ListIncidentTemplates', accountId: account.accountId, limit: size, after: this.cursors.decode(scope, nextId) }));
    return this.cursors.page(scope, rows, size, (t: IncidentTemplateView) => ({ value: t.created_at, id: t.id }));
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: IncidentTemplateDto })
  async create(@Account() account: AccountContext, @Body() body: IncidentTemplateBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = this.ids.next();
    const command = { type: 'CreateIncidentTemplate', id, accountId: account.accountId, template: toTemplateContent(body) } as const;
    await this.commands.execute(new RunIncidentTemplateCommand(command, actorOf(account)));
    return this.read(account, id, reply);
  }

  @Get(':templateId')
  @ApiOkResponse({ type: IncidentTemplateDto })
  async get(@Account() account: AccountContext, @Param('templateId') templateId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read(account, requireId(templateId, 'Incident template'), reply);
  }

  @Put(':templateId')
  @ApiOkResponse({ type: IncidentTemplateDto })
  async replace(
    @Account() account: AccountContext,
    @Param('templateId') templateId: string,
    @Body() body: IncidentTemplateBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(templateId, 'Incident template');
    const command = { type: 'ReplaceIncidentTemplate', id, accountId: account.accountId, template: toTemplateContent(body) } as const;
    await this.commands.execute(new RunIncidentTemplateCommand(command, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, reply);
  }

  @Delete(':templateId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('templateId') templateId: string, @Headers('if-match') ifMatch: string | undefined) {
    const id = requireId(templateId, 'Incident template');
    const command = { type: 'DeleteIncidentTemplate', id, accountId: account.accountId } as const;
    await this.commands.execute(new RunIncidentTemplateCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<IncidentTemplateView> {
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentTemplate', accountId: account.accountId, id }));
    if (!found) throw new NotFoundError('Incident template not found');
    setEtag(reply, found.revision);
    return found.template;
  }
}

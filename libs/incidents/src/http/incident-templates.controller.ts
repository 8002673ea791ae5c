import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { pageByCreation, withEtag } from '../../../http/src/account-resources';
import { parseIfMatch } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { IncidentTemplateView } from '../read/incident-template-directory';
import { IncidentsQuery } from '../read/incidents.queries';
import { IncidentTemplateCommand } from '../domain/incident-template.decider';
import { RunIncidentTemplateCommand } from '../write/incident-template.handler';
import { IncidentTemplateBodyDto, IncidentTemplateDto, IncidentTemplatePageDto, toTemplateContent } from './incident-template.dto';
import { ApiLimitedPageQuery } from '../../../http/src/page-query';

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
  @ApiLimitedPageQuery()
  list(@Account() { accountId }: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    return pageByCreation(this.cursors, `incident-templates:${accountId}`, { limit, nextId }, (size, after) =>
      this.queries.execute(new IncidentsQuery({ type: 'ListIncidentTemplates', accountId, limit: size, after })),
    );
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: IncidentTemplateDto })
  async create(@Account() account: AccountContext, @Body() body: IncidentTemplateBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = this.ids.next();
    await this.run(account, { type: 'CreateIncidentTemplate', id, accountId: account.accountId, template: toTemplateContent(body) });
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
    await this.run(account, { type: 'ReplaceIncidentTemplate', id, accountId: account.accountId, template: toTemplateContent(body) }, ifMatch);
    return this.read(account, id, reply);
  }

  @Delete(':templateId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('templateId') templateId: string, @Headers('if-match') ifMatch: string | undefined) {
    await this.run(account, { type: 'DeleteIncidentTemplate', id: requireId(templateId, 'Incident template'), accountId: account.accountId }, ifMatch);
  }

  private async run(account: AccountContext, command: IncidentTemplateCommand, ifMatch?: string): Promise<void> {
    await this.commands.execute(new RunIncidentTemplateCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<IncidentTemplateView> {
    const found = await this.queries.execute(new IncidentsQuery({ type: 'GetIncidentTemplate', accountId: account.accountId, id }));
    return withEtag(reply, found, 'Incident template').template;
  }
}

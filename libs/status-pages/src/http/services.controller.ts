import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { KeptRoute, ResponseCache } from '../../../http/src/response-cache';
import { ServiceDirectory, ServiceView } from '../read/service-directory';
import { CreateServiceCommand, DeleteServiceCommand, UpdateServiceCommand } from '../write/service.commands';
import { ServiceBodyDto, ServiceDto, ServicePageDto } from './service.dto';

@ApiTags('services')
@ApiBearerAuth()
@Controller('v1/status-pages/services')
export class ServicesController {
  private readonly keptService: KeptRoute;

  constructor(
    private readonly commands: CommandBus,
    private readonly services: ServiceDirectory,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    private readonly responses: ResponseCache,
  ) {
    this.keptService = responses.keep('/v1/status-pages/services/:serviceId', { token: () => services.changeToken() });
  }

  @Get()
  @ApiOkResponse({ type: ServicePageDto })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiQuery({ name: 'nextId', required: false, type: String })
  async list(@Account() account: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    const scope = `services:${account.accountId}`;
    const size = parseLimit(limit);
    const rows = await this.services.list(account.accountId, size, this.cursors.decode(scope, nextId));
    return this.cursors.page(scope, rows, size, (s: ServiceView) => ({ value: s.created_at, id: s.id }));
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: ServiceDto })
  async create(@Account() account: AccountContext, @Body() body: ServiceBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = await this.commands.execute<CreateServiceCommand, string>(new CreateServiceCommand(account.accountId, body.name, actorOf(account)));
    return this.read(account, id, reply);
  }

  @Get(':serviceId')
  @ApiOkResponse({ type: ServiceDto })
  async get(
    @Account() account: AccountContext,
    @Param('serviceId') serviceId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(serviceId, 'Service');
    return this.responses.answer(request, reply, account.accountId, this.keptService, async () => {
      const found = await this.services.get(account.accountId, id);
      if (!found) throw new NotFoundError('Service not found');
      return { body: found.service, revision: found.revision };
    });
  }

  @Put(':serviceId')
  @ApiOkResponse({ type: ServiceDto })
  async update(
    @Account() account: AccountContext,
    @Param('serviceId') serviceId: string,
    @Body() body: ServiceBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(serviceId, 'Service');
    await this.commands.execute(new UpdateServiceCommand(account.accountId, id, body.name, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, reply);
  }

  @Delete(':serviceId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('serviceId') serviceId: string, @Headers('if-match') ifMatch: string | undefined) {
    const id = requireId(serviceId, 'Service');
    await this.commands.execute(new DeleteServiceCommand(account.accountId, id, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<ServiceView> {
    const found = await this.services.get(account.accountId, id);
    if (!found) throw new NotFoundError('Service not found');
    setEtag(reply, found.revision);
    return found.service;
  }
}

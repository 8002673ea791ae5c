import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { MaintenanceWindowView } from '../read/maintenance-directory';
import { MaintenanceQuery } from '../read/maintenance.queries';
import { RunMaintenanceWindowCommand } from '../write/maintenance-window.handler';
import { MaintenanceWindowBodyDto, MaintenanceWindowDto, MaintenanceWindowPageDto } from './maintenance-window.dto';
import { toConfig } from './window-config';

/** Maintenance windows, in Checkly's shape (contract §4.1). */
@ApiTags('maintenance windows')
@ApiBearerAuth()
@Controller('v1/maintenance-windows')
export class MaintenanceWindowsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  @ApiOkResponse({ type: MaintenanceWindowPageDto })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiQuery({ name: 'nextId', required: false, type: String })
  async list(@Account() account: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    const scope = `maintenance-windows:${account.accountId}`;
    const size = parseLimit(limit);
    const after = this.cursors.decode(scope, nextId);
    const rows = await this.queries.execute(new MaintenanceQuery({ type: 'ListMaintenanceWindows', accountId: account.accountId, limit: size, after }));
    return this.cursors.page(scope, rows, size, (w: MaintenanceWindowView) => ({ value: w.created_at, id: w.id }));
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: MaintenanceWindowDto })
  async create(@Account() account: AccountContext, @Body() body: MaintenanceWindowBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = this.ids.next();
    await this.commands.execute(new RunMaintenanceWindowCommand({ type: 'CreateMaintenanceWindow', id, accountId: account.accountId, config: toConfig(body) }, actorOf(account)));
    return this.read(account, id, reply);
  }

  @Get(':windowId')
  @ApiOkResponse({ type: MaintenanceWindowDto })
  async get(@Account() account: AccountContext, @Param('windowId') windowId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read(account, requireId(windowId, 'Maintenance window'), reply);
  }

  @Put(':windowId')
  @ApiOkResponse({ type: MaintenanceWindowDto })
  async update(
    @Account() account: AccountContext,
    @Param('windowId') windowId: string,
    @Body() body: MaintenanceWindowBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(windowId, 'Maintenance window');
    const command = { type: 'UpdateMaintenanceWindow', id, accountId: account.accountId, config: toConfig(body) } as const;
    await this.commands.execute(new RunMaintenanceWindowCommand(command, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, reply);
  }

  @Delete(':windowId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('windowId') windowId: string, @Headers('if-match') ifMatch: string | undefined) {
    const id = requireId(windowId, 'Maintenance window');
    const command = { type: 'DeleteMaintenanceWindow', id, accountId: account.accountId } as const;
    await this.commands.execute(new RunMaintenanceWindowCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<MaintenanceWindowView> {
    const found = await this.queries.execute(new MaintenanceQuery({ type: 'GetMaintenanceWindow', accountId: account.accountId, id }));
    if (!found) throw new NotFoundError('Maintenance window not found');
    setEtag(reply, found.revision);
    return found.window;
  }
}

import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { pageByCreation, withEtag } from '../../../http/src/account-resources';
import { parseIfMatch } from '../../../http/src/etag';
import { ApiPageQuery } from '../../../http/src/page-query';
import { CURSOR_CODEC, CursorCodec } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { MaintenanceWindowCommand } from '../domain/maintenance-window.decider';
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
  @ApiPageQuery()
  list(@Account() { accountId }: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    return pageByCreation(this.cursors, `maintenance-windows:${accountId}`, { limit, nextId }, (size, after) =>
      this.queries.execute(new MaintenanceQuery({ type: 'ListMaintenanceWindows', accountId, limit: size, after })),
    );
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: MaintenanceWindowDto })
  async create(@Account() account: AccountContext, @Body() body: MaintenanceWindowBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = this.ids.next();
    await this.run(account, { type: 'CreateMaintenanceWindow', id, accountId: account.accountId, config: toConfig(body) });
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
    await this.run(account, { type: 'UpdateMaintenanceWindow', id, accountId: account.accountId, config: toConfig(body) }, ifMatch);
    return this.read(account, id, reply);
  }

  @Delete(':windowId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('windowId') windowId: string, @Headers('if-match') ifMatch: string | undefined) {
    await this.run(account, { type: 'DeleteMaintenanceWindow', id: requireId(windowId, 'Maintenance window'), accountId: account.accountId }, ifMatch);
  }

  private async run(account: AccountContext, command: MaintenanceWindowCommand, ifMatch?: string): Promise<void> {
    await this.commands.execute(new RunMaintenanceWindowCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<MaintenanceWindowView> {
    const found = await this.queries.execute(new MaintenanceQuery({ type: 'GetMaintenanceWindow', accountId: account.accountId, id }));
    return withEtag(reply, found, 'Maintenance window').window;
  }
}

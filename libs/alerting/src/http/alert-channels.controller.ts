import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ALERT_CHANNEL_BODY_SCHEMA } from './alert-channel.schema';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { FastifyReply } from 'fastify';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { ChannelDoc } from '../read/alert-channels.projection';
import { ChannelDirectory, ChannelView } from '../read/channel-directory';
import { AlertChannelCommands } from '../write/alert-channel.commands';

export class ChannelSubscriptionDto {
  @IsUUID('all')
  checkId!: string;

  @IsOptional()
  @IsBoolean()
  activated?: boolean;
}

/** Alert channels in Checkly's shape (contract §8); the config is checked per type by parseChannelBody. */
@ApiTags('alerting')
@ApiBearerAuth()
@Controller('v1/alert-channels')
export class AlertChannelsController {
  constructor(
    private readonly commands: AlertChannelCommands,
    private readonly channels: ChannelDirectory,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiQuery({ name: 'nextId', required: false, type: String })
  async list(@Account() account: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    const scope = `alert-channels:${account.accountId}`;
    const size = parseLimit(limit);
    const rows = await this.channels.list(account.accountId, size, this.cursors.decode(scope, nextId));
    const envelope = this.cursors.page(scope, rows, size, (c: ChannelDoc) => ({ value: c.created_at, id: c.id }));
    return { ...envelope, entries: await this.channels.present(envelope.entries as ChannelDoc[]) };
  }

  @Post()
  @HttpCode(201)
  @ApiBody({ schema: ALERT_CHANNEL_BODY_SCHEMA as never })
  @ApiCreatedResponse()
  async create(@Account() account: AccountContext, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = await this.commands.create(account.accountId, body, actorOf(account));
    return this.read(account, id, reply);
  }

  @Get(':id')
  @ApiOkResponse()
  async get(@Account() account: AccountContext, @Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read(account, requireId(id, 'Alert channel'), reply);
  }

  @Put(':id')
  @ApiBody({ schema: ALERT_CHANNEL_BODY_SCHEMA as never })
  @ApiOkResponse()
  async update(
    @Account() account: AccountContext,
    @Param('id') rawId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(rawId, 'Alert channel');
    await this.commands.update(account.accountId, id, body, actorOf(account), parseIfMatch(ifMatch));
    return this.read(account, id, reply);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('id') rawId: string, @Headers('if-match') ifMatch: string | undefined) {
    await this.commands.delete(account.accountId, requireId(rawId, 'Alert channel'), actorOf(account), parseIfMatch(ifMatch));
  }

  @Put(':id/subscriptions')
  @ApiOkResponse()
  async subscribe(@Account() account: AccountContext, @Param('id') rawId: string, @Body() body: ChannelSubscriptionDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = requireId(rawId, 'Alert channel');
    await this.commands.setSubscription(account.accountId, id, body.checkId.toLowerCase(), body.activated ?? true, actorOf(account));
    return this.read(account, id, reply);
  }

  @Post(':id/test')
  @HttpCode(202)
  async test(@Account() account: AccountContext, @Param('id') rawId: string) {
    const notificationId = await this.commands.requestTest(account.accountId, requireId(rawId, 'Alert channel'), actorOf(account));
    return { notificationId };
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<ChannelView> {
    const found = await this.channels.get(account.accountId, id);
    if (!found) throw new NotFoundError('Alert channel not found');
    setEtag(reply, found.revision);
    return found.channel;
  }
}

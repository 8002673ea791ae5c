import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ALERT_CHANNEL_BODY_SCHEMA } from './alert-channel.schema';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { FastifyReply } from 'fastify';
import { NotFoundError, ValidationError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { Account, AccountContext } from '../../../http/src/account-context';
import { withEtag, pageByCreation } from '../../../http/src/account-resources';
import { parseIfMatch } from '../../../http/src/etag';
import { ApiPageQuery } from '../../../http/src/page-query';
import { CURSOR_CODEC, CursorCodec } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { ChannelSettings, parseChannelBody } from '../domain/alert-channel';
import { resolvedTargetProblems } from '../send/target-check';
import { AlertingQuery } from '../read/alerting.queries';
import { ChannelView } from '../read/channel-directory';
import { RunAlertChannelCommand } from '../write/alert-channel.handler';
import { ChannelSubscriptions } from '../write/channel-subscriptions';

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
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly subscriptions: ChannelSubscriptions,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get()
  @ApiPageQuery()
  list(@Account() { accountId }: AccountContext, @Query('limit') limit?: string, @Query('nextId') nextId?: string) {
    return pageByCreation(this.cursors, `alert-channels:${accountId}`, { limit, nextId }, (size, after) =>
      this.queries.execute(new AlertingQuery({ type: 'ListAlertChannels', accountId, limit: size, after })),
    );
  }

  @Post()
  @HttpCode(201)
  @ApiBody({ schema: ALERT_CHANNEL_BODY_SCHEMA as never })
  @ApiCreatedResponse()
  async create(@Account() account: AccountContext, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { settings, subscriptions } = await this.parse(account.accountId, body);
    const id = this.ids.next();
    const actor = actorOf(account);
    await this.commands.execute(new RunAlertChannelCommand({ type: 'CreateAlertChannel', id, accountId: account.accountId, settings }, actor));
    for (const s of subscriptions ?? []) await this.subscriptions.set(account.accountId, id, s.checkId, s.activated, actor);
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
    const stored = await this.queries.execute(new AlertingQuery({ type: 'AlertChannelSettings', accountId: account.accountId, id }));
    if (!stored) throw new NotFoundError('Alert channel not found');
    const { settings, subscriptions } = await this.parse(account.accountId, body, stored);
    const actor = actorOf(account);
    await this.commands.execute(new RunAlertChannelCommand({ type: 'UpdateAlertChannel', id, accountId: account.accountId, settings }, actor, parseIfMatch(ifMatch)));
    if (subscriptions) await this.subscriptions.replace(account.accountId, id, subscriptions, actor);
    return this.read(account, id, reply);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('id') rawId: string, @Headers('if-match') ifMatch: string | undefined) {
    const id = requireId(rawId, 'Alert channel');
    const actor = actorOf(account);
    await this.commands.execute(new RunAlertChannelCommand({ type: 'DeleteAlertChannel', id, accountId: account.accountId }, actor, parseIfMatch(ifMatch)));
    await this.subscriptions.removeAll(account.accountId, id, actor);
  }

  @Put(':id/subscriptions')
  @ApiOkResponse()
  async subscribe(@Account() account: AccountContext, @Param('id') rawId: string, @Body() body: ChannelSubscriptionDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = requireId(rawId, 'Alert channel');
    const checkId = body.checkId.toLowerCase();
    await this.read(account, id, reply);
    if (!(await this.subscriptions.checkExists(account.accountId, checkId))) throw new NotFoundError('Check not found');
    await this.subscriptions.set(account.accountId, id, checkId, body.activated ?? true, actorOf(account));
    return this.read(account, id, reply);
  }

  @Post(':id/test')
  @HttpCode(202)
  async test(@Account() account: AccountContext, @Param('id') rawId: string) {
    const notificationId = this.ids.next();
    const command = { type: 'RequestAlertChannelTest' as const, id: requireId(rawId, 'Alert channel'), accountId: account.accountId, notificationId };
    await this.commands.execute(new RunAlertChannelCommand(command, actorOf(account)));
    return { notificationId };
  }

  /** The body's settings (a stored channel's secrets kept where the body repeats them masked) and subscriptions. */
  private async parse(accountId: string, body: unknown, stored?: ChannelSettings) {
    const parsed = parseChannelBody(body, { allowPrivate: this.config.outboundAllowPrivate }, stored);
    if (!parsed.settings) throw ValidationError.of(parsed.details);
    // A URL whose name resolves to a private address is refused as its address would be.
    const targetProblems = await resolvedTargetProblems(parsed.settings.config, { allowPrivate: this.config.outboundAllowPrivate });
    if (targetProblems.length > 0) throw ValidationError.of(targetProblems);
    if (parsed.subscriptions) await this.subscriptions.requireChecks(accountId, parsed.subscriptions.map((s) => s.checkId));
    return { settings: parsed.settings, subscriptions: parsed.subscriptions };
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<ChannelView> {
    const found = await this.queries.execute(new AlertingQuery({ type: 'GetAlertChannel', accountId: account.accountId, id }));
    return withEtag(reply, found, 'Alert channel').channel;
  }
}

import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Res, UseGuards } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ForbiddenError, NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { actorOf, requireId } from '../../../http/src/params';
import { SubscriptionStatus } from '../domain/subscriptions.decider';
import { SubscriptionView } from '../read/subscriptions.projection';
import { StatusPagesQuery } from '../read/status-pages.queries';
import { addedCount, RunSubscriptionsCommand } from '../write/subscriptions.handler';
import { PageIdGuard } from './page-id.guard';
import { BulkResultDto, BulkSubscriptionsDto, SubscriptionDto } from './subscription.dto';

@ApiTags('status page subscriptions')
@ApiBearerAuth()
@Controller('v1/status-pages/:statusPageId/subscriptions')
@UseGuards(PageIdGuard)
export class SubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOkResponse({ type: [SubscriptionDto] })
  async list(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string): Promise<SubscriptionView[]> {
    const pageId = requireId(statusPageId, 'Status page');
    const list = await this.queries.execute(new StatusPagesQuery({ type: 'ListSubscriptions', accountId: account.accountId, statusPageId: pageId }));
    if (!list) throw new NotFoundError('Status page not found');
    return list;
  }

  @Post('bulk')
  @HttpCode(201)
  @ApiCreatedResponse({ type: BulkResultDto })
  async bulk(
    @Account() account: AccountContext,
    @Param('statusPageId') statusPageId: string,
    @Body() body: BulkSubscriptionsDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ created: number; skipped: number; status: SubscriptionStatus }> {
    const pageId = requireId(statusPageId, 'Status page');
    if (body.autoVerify === true && account.role !== 'ADMIN') throw new ForbiddenError('autoVerify (adding subscribers without double opt-in) needs an ADMIN key');
    const status: SubscriptionStatus = body.autoVerify === true ? 'VERIFIED' : 'PENDING';
    // Skipping double opt-in is recorded with the key that did it.
    const verifiedBy = body.autoVerify === true ? { autoVerifiedBy: account.keyId ?? 'unknown' } : {};
    const candidates = body.subscriptions.map((entry) => ({ id: this.ids.next(), type: entry.type ?? ('EMAIL' as const), address: entry.config.trim(), status, ...verifiedBy }));
    const command = { type: 'AddSubscriptions' as const, statusPageId: pageId, accountId: account.accountId, candidates, requestedAt: this.clock.now().toISOString() };
    const result = await this.commands.execute(new RunSubscriptionsCommand(command, actorOf(account)));
    setEtag(reply, result.revision);
    const created = addedCount(result);
    return { created, skipped: candidates.length - created, status };
  }

  @Delete(':subscriptionId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @Account() account: AccountContext,
    @Param('statusPageId') statusPageId: string,
    @Param('subscriptionId') subscriptionId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ) {
    const pageId = requireId(statusPageId, 'Status page');
    const id = requireId(subscriptionId, 'Subscription');
    const command = { type: 'RemoveSubscription' as const, statusPageId: pageId, accountId: account.accountId, id };
    await this.commands.execute(new RunSubscriptionsCommand(command, actorOf(account), parseIfMatch(ifMatch)));
  }
}

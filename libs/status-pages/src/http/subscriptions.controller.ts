import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ForbiddenError, NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { actorOf, requireId } from '../../../http/src/params';
import { StatusPageDirectory } from '../read/status-page-directory';
import { SubscriptionDirectory, SubscriptionView } from '../read/subscription-directory';
import { AddSubscriptionsCommand, BulkOutcome, BulkResult, RemoveSubscriptionCommand } from '../write/subscription.commands';
import { PageIdGuard } from './page-id.guard';
import { BulkResultDto, BulkSubscriptionsDto, SubscriptionDto } from './subscription.dto';

@ApiTags('status page subscriptions')
@ApiBearerAuth()
@Controller('v1/status-pages/:statusPageId/subscriptions')
@UseGuards(PageIdGuard)
export class SubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly pages: StatusPageDirectory,
    private readonly subscriptions: SubscriptionDirectory,
  ) {}

  @Get()
  @ApiOkResponse({ type: [SubscriptionDto] })
  async list(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string): Promise<SubscriptionView[]> {
    const pageId = requireId(statusPageId, 'Status page');
    if (!(await this.pages.getDoc(account.accountId, pageId))) throw new NotFoundError('Status page not found');
    return this.subscriptions.list(account.accountId, pageId);
  }

  @Post('bulk')
  @HttpCode(201)
  @ApiCreatedResponse({ type: BulkResultDto })
  async bulk(
    @Account() account: AccountContext,
    @Param('statusPageId') statusPageId: string,
    @Body() body: BulkSubscriptionsDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BulkResult> {
    const pageId = requireId(statusPageId, 'Status page');
    if (body.autoVerify === true && account.role !== 'ADMIN') throw new ForbiddenError('autoVerify (adding subscribers without double opt-in) needs an ADMIN key');
    const addresses = body.subscriptions.map((entry) => entry.config);
    const { result, revision } = await this.commands.execute<AddSubscriptionsCommand, BulkOutcome>(
      new AddSubscriptionsCommand(account.accountId, pageId, addresses, body.autoVerify === true, actorOf(account), body.subscriptions.map((entry) => entry.type)),
    );
    setEtag(reply, revision);
    return result;
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
    await this.commands.execute(new RemoveSubscriptionCommand(account.accountId, pageId, id, actorOf(account), parseIfMatch(ifMatch)));
  }
}

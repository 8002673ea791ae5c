import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { NotFoundError, PreconditionFailedError, ValidationError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { AnswerCache, keptJson } from '../../../http/src/response-cache';
import { ApiLimitedPageQuery } from '../../../http/src/page-query';
import { actorOf, requireId } from '../../../http/src/params';
import { shownUntil } from '../read/page-incidents';
import { StatusPageDetailView, StatusPageDirectory, StatusPageView } from '../read/status-page-directory';
import { StatusPagesQuery } from '../read/status-pages.queries';
import { CustomDomainChecks, DomainProofInstructions } from '../write/custom-domain-checks';
import { RunStatusPageCommand } from '../write/status-page.handler';
import { toPageInput } from './page-input';
import { PageIdGuard } from './page-id.guard';
import { PatchStatusPageDto, patchedBody } from './status-page-patch';
import { StatusPageBodyDto, StatusPageDetailDto, StatusPagePageDto } from './status-page.dto';

@ApiTags('status pages')
@ApiBearerAuth()
@Controller('v1/status-pages')
@UseGuards(PageIdGuard)
export class StatusPagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly answers: AnswerCache,
    private readonly pages: StatusPageDirectory,
    private readonly domains: CustomDomainChecks,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List status pages with theme, cards, services and incidents (endpoint 8)' })
  @ApiOkResponse({ type: StatusPagePageDto })
  @ApiLimitedPageQuery()
  async list(
    @Account() account: AccountContext,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('limit') limit?: string,
    @Query('nextId') nextId?: string,
  ): Promise<Buffer> {
    const scope = `status-pages:${account.accountId}`;
    const size = parseLimit(limit);
    const after = this.cursors.decode(scope, nextId);
    // Kept (its benchmark target needs it): a list with its services and incidents is large, and stays the same between writes.
    const now = this.clock.now().getTime();
    const key = JSON.stringify(['status-pages', account.accountId, size, nextId ?? null]);
    const { json } = await this.answers.answer(key, await this.pages.changeToken(), now, async () => {
      const pages = await this.queries.execute(new StatusPagesQuery({ type: 'ListStatusPages', accountId: account.accountId, limit: size, after }));
      const envelope = this.cursors.page(scope, pages, size, (page: StatusPageView) => ({ value: page.created_at, id: page.id }));
      return { ...keptJson(envelope), validUntil: shownUntil(pages.slice(0, size).flatMap((page) => page.incidents), now) };
    });
    void reply.type('application/json; charset=utf-8');
    return json;
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: StatusPageDetailDto })
  async create(@Account() account: AccountContext, @Body() body: StatusPageBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = this.ids.next();
    await this.commands.execute(new RunStatusPageCommand({ type: 'CreateStatusPage', id, accountId: account.accountId, page: toPageInput(body, this.ids) }, actorOf(account)));
    return this.read(account, id, reply);
  }

  @Get(':statusPageId')
  @ApiOkResponse({ type: StatusPageDetailDto })
  async get(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read(account, requireId(statusPageId, 'Status page'), reply);
  }

  @Put(':statusPageId')
  @ApiOkResponse({ type: StatusPageDetailDto })
  async update(
    @Account() account: AccountContext,
    @Param('statusPageId') statusPageId: string,
    @Body() body: StatusPageBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(statusPageId, 'Status page');
    const command = { type: 'UpdateStatusPage' as const, id, accountId: account.accountId, page: toPageInput(body, this.ids) };
    await this.commands.execute(new RunStatusPageCommand(command, actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, reply);
  }

  @Patch(':statusPageId')
  @ApiBody({ type: PatchStatusPageDto })
  @ApiOkResponse({ type: StatusPageDetailDto })
  async patch(
    @Account() account: AccountContext,
    @Param('statusPageId') statusPageId: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(statusPageId, 'Status page');
    const expected = parseIfMatch(ifMatch);
    // Without If-Match, a write landing between the read and this one is merged with, never overwritten.
    for (let attempt = 1; ; attempt++) {
      const found = await this.current(account, id);
      if (expected !== undefined && expected !== found.revision) throw new PreconditionFailedError();
      const page = toPageInput(await patchedBody(found.page, body), this.ids);
      try {
        await this.commands.execute(new RunStatusPageCommand({ type: 'UpdateStatusPage', id, accountId: account.accountId, page }, actorOf(account), found.revision));
        return this.read(account, id, reply);
      } catch (error) {
        if (!(error instanceof PreconditionFailedError) || expected !== undefined || attempt >= 3) throw error;
      }
    }
  }

  @Delete(':statusPageId')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string, @Headers('if-match') ifMatch: string | undefined) {
    const id = requireId(statusPageId, 'Status page');
    await this.commands.execute(new RunStatusPageCommand({ type: 'DeleteStatusPage', id, accountId: account.accountId }, actorOf(account), parseIfMatch(ifMatch)));
  }

  @Post(':statusPageId/custom-domain/check')
  @HttpCode(200)
  @ApiOperation({ summary: "Check the custom domain's proof now (a DNS TXT record or an HTTP token); the page answers there once verified" })
  @ApiOkResponse({ type: StatusPageDetailDto })
  async checkDomain(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = requireId(statusPageId, 'Status page');
    const found = await this.current(account, id);
    if (!found.page.customDomain) throw new ValidationError('This status page has no customDomain to check');
    await this.domains.check(id, found.page.customDomain);
    return this.read(account, id, reply);
  }

  private async read(
    account: AccountContext,
    id: string,
    reply: FastifyReply,
  ): Promise<StatusPageDetailView & { customDomainVerification?: DomainProofInstructions & { status: 'VERIFIED' | 'PENDING' } }> {
    const found = await this.current(account, id);
    setEtag(reply, found.revision);
    const { customDomainVerified, ...page } = found.page;
    if (!page.customDomain) return page;
    // Until verified, the page answers only at /status/{url}; these say how to prove the domain.
    const instructions = await this.domains.instructions(id, page.customDomain);
    return { ...page, customDomainVerification: { status: customDomainVerified ? 'VERIFIED' : 'PENDING', ...instructions } };
  }

  private async current(account: AccountContext, id: string): Promise<{ page: StatusPageDetailView; revision: bigint }> {
    const found = await this.queries.execute(new StatusPagesQuery({ type: 'GetStatusPage', accountId: account.accountId, id }));
    if (!found) throw new NotFoundError('Status page not found');
    return found;
  }
}

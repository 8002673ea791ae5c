import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseIfMatch, setEtag } from '../../../http/src/etag';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { THEME_COLOR_KEYS, ThemeColors, ThemeColorSet } from '../domain/theme';
import { shownUntil } from '../read/page-incidents';
import { StatusPageListCache } from '../read/page-list-cache';
import { StatusPageDetailView, StatusPageDirectory } from '../read/status-page-directory';
import { StatusPageDoc } from '../read/status-pages.projection';
import { CreateStatusPageCommand, DeleteStatusPageCommand, PageRequest, UpdateStatusPageCommand } from '../write/status-page.commands';
import { PageIdGuard } from './page-id.guard';
import { StatusPageBodyDto, StatusPageDetailDto, StatusPagePageDto, ThemeColorsDto } from './status-page.dto';

/** The twelve colours in api.md's order, whatever order (and extras) the client sent. */
function colorSet(source: ThemeColorSet): ThemeColorSet {
  return Object.fromEntries(THEME_COLOR_KEYS.map((key) => [key, source[key]])) as ThemeColorSet;
}

function toThemeColors(dto: ThemeColorsDto | null | undefined): ThemeColors | null {
  if (!dto) return null;
  return { light: colorSet(dto.light), dark: colorSet(dto.dark) };
}

/** The validated body as the write side takes it: unset optional values are null. */
function toPageRequest(body: StatusPageBodyDto): PageRequest {
  return {
    name: body.name,
    url: body.url,
    customDomain: body.customDomain ?? null,
    description: body.description ?? null,
    logo: body.logo ?? null,
    logoDark: body.logoDark ?? null,
    favicon: body.favicon ?? null,
    redirectTo: body.redirectTo ?? null,
    defaultTheme: body.defaultTheme ?? 'AUTO',
    themeColors: toThemeColors(body.themeColors),
    cards: body.cards.map((card) => ({
      id: typeof card.id === 'string' ? card.id : null,
      name: card.name,
      serviceIds: card.services.map((service) => service.id),
    })),
  };
}

@ApiTags('status pages')
@ApiBearerAuth()
@Controller('v1/status-pages')
export class StatusPagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly pages: StatusPageDirectory,
    private readonly listCache: StatusPageListCache,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List status pages with theme, cards, services and incidents (endpoint 8)' })
  @ApiOkResponse({ type: StatusPagePageDto })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiQuery({ name: 'nextId', required: false, type: String })
  async list(
    @Account() account: AccountContext,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('limit') limit?: string,
    @Query('nextId') nextId?: string,
  ): Promise<Buffer> {
    const scope = `status-pages:${account.accountId}`;
    const size = parseLimit(limit);
    const after = this.cursors.decode(scope, nextId);
    // Served already serialized: a list with its services and incidents is large, and stays the same
    // between writes (see StatusPageListCache).
    const body = await this.listCache.get(`${scope}:${size}:${nextId ?? ''}`, async () => {
      const now = this.clock.now().getTime();
      const docs = await this.pages.listDocs(account.accountId, size, after);
      const envelope = this.cursors.page(scope, docs, size, (doc: StatusPageDoc) => ({ value: doc.created_at, id: doc.id }));
      const entries = await this.pages.present(account.accountId, envelope.entries as StatusPageDoc[]);
      return { body: Buffer.from(JSON.stringify({ ...envelope, entries })), validUntil: shownUntil(entries.flatMap((entry) => entry.incidents), now) };
    });
    reply.type('application/json; charset=utf-8');
    return body;
  }

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: StatusPageDetailDto })
  async create(@Account() account: AccountContext, @Body() body: StatusPageBodyDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const id = await this.commands.execute<CreateStatusPageCommand, string>(
      new CreateStatusPageCommand(account.accountId, toPageRequest(body), actorOf(account)),
    );
    return this.read(account, id, reply);
  }

  @Get(':statusPageId')
  @UseGuards(PageIdGuard)
  @ApiOkResponse({ type: StatusPageDetailDto })
  async get(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.read(account, requireId(statusPageId, 'Status page'), reply);
  }

  @Put(':statusPageId')
  @UseGuards(PageIdGuard)
  @ApiOkResponse({ type: StatusPageDetailDto })
  async update(
    @Account() account: AccountContext,
    @Param('statusPageId') statusPageId: string,
    @Body() body: StatusPageBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const id = requireId(statusPageId, 'Status page');
    await this.commands.execute(new UpdateStatusPageCommand(account.accountId, id, toPageRequest(body), actorOf(account), parseIfMatch(ifMatch)));
    return this.read(account, id, reply);
  }

  @Delete(':statusPageId')
  @UseGuards(PageIdGuard)
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Account() account: AccountContext, @Param('statusPageId') statusPageId: string, @Headers('if-match') ifMatch: string | undefined) {
    const id = requireId(statusPageId, 'Status page');
    await this.commands.execute(new DeleteStatusPageCommand(account.accountId, id, actorOf(account), parseIfMatch(ifMatch)));
  }

  private async read(account: AccountContext, id: string, reply: FastifyReply): Promise<StatusPageDetailView> {
    const found = await this.pages.get(account.accountId, id);
    if (!found) throw new NotFoundError('Status page not found');
    setEtag(reply, found.revision);
    return found.page;
  }
}

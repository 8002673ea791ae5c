import { isIP } from 'node:net';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { unlessNotFound } from '../../../core/src/unless-not-found';
import { Public } from '../../../http/src/account-context';
import { errorBody } from '../../../http/src/error-body';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { DEFAULT_THEME_COLORS, isDeliverableAddress, RunSubscriptionsCommand, StatusPageDetailView } from '../../../status-pages/src/status-pages.api';
import { STATUS_LABEL } from '../read/component-status';
import { hostName, PageRef, PublicPageModel, PublicPages } from '../read/public-pages.query';
import { PublicPagesQuery } from '../read/public-pages.queries';
import { incidentFeed } from '../render/feeds';
import { ASSET_PREFIX, PublicRenderer } from '../render/public-renderer';
import { STATUSPAGE_ROUTES, StatuspageJson } from '../render/statuspage-json';
import { themeStylesheet } from '../render/theme-stylesheet';
import { AnswerCache } from '../../../http/src/response-cache';
import { answerOf, PublicAnswer, sendAnswer } from './public-answers';
import { SubscribeLimiter } from './subscribe-limiter';

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const SVG = 'image/svg+xml; charset=utf-8';

/** HTML revalidates every time (a write shows at once); JSON, feeds and badges may be kept 30 s (contract §6). */
const HTML_CACHE = 'public, max-age=0, must-revalidate';
const SHORT_CACHE = 'public, max-age=30';
const LONG_CACHE = 'public, max-age=31536000, immutable';
const CORS = { 'access-control-allow-origin': '*' };
const LOCKED_DOWN = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
/** Headers of JSON, feeds and badges: kept 30 s, no document rules to apply, readable from any site. */
const SHORT_OPEN = { 'cache-control': SHORT_CACHE, 'content-security-policy': LOCKED_DOWN, ...CORS };

export const SUBSCRIBE_ROUTES = new Set(['/status/:url/subscribe', '/subscribe']);

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i;

const BADGE_COLORS: Record<string, { svg: string; shields: string }> = {
  operational: { svg: '#15803d', shields: 'brightgreen' },
  degraded_performance: { svg: '#a16207', shields: 'yellow' },
  partial_outage: { svg: '#c2410c', shields: 'orange' },
  major_outage: { svg: '#b91c1c', shields: 'red' },
  under_maintenance: { svg: '#1d4ed8', shields: 'blue' },
};

type NotFoundKind = 'html' | 'json';

/**
 * A post another site made a browser send: Sec-Fetch-Site says so where browsers send it, else an Origin
 * other than the host posted to. Clients that send neither (curl, old browsers) are not browsers misled by a
 * third party, and are limited per address like everyone.
 */
export function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  return origin === 'null' || !URL.canParse(origin) || new URL(origin).host.toLowerCase() !== String(request.headers.host ?? '').toLowerCase();
}

/** Images a page may show besides Vigil's own: the origins of its logos and favicon. */
export function pageCsp(page: StatusPageDetailView | null): string {
  // What is not a URL the page does not show.
  const shown = [page?.logo, page?.logoDark, page?.favicon].flatMap((url) => (url && URL.canParse(url) ? [new URL(url).origin] : []));
  const origins = new Set(shown.filter((origin) => ORIGIN.test(origin)));
  return ["default-src 'none'", "style-src 'self'", `img-src 'self' ${[...origins].join(' ')}`.trim(), "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');
}

/**
 * The public face of every status page (contract §6): HTML, feeds, Statuspage v2 JSON, badges and
 * the subscribe form, under /status/{url} and, on the page's custom domain, at the root.
 */
@Public()
@ApiExcludeController()
@Controller()
export class PublicPagesController {
  private readonly limiter = new SubscribeLimiter();
  /** Vigil's own files, by path: built once. */
  private readonly assets: Map<string, PublicAnswer>;

  constructor(
    private readonly pages: PublicPages,
    private readonly renderer: PublicRenderer,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly answers: AnswerCache,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    const fixed = (type: string, body: string, cache: string) => answerOf(200, type, body, { 'cache-control': cache, 'content-security-policy': LOCKED_DOWN });
    this.assets = new Map([
      [renderer.stylesheetHref, fixed(CSS, renderer.stylesheet, LONG_CACHE)],
      [renderer.faviconHref, fixed(SVG, renderer.favicon, LONG_CACHE)],
      [`${ASSET_PREFIX}/theme-default.css`, fixed(CSS, themeStylesheet('AUTO', DEFAULT_THEME_COLORS), 'public, max-age=86400')],
    ]);
  }

  @Get(`${ASSET_PREFIX.slice(1)}/:file`)
  asset(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return sendAnswer(request, reply, this.assets.get(`${ASSET_PREFIX}/${file}`) ?? this.notFound('json'));
  }

  @Get(['status/:url', ''])
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.respond(request, reply, 'html', [], async (model) => this.html(200, model.page, this.renderer.page(model)));
  }

  @Get(['status/:url/history', 'history'])
  history(@Query('page') pageParam: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const n = pageParam === undefined ? 1 : /^[1-9]\d{0,3}$/.test(String(pageParam)) ? Number(pageParam) : null;
    return this.respond(request, reply, 'html', [n], async (model, ref) => {
      if (n === null) {
        return this.html(400, model.page, this.renderer.message(ref, model.page, 'No such history page', ['History pages are numbered from 1.']));
      }
      const { incidents, from, to, more } = await this.queries.execute(new PublicPagesQuery({ type: 'PageHistory', ref, serviceIds: model.services.map((s) => s.id), n }));
      return this.html(200, model.page, this.renderer.history(ref, model.page, incidents, { from, to, n, more }));
    });
  }

  @Get(['status/:url/incidents/:incidentId', 'incidents/:incidentId'])
  incident(@Param('incidentId') incidentId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.respond(request, reply, 'html', [incidentId], async (model, ref) => {
      const serviceIds = model.services.map((s) => s.id);
      const incident = isUuid(incidentId) ? await this.queries.execute(new PublicPagesQuery({ type: 'PageIncident', ref, incidentId, serviceIds })) : null;
      if (!incident) return this.html(404, model.page, this.renderer.message(ref, model.page, 'Incident not found', ['This page shows no such incident.']));
      return this.html(200, model.page, this.renderer.incident(ref, model.page, incident));
    });
  }

  @Get(['status/:url/history.rss', 'history.rss', 'status/:url/history.atom', 'history.atom'])
  feed(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const atom = request.routeOptions.url?.endsWith('.atom') ?? false;
    return this.respond(request, reply, 'json', [], async (model, ref) => {
      const incidents = await this.latest(ref, model.services.map((s) => s.id));
      const feed = incidentFeed(this.renderer.markdown, model.page, model.page.publicUrl, incidents, model.now);
      const type = atom ? 'application/atom+xml; charset=utf-8' : 'application/rss+xml; charset=utf-8';
      return answerOf(200, type, atom ? feed.atom1() : feed.rss2(), SHORT_OPEN);
    });
  }

  @Get(['status/:url/api/v2/:first', 'status/:url/api/v2/:first/:second', 'api/v2/:first', 'api/v2/:first/:second'])
  statuspage(@Param('first') first: string, @Param('second') second: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const route = second === undefined ? first : `${first}/${second}`;
    const body = STATUSPAGE_ROUTES.get(route);
    if (!body) return sendAnswer(request, reply, this.notFound('json'));
    return this.respond(request, reply, 'json', [route], async (model, ref) => {
      const latest = () => this.latest(ref, model.services.map((s) => s.id));
      return this.json(200, await body(new StatuspageJson(model, model.page.publicUrl), latest));
    });
  }

  @Get(['status/:url/badge.svg', 'badge.svg', 'status/:url/badge.json', 'badge.json'])
  badge(@Query('service') serviceId: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const svg = request.routeOptions.url?.endsWith('.svg') ?? false;
    return this.respond(request, reply, 'json', [serviceId === undefined ? null : String(serviceId)], async (model) => {
      let label = 'status';
      let message = model.indicator === 'none' ? 'operational' : model.indicator === 'minor' ? 'degraded' : model.indicator === 'major' ? 'partial outage' : 'major outage';
      let status = model.indicator === 'none' ? 'operational' : model.indicator === 'minor' ? 'degraded_performance' : model.indicator === 'major' ? 'partial_outage' : 'major_outage';
      if (serviceId !== undefined) {
        const service = model.services.find((s) => s.id === serviceId);
        if (!service) return this.notFound('json');
        label = service.name;
        status = service.status;
        message = STATUS_LABEL[service.status].toLowerCase();
      }
      const color = BADGE_COLORS[status];
      if (svg) return answerOf(200, SVG, this.renderer.badge(label, message, color.svg), SHORT_OPEN);
      return this.json(200, { schemaVersion: 1, label, message, color: color.shields });
    });
  }

  @Get(['status/:url/theme/:file', 'theme/:file'])
  theme(@Param('file') file: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.respond(request, reply, 'json', [file], async (model) => {
      const { css, hash } = this.renderer.theme(model.page);
      // An old name (the theme changed since the HTML was fetched) still gets the current theme, just not for long.
      return answerOf(200, CSS, css, { 'cache-control': file === `${hash}.css` ? LONG_CACHE : 'no-cache', 'content-security-policy': LOCKED_DOWN });
    });
  }

  @Post(['status/:url/subscribe', 'subscribe'])
  async subscribe(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const ref = await this.resolve(request);
    const found = ref && (await this.model(ref));
    if (!ref || !found) return sendAnswer(request, reply, this.notFound('html'), false);
    const page = found.page;
    // A short page in the page's look; a POST's answer is never a 304.
    const say = (status: number, heading: string, paragraphs: string[], headers: Record<string, string> = {}) => {
      const answer = this.html(status, page, this.renderer.message(ref, page, heading, paragraphs));
      return sendAnswer(request, reply, { ...answer, headers: { ...answer.headers, ...headers } }, false);
    };
    if (crossSite(request)) {
      return say(403, 'Subscribe on the status page', ['This form only takes subscriptions sent from the status page itself.']);
    }
    const wait = this.limiter.take(request.ip, this.clock.now().getTime());
    if (wait > 0) {
      return say(429, 'Too many requests', ['Too many subscriptions from your address. Please try again in a few minutes.'], { 'retry-after': String(wait) });
    }
    const email = typeof (body as { email?: unknown } | undefined)?.email === 'string' ? (body as { email: string }).email.trim() : '';
    if (!isDeliverableAddress(email)) {
      return say(400, 'Please check the address', ['That does not look like an email address. Go back and try again.']);
    }
    const command = {
      type: 'AddSubscriptions' as const,
      statusPageId: ref.id,
      accountId: ref.accountId,
      candidates: [{ id: this.ids.next(), type: 'EMAIL' as const, address: email, status: 'PENDING' as const }],
      requestedAt: this.clock.now().toISOString(),
    };
    const actor = { accountId: ref.accountId, keyId: null, keyName: 'public subscribe form', requestId: String(request.id) };
    if (!(await unlessNotFound(this.commands.execute(new RunSubscriptionsCommand(command, actor))))) return sendAnswer(request, reply, this.notFound('html'), false);
    // The same answer whether or not the address was subscribed already (contract §8).
    return say(200, 'Check your inbox', [
      'If this address can receive updates, we have sent it an email with a link to confirm the subscription.',
      'The link is valid for 48 hours. Nothing is sent to you before you follow it.',
    ]);
  }

  /**
   * Serves the kept answer while current, otherwise builds it from the page's model (a 404 when there is no
   * page) and keeps it.
   * The key is the route, the page's address and `params`, the parameters the route reads: nothing else of
   * the URL, so a query string of its own cannot make a request miss.
   */
  private async respond(request: FastifyRequest, reply: FastifyReply, kind: NotFoundKind, params: unknown[], build: (model: PublicPageModel, ref: PageRef) => Promise<PublicAnswer>) {
    const url = (request.params as { url?: string }).url;
    // The instance's own root leads to the operator console rather than a 404; an unknown domain stays nobody's page.
    if (url === undefined && request.routeOptions.url === '/' && this.isOwnHost(request.hostname) && !(await this.resolve(request))) {
      return reply.code(302).header('location', '/console').header('cache-control', 'no-store').send();
    }
    const key = JSON.stringify([request.routeOptions.url, url ?? hostName(request.headers.host), ...params]);
    // Kept for the target "public page, warm: ≥ 25 % of bare Fastify" (docs/benchmarks.md); the token moves with every read model a page shows, and the minute.
    const answer = await this.answers.answer(key, this.pages.changeToken(), 0, async () => {
      const ref = await this.resolve(request);
      const model = ref && (await this.model(ref));
      const built = ref && model ? await build(model, ref) : this.notFound(kind);
      return { value: built, bytes: built.body.length, keep: built.status === 200 };
    });
    return sendAnswer(request, reply, answer);
  }

  /** VIGIL_PUBLIC_URL's host, localhost or an IP address: the instance itself, not a status page's domain. */
  private isOwnHost(hostname: string): boolean {
    const name = hostname.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
    return name === new URL(this.config.publicUrl).hostname.toLowerCase() || name === 'localhost' || isIP(name) !== 0;
  }

  private resolve(request: FastifyRequest): Promise<PageRef | null> {
    const url = (request.params as { url?: string }).url;
    return this.queries.execute(url === undefined ? new PublicPagesQuery({ type: 'PageByHost', host: request.headers.host }) : new PublicPagesQuery({ type: 'PageByUrl', url }));
  }

  private model(ref: PageRef) {
    return this.queries.execute(new PublicPagesQuery({ type: 'PageModel', ref }));
  }

  private latest(ref: PageRef, serviceIds: string[]) {
    return this.queries.execute(new PublicPagesQuery({ type: 'LatestIncidents', ref, serviceIds }));
  }

  private html(status: number, page: StatusPageDetailView | null, body: string): PublicAnswer {
    return answerOf(status, HTML, body, { 'cache-control': status === 200 ? HTML_CACHE : 'no-store', 'content-security-policy': pageCsp(page) });
  }

  private json(status: number, body: unknown): PublicAnswer {
    return answerOf(status, JSON_TYPE, JSON.stringify(body), SHORT_OPEN);
  }

  private notFound(kind: NotFoundKind): PublicAnswer {
    if (kind === 'json') return answerOf(404, JSON_TYPE, JSON.stringify(errorBody(404, 'Not found')), { 'cache-control': 'no-store', 'content-security-policy': LOCKED_DOWN, ...CORS });
    return this.html(404, null, this.renderer.message(null, null, 'Page not found', ['There is no status page at this address.']));
  }
}


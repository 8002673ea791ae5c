import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../core/src/clock';
import { unlessNotFound } from '../../../core/src/unless-not-found';
import { Actor } from '../../../event-store/src/command-runner';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { pageCsp, PublicRenderer } from '../../../public-web/src/public-web.api';
import { RunSubscriptionsCommand, StatusPageDetailView, StatusPagesQuery, SubscriptionsCommand } from '../../../status-pages/src/status-pages.api';
import { SubscriberTokens } from '../write/subscriber-tokens';

export interface SubscriberLinkDeps {
  tokens: SubscriberTokens;
  commands: CommandBus;
  queries: QueryBus;
  clock: Clock;
  /** The public pages' message page, in the status page's look (their stylesheets, no inline style or script). */
  renderer: PublicRenderer;
}

const ACTOR: Actor = { accountId: null, keyId: null, keyName: 'subscriber link', requestId: null };
/** With the public pages' CSP (Vigil's own stylesheets, the page's logo, forms posting back here only). */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

const INVALID_CONFIRM = { title: 'Link not valid', message: 'This confirmation link is invalid or has expired. Subscribe again to get a new one.' };
const INVALID_UNSUBSCRIBE = { title: 'Link not valid', message: 'This unsubscribe link is not valid.' };

/** "from Acme status " when the page is known. */
const fromPage = (page: StatusPageDetailView | null) => (page ? ` from ${page.name}` : '');

/**
 * The links of subscriber emails, without an API key. Mail scanners and link previews follow GETs, so
 * a GET only shows a page whose button POSTs to the same URL, and only the POST acts: confirm (double
 * opt-in) and RFC 8058 unsubscribe (the POST is also what mail clients send for one click). An
 * unsubscribe answers the same whether or not the subscription still existed.
 */
export function registerSubscriberLinkRoutes(fastify: FastifyInstance, deps: SubscriberLinkDeps): void {
  type Context = { title: string; message: string; action?: string; button?: string; page?: StatusPageDetailView | null };
  const html = (reply: FastifyReply, status: number, context: Context) => {
    const form = context.action && context.button ? { action: context.action, button: context.button } : undefined;
    const page = context.page ?? null;
    return reply
      .status(status)
      .headers({ ...SECURITY_HEADERS, 'content-security-policy': pageCsp(page) })
      .type('text/html; charset=utf-8')
      .send(deps.renderer.subscriberPage(page, context.title, [context.message], { form, back: false }));
  };
  const tokenOf = (request: FastifyRequest) => String((request.params as { token: string }).token);
  const verify = (request: FastifyRequest, purpose: 'confirm' | 'unsubscribe') => deps.tokens.verify(tokenOf(request), purpose, deps.clock.now().getTime());
  /** Runs a subscriptions command of status pages; the number of events it appended. */
  const execute = async (command: SubscriptionsCommand, actor: Actor) => (await deps.commands.execute(new RunSubscriptionsCommand(command, actor))).appended.length;
  /** The subscription and its page, when both still exist. */
  const lookUp = async ({ statusPageId, subscriptionId }: { statusPageId: string; subscriptionId: string }) => {
    const found = await deps.queries.execute(new StatusPagesQuery({ type: 'GetSubscription', statusPageId, id: subscriptionId }));
    const shown = found ? await deps.queries.execute(new StatusPagesQuery({ type: 'GetStatusPage', accountId: found.accountId, id: statusPageId })) : null;
    return { found, page: shown?.page ?? null };
  };
  // A second click on a used confirmation link is not an error: the address is confirmed.
  const alreadyConfirmed = (address: string, page: StatusPageDetailView | null): Context => ({
    title: 'Already confirmed',
    message: `${address} is already confirmed: it receives incident updates${fromPage(page)}.`,
    page,
  });

  void fastify.register(async (scope) => {
    // One-click POSTs come as form bodies (List-Unsubscribe=One-Click); their content is not needed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));

    scope.get('/subscriptions/confirm/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const claims = await verify(request, 'confirm');
      if (!claims) return html(reply, 400, INVALID_CONFIRM);
      const { found, page } = await lookUp(claims);
      if (found?.status === 'VERIFIED') return html(reply, 200, alreadyConfirmed(found.address, page));
      if (found?.status !== 'PENDING') return html(reply, 400, { ...INVALID_CONFIRM, page });
      return html(reply, 200, {
        title: 'Confirm your subscription',
        message: `Press the button to receive incident updates${fromPage(page)} by email at ${found.address}.`,
        action: `/subscriptions/confirm/${encodeURIComponent(tokenOf(request))}`,
        button: 'Confirm subscription',
        page,
      });
    });

    scope.post('/subscriptions/confirm/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const claims = await verify(request, 'confirm');
      if (!claims) return html(reply, 400, INVALID_CONFIRM);
      const verified = (await unlessNotFound(execute({ type: 'VerifySubscription', statusPageId: claims.statusPageId, id: claims.subscriptionId }, ACTOR))) ?? 0;
      const { found, page } = await lookUp(claims);
      if (verified === 0) {
        return found?.status === 'VERIFIED' ? html(reply, 200, alreadyConfirmed(found.address, page)) : html(reply, 400, { ...INVALID_CONFIRM, page });
      }
      const at = found ? ` at ${found.address}` : '';
      return html(reply, 200, { title: 'Subscription confirmed', message: `You will now receive incident updates${fromPage(page)} by email${at}.`, page });
    });

    scope.get('/subscriptions/unsubscribe/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const claims = await verify(request, 'unsubscribe');
      if (!claims) return html(reply, 400, INVALID_UNSUBSCRIBE);
      const { found, page } = await lookUp(claims);
      const at = found ? `at ${found.address}` : 'at this address';
      return html(reply, 200, {
        title: 'Unsubscribe',
        message: `Stop receiving incident updates${fromPage(page)} ${at}?`,
        action: `/subscriptions/unsubscribe/${encodeURIComponent(tokenOf(request))}`,
        button: 'Unsubscribe',
        page,
      });
    });

    scope.post('/subscriptions/unsubscribe/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const claims = await verify(request, 'unsubscribe');
      if (!claims) return html(reply, 400, INVALID_UNSUBSCRIBE);
      const { found, page } = await lookUp(claims);
      if (found) {
        const { accountId } = found;
        await unlessNotFound(execute({ type: 'RemoveSubscription', statusPageId: claims.statusPageId, accountId, id: claims.subscriptionId }, { ...ACTOR, accountId }));
      }
      const at = found ? `at ${found.address}` : 'at this address';
      return html(reply, 200, { title: 'Unsubscribed', message: `You will no longer receive incident updates${fromPage(page)} ${at}.`, page });
    });
  });
}

import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../core/src/clock';
import { NotFoundError } from '../../../core/src/errors';
import { Actor } from '../../../event-store/src/command-runner';
import { SubscriptionsCommand } from '../../../status-pages/src/status-pages.api';
import { SubscriberTokens } from '../write/subscriber-tokens';

export interface SubscriberLinkDeps {
  tokens: SubscriberTokens;
  /** Runs a subscriptions command of status pages; the number of events it appended. */
  execute: (command: SubscriptionsCommand, actor: Actor) => Promise<number>;
  /** The subscription as status pages' read side has it, or null. */
  subscription: (statusPageId: string, id: string) => Promise<{ accountId: string; status: string } | null>;
  clock: Clock;
  /** The public pages' plain message page (their stylesheet, no inline style or script). */
  render: (heading: string, paragraphs: string[], options: { form?: { action: string; button: string }; back: false }) => string;
}

const ACTOR: Actor = { accountId: null, keyId: null, keyName: 'subscriber link', requestId: null };
/** The public pages' CSP: Vigil's own stylesheets and favicon, forms posting back here only. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

const INVALID_CONFIRM = { title: 'Link not valid', message: 'This confirmation link is invalid, has expired or was already used. Subscribe again to get a new one.' };
const INVALID_UNSUBSCRIBE = { title: 'Link not valid', message: 'This unsubscribe link is not valid.' };

/**
 * The links of subscriber emails, without an API key. Mail scanners and link previews follow GETs, so
 * a GET only shows a page whose button POSTs to the same URL, and only the POST acts: confirm (double
 * opt-in) and RFC 8058 unsubscribe (the POST is also what mail clients send for one click). An
 * unsubscribe answers the same whether or not the subscription still existed.
 */
export function registerSubscriberLinkRoutes(fastify: FastifyInstance, deps: SubscriberLinkDeps): void {
  const html = (reply: FastifyReply, status: number, context: { title: string; message: string; action?: string; button?: string }) => {
    const form = context.action && context.button ? { action: context.action, button: context.button } : undefined;
    return reply.status(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(deps.render(context.title, [context.message], { form, back: false }));
  };
  const tokenOf = (request: FastifyRequest) => String((request.params as { token: string }).token);

  void fastify.register(async (scope) => {
    // One-click POSTs come as form bodies (List-Unsubscribe=One-Click); their content is not needed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));

    scope.get('/subscriptions/confirm/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokenOf(request);
      const claims = await deps.tokens.verify(token, 'confirm', deps.clock.now().getTime());
      if (!claims) return html(reply, 400, INVALID_CONFIRM);
      const found = await deps.subscription(claims.statusPageId, claims.subscriptionId);
      if (found?.status !== 'PENDING') return html(reply, 400, INVALID_CONFIRM);
      return html(reply, 200, {
        title: 'Confirm your subscription',
        message: 'Press the button to receive incident updates by email at this address.',
        action: `/subscriptions/confirm/${encodeURIComponent(token)}`,
        button: 'Confirm subscription',
      });
    });

    scope.post('/subscriptions/confirm/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const claims = await deps.tokens.verify(tokenOf(request), 'confirm', deps.clock.now().getTime());
      if (!claims) return html(reply, 400, INVALID_CONFIRM);
      try {
        const verified = await deps.execute({ type: 'VerifySubscription', statusPageId: claims.statusPageId, id: claims.subscriptionId }, ACTOR);
        if (verified === 0) return html(reply, 400, INVALID_CONFIRM);
      } catch (error) {
        if (error instanceof NotFoundError) return html(reply, 400, INVALID_CONFIRM);
        throw error;
      }
      return html(reply, 200, { title: 'Subscription confirmed', message: 'You will now receive incident updates by email.' });
    });

    scope.get('/subscriptions/unsubscribe/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = tokenOf(request);
      if (!(await deps.tokens.verify(token, 'unsubscribe', deps.clock.now().getTime()))) return html(reply, 400, INVALID_UNSUBSCRIBE);
      return html(reply, 200, { title: 'Unsubscribe', message: 'Stop receiving incident updates at this address?', action: `/subscriptions/unsubscribe/${encodeURIComponent(token)}`, button: 'Unsubscribe' });
    });

    scope.post('/subscriptions/unsubscribe/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const claims = await deps.tokens.verify(tokenOf(request), 'unsubscribe', deps.clock.now().getTime());
      if (!claims) return html(reply, 400, INVALID_UNSUBSCRIBE);
      const found = await deps.subscription(claims.statusPageId, claims.subscriptionId);
      if (found) {
        const { accountId } = found;
        await deps.execute({ type: 'RemoveSubscription', statusPageId: claims.statusPageId, accountId, id: claims.subscriptionId }, { ...ACTOR, accountId }).catch((error) => {
          if (!(error instanceof NotFoundError)) throw error;
        });
      }
      return html(reply, 200, { title: 'Unsubscribed', message: 'You will no longer receive incident updates at this address.' });
    });
  });
}

import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Handlebars from 'handlebars';
import { Clock } from '../../../core/src/clock';
import { NotFoundError } from '../../../core/src/errors';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { VerifySubscriptionCommand } from '../../../status-pages/src/write/subscription.commands';
import { subscriptionsDecider, subscriptionsStream } from '../../../status-pages/src/domain/subscriptions.decider';
import { SubscriberTokens } from '../write/subscriber-tokens';

export interface SubscriberLinkDeps {
  tokens: SubscriberTokens;
  runner: CommandRunner;
  execute: (command: VerifySubscriptionCommand) => Promise<boolean>;
  clock: Clock;
}

const page = Handlebars.compile(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>{{title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.5rem 1rem}</style></head>
<body><main><h1>{{title}}</h1><p>{{message}}</p>{{#if action}}<form method="post" action="{{action}}"><button type="submit">Unsubscribe</button></form>{{/if}}</main></body></html>`);

const ACTOR = { accountId: null, keyId: null, keyName: 'subscriber link', requestId: null };
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function html(reply: FastifyReply, status: number, context: { title: string; message: string; action?: string }) {
  return reply.status(status).headers(SECURITY_HEADERS).type('text/html; charset=utf-8').send(page(context));
}

/**
 * The links of subscriber emails, without an API key: confirm (double opt-in) and RFC 8058
 * unsubscribe (a GET shows a button; a POST, what mail clients send for one click, removes). An
 * unsubscribe answers the same whether or not the subscription still existed.
 */
export function registerSubscriberLinkRoutes(fastify: FastifyInstance, deps: SubscriberLinkDeps): void {
  void fastify.register(async (scope) => {
    // One-click POSTs come as form bodies (List-Unsubscribe=One-Click); their content is not needed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));

    scope.get('/subscriptions/confirm/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = String((request.params as { token: string }).token);
      const claims = await deps.tokens.verify(token, 'confirm', deps.clock.now().getTime());
      const invalid = { title: 'Link not valid', message: 'This confirmation link is invalid, has expired or was already used. Subscribe again to get a new one.' };
      if (!claims) return html(reply, 400, invalid);
      try {
        const verified = await deps.execute(new VerifySubscriptionCommand(claims.statusPageId, claims.subscriptionId, ACTOR));
        if (!verified) return html(reply, 400, invalid);
      } catch (error) {
        if (error instanceof NotFoundError) return html(reply, 400, invalid);
        throw error;
      }
      return html(reply, 200, { title: 'Subscription confirmed', message: 'You will now receive incident updates by email.' });
    });

    scope.get('/subscriptions/unsubscribe/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = String((request.params as { token: string }).token);
      if (!(await deps.tokens.verify(token, 'unsubscribe', deps.clock.now().getTime()))) {
        return html(reply, 400, { title: 'Link not valid', message: 'This unsubscribe link is not valid.' });
      }
      return html(reply, 200, { title: 'Unsubscribe', message: 'Stop receiving incident updates at this address?', action: `/subscriptions/unsubscribe/${encodeURIComponent(token)}` });
    });

    scope.post('/subscriptions/unsubscribe/:token', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = String((request.params as { token: string }).token);
      const claims = await deps.tokens.verify(token, 'unsubscribe', deps.clock.now().getTime());
      if (!claims) return html(reply, 400, { title: 'Link not valid', message: 'This unsubscribe link is not valid.' });
      const { state } = await deps.runner.load(subscriptionsStream(claims.statusPageId), subscriptionsDecider);
      if (state.accountId && state.ids.has(claims.subscriptionId)) {
        await deps.runner
          .run(subscriptionsStream(claims.statusPageId), subscriptionsDecider, { type: 'RemoveSubscription', statusPageId: claims.statusPageId, accountId: state.accountId, id: claims.subscriptionId }, { ...ACTOR, accountId: state.accountId })
          .catch((error) => {
            if (!(error instanceof NotFoundError)) throw error;
          });
      }
      return html(reply, 200, { title: 'Unsubscribed', message: 'You will no longer receive incident updates at this address.' });
    });
  });
}

import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Actor } from '../../../event-store/src/command-runner';
import { AccountsQuery } from '../../../accounts/src/accounts.api';
import { CONSOLE_HEADERS, ConsoleSessions, field as fieldOf, isSameOriginRequest, redirect as seeOther, sendHtml, SignedIn } from '../../../people/src/people.api';

export { CONSOLE_HEADERS, fieldOf, seeOther, sendHtml };
import { Chrome, ConsolePages } from '../render/console-pages';

/** A signed-in person on one of their accounts. */
export interface Visit {
  me: SignedIn;
  accountId: string | null;
  canWrite: boolean;
  chrome: Omit<Chrome, 'title'>;
  actor: Actor;
}

/** Sessions and roles from people: who is signed in, on which account, and whether they may act. */
@Injectable()
export class ConsoleAccess {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly queries: QueryBus,
    private readonly pages: ConsolePages,
  ) {}

  /** The visit of a GET; null: not signed in (the caller redirects to sign-in). */
  async visit(request: FastifyRequest): Promise<Visit | null> {
    const me = await this.sessions.resolve(request);
    if (!me) return null;
    const requested = String((request.query as Record<string, unknown> | undefined)?.account ?? '').toLowerCase();
    const membership = me.memberships.find((m) => m.accountId === requested) ?? me.memberships[0];
    const q = me.memberships.length > 1 && membership ? `?account=${encodeURIComponent(membership.accountId)}` : '';
    let account: Chrome['account'] = null;
    if (membership) {
      const found = (await this.queries.execute(new AccountsQuery({ type: 'GetAccount', id: membership.accountId }))) as { name?: string } | null;
      account = { id: membership.accountId, name: found?.name ?? membership.accountId, role: membership.role };
    }
    return {
      me,
      accountId: membership?.accountId ?? null,
      canWrite: membership !== undefined && membership.role !== 'READ_ONLY',
      chrome: { email: me.user.email, csrf: me.csrf, account, q },
      actor: this.sessions.actor(request, me.user, membership?.accountId ?? null),
    };
  }

  /**
   * The visit of a form post: same origin, the session's form token, a role that writes. Otherwise the
   * answer is sent here (303 to sign-in, or 403) and null returned.
   */
  async act(request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<Visit | null> {
    if (!isSameOriginRequest(request)) return this.refuse(reply, null, 'This form was sent from another site. Go back, reload the page and try again.'), null;
    const visit = await this.visit(request);
    if (!visit) return seeOther(reply, '/console/sign-in'), null;
    if (fieldOf(body, 'csrf') !== visit.me.csrf) return this.refuse(reply, visit, 'This form came from a page that is out of date. Go back, reload the page and try again.'), null;
    if (!visit.canWrite || !visit.accountId) return this.refuse(reply, visit, 'Your role on this account is READ_ONLY: you can see, not change.'), null;
    return visit;
  }

  message(reply: FastifyReply, status: number, visit: Visit, heading: string, paragraph: string): FastifyReply {
    return sendHtml(reply, status, this.pages.render('message', { ...visit.chrome, title: heading }, { heading, paragraphs: [paragraph] }));
  }

  private refuse(reply: FastifyReply, visit: Visit | null, why: string): FastifyReply {
    if (!visit) {
      return reply.status(403).headers(CONSOLE_HEADERS).type('text/plain; charset=utf-8').send(`Request refused. ${why}`);
    }
    return this.message(reply, 403, visit, 'Request refused', why);
  }
}

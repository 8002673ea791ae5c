import { applyDecorators, ArgumentsHost, Catch, Controller, ExceptionFilter, Injectable, UseFilters } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Actor } from '../../../event-store/src/command-runner';
import { AccountsQuery } from '../../../accounts/src/accounts.api';
import { Public } from '../../../http/src/account-context';
import { CONSOLE_HEADERS, ConsoleSessions, field as fieldOf, isSameOriginRequest, redirect as seeOther, sendHtml, SignedIn } from '../../../people/src/people.api';

export { CONSOLE_HEADERS, fieldOf, seeOther, sendHtml };
import { Chrome, ConsolePages } from '../render/console-pages';
import { withParam } from './form-check';

/** A signed-in person on one of their accounts. */
export interface Visit {
  me: SignedIn;
  accountId: string | null;
  canWrite: boolean;
  chrome: Omit<Chrome, 'title'>;
  actor: Actor;
}

/** An answer decided before a handler's own work (sign in first, a refused form): thrown, then sent by ConsoleAnswerFilter. */
export class ConsoleAnswer extends Error {
  constructor(readonly send: (reply: FastifyReply) => FastifyReply) {
    super('console answer');
  }
}

@Catch(ConsoleAnswer)
export class ConsoleAnswerFilter implements ExceptionFilter {
  catch(answer: ConsoleAnswer, host: ArgumentsHost): void {
    answer.send(host.switchToHttp().getResponse<FastifyReply>());
  }
}

/** A controller of the console's screens at `/console/<path>`: for signed-in people (no API key), outside the API document. */
export const ConsoleController = (path: string) => applyDecorators(Public(), ApiExcludeController(), UseFilters(ConsoleAnswerFilter), Controller(path ? `console/${path}` : 'console'));

type PageName = Parameters<ConsolePages['render']>[0];

/** Sessions and roles from people: who is signed in, on which account, and whether they may act; and the pages they are answered with. */
@Injectable()
export class ConsoleAccess {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly queries: QueryBus,
    private readonly pages: ConsolePages,
  ) {}

  /** The visit of a GET; not signed in: answered with a redirect to sign-in. */
  async visit(request: FastifyRequest): Promise<Visit> {
    const visit = await this.signedIn(request);
    if (!visit) throw new ConsoleAnswer((reply) => seeOther(reply, '/console/sign-in'));
    return visit;
  }

  /** The visit, or null when no one is signed in (for answers other than a page). */
  async signedIn(request: FastifyRequest): Promise<Visit | null> {
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

  /** The visit of a form post: same origin, the session's form token, a role that writes; otherwise answered with 303 to sign-in or 403. */
  async act(request: FastifyRequest, body: unknown): Promise<Visit> {
    if (!isSameOriginRequest(request)) throw this.refusal(null, 'This form was sent from another site. Go back, reload the page and try again.');
    const visit = await this.visit(request);
    if (fieldOf(body, 'csrf') !== visit.me.csrf) throw this.refusal(visit, 'This form came from a page that is out of date. Go back, reload the page and try again.');
    this.mayWrite(visit);
    return visit;
  }

  /** Answers 403 unless the person's role on the account writes. */
  mayWrite(visit: Visit): void {
    if (!visit.canWrite || !visit.accountId) throw this.refusal(visit, 'Your role on this account is READ_ONLY: you can see, not change.');
  }

  /** A 403 "Request refused" page, thrown: for a check of its own a controller makes before its work. */
  refusal(visit: Visit | null, why: string): ConsoleAnswer {
    if (!visit) return new ConsoleAnswer((reply) => reply.status(403).headers(CONSOLE_HEADERS).type('text/plain; charset=utf-8').send(`Request refused. ${why}`));
    return new ConsoleAnswer((reply) => this.message(reply, 403, visit, 'Request refused', why));
  }

  /** A page of the console in the visit's chrome. */
  render(reply: FastifyReply, code: number, visit: Visit, page: PageName, chrome: Pick<Chrome, 'title' | 'nav' | 'notice'>, view: object): FastifyReply {
    return sendHtml(reply, code, this.pages.render(page, { ...visit.chrome, ...chrome }, view));
  }

  /** Done: to `path`, on the same account, with a notice (`notice=saved`) when given. */
  done(reply: FastifyReply, visit: Visit, path: string, param?: string): FastifyReply {
    return seeOther(reply, `${path}${param ? withParam(visit.chrome.q, param) : visit.chrome.q}`);
  }

  message(reply: FastifyReply, status: number, visit: Visit, heading: string, paragraph: string): FastifyReply {
    return sendHtml(reply, status, this.pages.render('message', { ...visit.chrome, title: heading }, { heading, paragraphs: [paragraph] }));
  }

  /** The page of a person who belongs to no account. */
  noAccount(reply: FastifyReply, visit: Visit): FastifyReply {
    return this.message(reply, 200, visit, 'No account yet', 'You are not a member of any account.');
  }
}

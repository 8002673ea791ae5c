import { Body, Controller, Get, Inject, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConflictError, NotFoundError, VigilError } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { Public, Role, ROLES } from '../../../http/src/account-context';
import { AccountsQuery } from '../../../accounts/src/accounts.api';
import { isEmailAddress } from '../domain/secrets';
import { MemberDoc } from '../read/people.projections';
import { PeopleQuery } from '../read/people.queries';
import { ConsoleRenderer } from '../render/console-renderer';
import { PeopleMail } from '../send/people-mail';
import { PeopleActions } from '../write/people-actions';
import { RunTeamCommand } from '../write/team.handler';
import { RunUserCommand } from '../write/user.handler';
import { field, redirect, sendHtml } from './console-reply';
import { ConsoleSessions, SignedIn } from './console-sessions';
import { isSameOriginRequest } from './session-cookie';

/** Fixed notices after a form, by code: nothing a link can make the page say. */
const NOTICES: Record<string, string> = {
  role: 'Role changed.',
  removed: 'Member removed; their sessions have ended.',
  revoked: 'Invitation revoked.',
  'session-ended': 'That session has been signed out.',
  passkey: 'Passkey added: you can sign in with it alone.',
  'passkey-removed': 'Passkey removed.',
  'passkey-renamed': 'Passkey renamed.',
};

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';

/** Extras of one rendering of the console page. */
interface PageExtras {
  notice?: string;
  error?: string;
  invitation?: { url: string; email: string; mailed: boolean };
}

/**
 * The console's first page: who is signed in, their accounts and roles, their sessions, and for ADMINs
 * the members and invitations of the current account. Every action is a form that needs the session's
 * token and a same-origin request; roles are checked here, on the server.
 */
@Public()
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly logger = new Logger('People');

  constructor(
    private readonly renderer: ConsoleRenderer,
    private readonly sessions: ConsoleSessions,
    private readonly actions: PeopleActions,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly mail: PeopleMail,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('account')
  async home(@Query('account') account: unknown, @Query('notice') notice: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const me = await this.sessions.resolve(request);
    if (!me) return redirect(reply, '/console/sign-in');
    return this.page(reply, 200, request, me, typeof account === 'string' ? account : undefined, { notice: typeof notice === 'string' ? NOTICES[notice] : undefined });
  }

  @Post('sessions/end-all')
  async endAll(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.act(request, reply, body, async (me) => {
      await this.sessions.endAll(request, me);
      return redirect(reply, '/console/sign-in');
    });
  }

  @Post('passkeys/:id/rename')
  async renamePasskey(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.act(request, reply, body, async (me) => {
      await this.commands.execute(new RunUserCommand({ type: 'RenamePasskey', userId: me.user.id, credentialId: id.slice(0, 1024), name: field(body, 'name') }, this.sessions.actor(request, me.user)));
      return redirect(reply, '/console/account?notice=passkey-renamed');
    });
  }

  @Post('sessions/:id/end')
  async endOne(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.act(request, reply, body, async (me) => {
      if (!isUuid(id)) throw new NotFoundError('No such session');
      await this.sessions.end(request, me, id, 'signed-out');
      return redirect(reply, id === me.session.id ? '/console/sign-in' : '/console/account?notice=session-ended');
    });
  }

  @Post('accounts/:accountId/invitations')
  async invite(@Param('accountId') accountId: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.admin(request, reply, body, accountId, async (me) => {
      const email = field(body, 'email').trim();
      const role = field(body, 'role') as Role;
      if (!isEmailAddress(email)) return this.page(reply, 400, request, me, accountId, { error: 'Enter the email address to invite, such as name@example.com.' });
      if (!ROLES.includes(role)) return this.page(reply, 400, request, me, accountId, { error: `Choose a role: ${ROLES.join(', ')}.` });
      const invitation = await this.actions.invite(accountId, email, role, me.user.id, this.sessions.actor(request, me.user, accountId));
      let mailed = false;
      if (this.mail.configured) {
        mailed = await this.mail.invitation(invitation.email, invitation.url, role).then(
          () => true,
          (error: Error) => (this.logger.warn(`An invitation email could not be sent: ${error.message}`), false),
        );
      }
      return this.page(reply, 200, request, me, accountId, { invitation: { url: invitation.url, email: invitation.email, mailed } });
    });
  }

  @Post('accounts/:accountId/invitations/:invitationId/revoke')
  async revoke(@Param('accountId') accountId: string, @Param('invitationId') invitationId: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.admin(request, reply, body, accountId, async (me) => {
      if (!isUuid(invitationId)) throw new NotFoundError('No such invitation');
      await this.commands.execute(new RunTeamCommand({ type: 'RevokeInvitation', accountId, invitationId, by: me.user.id }, this.sessions.actor(request, me.user, accountId)));
      return redirect(reply, `/console/account?account=${accountId}&notice=revoked`);
    });
  }

  @Post('accounts/:accountId/members/:userId/role')
  async changeRole(@Param('accountId') accountId: string, @Param('userId') userId: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.admin(request, reply, body, accountId, async (me) => {
      const role = field(body, 'role') as Role;
      if (!isUuid(userId)) throw new NotFoundError('No such member');
      if (!ROLES.includes(role)) return this.page(reply, 400, request, me, accountId, { error: `Choose a role: ${ROLES.join(', ')}.` });
      await this.commands.execute(new RunTeamCommand({ type: 'ChangeMemberRole', accountId, userId, role, by: me.user.id }, this.sessions.actor(request, me.user, accountId)));
      return redirect(reply, `/console/account?account=${accountId}&notice=role`);
    });
  }

  @Post('accounts/:accountId/members/:userId/remove')
  async remove(@Param('accountId') accountId: string, @Param('userId') userId: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.admin(request, reply, body, accountId, async (me) => {
      if (!isUuid(userId)) throw new NotFoundError('No such member');
      const actor = this.sessions.actor(request, me.user, accountId);
      await this.commands.execute(new RunTeamCommand({ type: 'RemoveMember', accountId, userId, by: me.user.id }, actor));
      // Their open sessions end at once (they sign in again to reach any other account of theirs).
      await this.commands.execute(new RunUserCommand({ type: 'EndAllSessions', userId, reason: 'removed-from-account' }, actor));
      return redirect(reply, userId === me.user.id ? '/console/sign-in' : `/console/account?account=${accountId}&notice=removed`);
    });
  }

  /** A state-changing request of a signed-in person: same origin, the session's form token, then the action. */
  private async act(request: FastifyRequest, reply: FastifyReply, body: unknown, action: (me: SignedIn) => Promise<FastifyReply>) {
    const refused = () =>
      sendHtml(reply, 403, this.renderer.message({ heading: 'Request refused', paragraphs: ['This form was sent from another site, or from a page that is out of date. Go back, reload the page and try again.'], link: { href: '/console', text: 'Open the console' } }));
    if (!isSameOriginRequest(request)) return refused();
    const me = await this.sessions.resolve(request);
    if (!me) return redirect(reply, '/console/sign-in');
    if (field(body, 'csrf') !== me.csrf) return refused();
    try {
      return await action(me);
    } catch (error) {
      if (!(error instanceof VigilError) || error.statusCode >= 500) throw error;
      return this.page(reply, error.statusCode, request, me, undefined, { error: error.message });
    }
  }

  /** As `act`, for ADMINs of the account only. */
  private admin(request: FastifyRequest, reply: FastifyReply, body: unknown, accountId: string, action: (me: SignedIn) => Promise<FastifyReply>) {
    return this.act(request, reply, body, async (me) => {
      const membership = me.memberships.find((m) => m.accountId === accountId);
      if (!membership || membership.role !== 'ADMIN') {
        return this.page(reply, 403, request, me, membership?.accountId, { error: 'Only ADMINs of this account may do that.' });
      }
      try {
        return await action(me);
      } catch (error) {
        if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
        return this.page(reply, error.statusCode, request, me, accountId, { error: error.message });
      }
    });
  }

  private async page(reply: FastifyReply, status: number, request: FastifyRequest, me: SignedIn, requested: string | undefined, extras: PageExtras) {
    const current: MemberDoc | undefined = me.memberships.find((m) => m.accountId === requested?.toLowerCase()) ?? me.memberships[0];
    const names = new Map<string, string>();
    for (const m of me.memberships) {
      const account = (await this.queries.execute(new AccountsQuery({ type: 'GetAccount', id: m.accountId }))) as { name?: string } | null;
      names.set(m.accountId, account?.name ?? m.accountId);
    }
    const admin = current?.role === 'ADMIN';
    const members = current ? await this.queries.execute(new PeopleQuery({ type: 'MembersOfAccount', accountId: current.accountId })) : [];
    const invitations = current && admin ? await this.queries.execute(new PeopleQuery({ type: 'InvitationsOfAccount', accountId: current.accountId })) : [];
    const now = this.clock.now().toISOString();
    const sessions = (await this.queries.execute(new PeopleQuery({ type: 'SessionsOfUser', userId: me.user.id }))).filter((s) => now < s.expiresAt && now < s.idleExpiresAt);
    const passkeys = await this.queries.execute(new PeopleQuery({ type: 'PasskeysOfUser', userId: me.user.id }));
    const view = {
      email: me.user.email,
      passkeyList: passkeys.map((p) => ({ id: p.id, name: p.name, created_at: p.created_at, createdText: when(p.created_at) })),
      notice: extras.notice,
      error: extras.error,
      accounts: me.memberships.map((m) => ({ id: m.accountId, name: names.get(m.accountId), role: m.role, current: m.accountId === current?.accountId })),
      account: current && { id: current.accountId, name: names.get(current.accountId) },
      admin,
      members: members.map((m) => ({ ...m, self: m.userId === me.user.id, roles: ROLES.map((value) => ({ value, selected: value === m.role })) })),
      invitations: invitations.filter((i) => now < i.expiresAt).map((i) => ({ ...i, expiresText: when(i.expiresAt) })),
      invitationUrl: extras.invitation?.url,
      invitationEmail: extras.invitation?.email,
      invitationMailed: extras.invitation?.mailed,
      sessions: sessions.map((s) => ({ ...s, current: s.id === me.session.id, agent: s.userAgent ?? 'Unknown browser', startedText: when(s.startedAt), method: s.method === 'email-link' ? 'email link' : s.method })),
    };
    const q = me.memberships.length > 1 && current ? `?account=${encodeURIComponent(current.accountId)}` : '';
    return sendHtml(reply, status, this.renderer.console(view, { csrf: me.csrf, q }));
  }
}

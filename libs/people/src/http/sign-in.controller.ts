import { Body, Controller, Get, Inject, Logger, Param, Post, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Public } from '../../../http/src/account-context';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { hashSecret, isEmailAddress, isSecretShape, normalizeEmail } from '../domain/secrets';
import { InvitationNotValidError } from '../domain/team.decider';
import { LinkNotValidError } from '../domain/user.decider';
import { PeopleQuery } from '../read/people.queries';
import { ConsoleRenderer } from '../render/console-renderer';
import { PeopleMail } from '../send/people-mail';
import { PeopleActions, StartedSession } from '../write/people-actions';
import { AttemptLimiter } from './attempt-limiter';
import { field, redirect, sendHtml } from './console-reply';
import { ConsoleSessions } from './console-sessions';
import { clearSessionCookie, isSameOriginRequest, setSessionCookie } from './session-cookie';

const MINUTE = 60_000;
const LINK_NOT_VALID = ['This sign-in link has expired, was already used, or is not complete.', 'Links work once, for 15 minutes. Ask for a new one.'];
const INVITATION_NOT_VALID = ['This invitation has expired, was already used or revoked, or the link is not complete.', 'Ask an administrator of the account for a new one.'];

/** Signing in and out: the email form, sign-in links, invitations; no API key, no session needed. */
@Public()
@ApiExcludeController()
@Controller('console')
export class SignInController {
  private readonly logger = new Logger('People');
  /** Per address and per client address: enough for a person, too few to spam an inbox or probe addresses. */
  private readonly perAddress = new AttemptLimiter(5, 15 * MINUTE);
  private readonly perClient = new AttemptLimiter(20, 15 * MINUTE);

  constructor(
    private readonly renderer: ConsoleRenderer,
    private readonly actions: PeopleActions,
    private readonly sessions: ConsoleSessions,
    private readonly queries: QueryBus,
    private readonly mail: PeopleMail,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply) {
    const asset = this.renderer.files.get(file);
    if (!asset) return sendHtml(reply, 404, this.renderer.message({ heading: 'Not found', paragraphs: ['There is nothing at this address.'] }));
    return reply.status(200).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').type(asset.type).send(asset.body);
  }

  @Get('sign-in')
  async signInPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (await this.sessions.resolve(request)) return redirect(reply, '/console');
    return sendHtml(reply, 200, this.renderer.signIn({}));
  }

  @Post('sign-in')
  async signIn(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!isSameOriginRequest(request)) return this.crossSite(reply);
    const email: string = field(body, 'email').trim();
    if (!isEmailAddress(email)) return sendHtml(reply, 400, this.renderer.signIn({ error: 'Enter an email address, such as name@example.com.', email: email.slice(0, 254) }));
    const now = this.clock.now().getTime();
    const wait = Math.max(this.perClient.take(request.ip, now), this.perAddress.take(normalizeEmail(email), now));
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return sendHtml(reply, 429, this.renderer.signIn({ error: 'Too many sign-in attempts. Please wait a few minutes and try again.', email }));
    }
    // Sent after answering, so known and unknown addresses get the same answer in the same time.
    void this.mailLink(email, request).catch((error: Error) => this.logger.warn(`A sign-in email could not be sent: ${error.message}`));
    return sendHtml(reply, 200, this.renderer.signIn({ sent: true }));
  }

  @Get('sign-in/link')
  async linkPage(@Query('token') token: unknown, @Res() reply: FastifyReply) {
    if (!isSecretShape(token)) return this.linkNotValid(reply);
    const link = isSecretShape(token) ? await this.queries.execute(new PeopleQuery({ type: 'SignInLinkByHash', hash: hashSecret(token) })) : null;
    if (!link || this.clock.now().toISOString() >= link.expiresAt) return this.linkNotValid(reply);
    // Only the button signs in: mail scanners that fetch the link sign no one in.
    return sendHtml(reply, 200, this.renderer.message({ heading: 'Sign in to Vigil', paragraphs: ['Press the button to sign in on this device.'], form: { action: '/console/sign-in/link', button: 'Sign in', fields: { token } } }));
  }

  @Post('sign-in/link')
  async useLink(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!isSameOriginRequest(request)) return this.crossSite(reply);
    try {
      const started = await this.actions.signInWithLink(field(body, 'token'), this.userAgent(request), this.sessions.actor(request, null));
      return this.signedIn(reply, started, '/console');
    } catch (error) {
      if (error instanceof LinkNotValidError) return this.linkNotValid(reply);
      throw error;
    }
  }

  @Get('invitations/accept')
  async invitationPage(@Query('token') token: unknown, @Res() reply: FastifyReply) {
    try {
      const invitation = await this.actions.invitation(token);
      return sendHtml(
        reply,
        200,
        this.renderer.message({
          heading: 'Join a Vigil account',
          paragraphs: [`${invitation.email} is invited to join an account as ${invitation.role}.`, 'Accepting signs you in on this device.'],
          form: { action: '/console/invitations/accept', button: 'Accept and sign in', fields: { token: String(token) } },
        }),
      );
    } catch (error) {
      if (error instanceof InvitationNotValidError) return this.invitationNotValid(reply);
      throw error;
    }
  }

  @Post('invitations/accept')
  async acceptInvitation(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!isSameOriginRequest(request)) return this.crossSite(reply);
    try {
      const started = await this.actions.acceptInvitation(field(body, 'token'), this.userAgent(request), this.sessions.actor(request, null));
      return this.signedIn(reply, started, `/console?account=${started.accountId}`);
    } catch (error) {
      if (error instanceof InvitationNotValidError) return this.invitationNotValid(reply);
      throw error;
    }
  }

  @Post('sign-out')
  async signOut(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const me = await this.sessions.resolve(request);
    if (me && (!isSameOriginRequest(request) || field(body, 'csrf') !== me.csrf)) return this.crossSite(reply);
    if (me) await this.sessions.end(request, me, me.session.id, 'signed-out');
    clearSessionCookie(reply, this.config.publicUrl);
    return redirect(reply, '/console/sign-in');
  }

  private async mailLink(email: string, request: FastifyRequest): Promise<void> {
    const user = await this.queries.execute(new PeopleQuery({ type: 'UserByEmail', email: normalizeEmail(email) }));
    if (!user) return;
    if (!this.mail.configured) {
      this.logger.warn('A sign-in link was asked for, but SMTP_URL is not set: use `users login-link` of the CLI');
      return;
    }
    const { url } = await this.actions.signInLink(user.email, this.sessions.actor(request, user));
    await this.mail.signInLink(user.email, url);
  }

  private signedIn(reply: FastifyReply, started: StartedSession, location: string) {
    setSessionCookie(reply, this.config.publicUrl, started.secret, this.config.sessionMaxDays * 86_400);
    return redirect(reply, location);
  }

  private userAgent(request: FastifyRequest): string | null {
    const agent = request.headers['user-agent'];
    return typeof agent === 'string' && agent !== '' ? agent : null;
  }

  private linkNotValid(reply: FastifyReply) {
    return sendHtml(reply, 400, this.renderer.message({ heading: 'This link does not work', paragraphs: LINK_NOT_VALID, link: { href: '/console/sign-in', text: 'Get a new sign-in link' } }));
  }

  private invitationNotValid(reply: FastifyReply) {
    return sendHtml(reply, 400, this.renderer.message({ heading: 'This invitation does not work', paragraphs: INVITATION_NOT_VALID, link: { href: '/console/sign-in', text: 'Sign in' } }));
  }

  private crossSite(reply: FastifyReply) {
    return sendHtml(reply, 403, this.renderer.message({ heading: 'Request refused', paragraphs: ['This form was sent from another site, or from a page that is out of date. Go back, reload the page and try again.'], link: { href: '/console', text: 'Open the console' } }));
  }
}

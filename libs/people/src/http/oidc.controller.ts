import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../../http/src/account-context';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { ConsoleRenderer } from '../render/console-renderer';
import { PeopleActions } from '../write/people-actions';
import { CONSOLE_HEADERS, redirect, sendHtml } from './console-reply';
import { ConsoleSessions } from './console-sessions';
import { OidcFlow, OidcOutcome } from './oidc-flow';
import { setSessionCookie } from './session-cookie';

type Refusal = Extract<OidcOutcome, { ok: false }>['reason'];

/** Each refusal's page: what happened and what the person can do; never a 500. */
const REFUSALS: Record<Refusal | 'stranger', { status: number; heading: string; paragraphs: string[] }> = {
  'not-started': { status: 400, heading: 'This sign-in did not start here', paragraphs: ['The sign-in took longer than 10 minutes, was already used, or was started in another browser.', 'Start again from the sign-in page.'] },
  state: { status: 400, heading: 'This sign-in does not match', paragraphs: ['The answer of the sign-in provider does not belong to the sign-in started in this browser.', 'Start again from the sign-in page.'] },
  'refused-by-provider': { status: 400, heading: 'The sign-in provider did not sign you in', paragraphs: ['The provider refused or the sign-in was cancelled.', 'Start again from the sign-in page, or ask your administrator.'] },
  rejected: { status: 400, heading: 'This sign-in could not be verified', paragraphs: ['The answer of the sign-in provider did not pass Vigil’s checks, so no one was signed in.', 'Start again from the sign-in page.'] },
  unverified: { status: 403, heading: 'Your email address is not verified', paragraphs: ['The sign-in provider did not vouch for an email address of yours.', 'Verify your address with the provider, or ask your administrator.'] },
  unreachable: { status: 502, heading: 'The sign-in provider cannot be reached', paragraphs: ['Vigil could not reach the single sign-on provider. Try again in a few minutes, or sign in with an email link.'] },
  stranger: { status: 403, heading: 'No access to Vigil', paragraphs: ['Your address is not a member of any Vigil account and has no pending invitation.', 'Ask an administrator of your team to invite you.'] },
};

/** Single sign-on with OpenID Connect: `/console/oidc/start` leads to the provider, which sends the person back to the callback. */
@Public()
@ApiExcludeController()
@Controller('console/oidc')
export class OidcController {
  private readonly logger = new Logger('People');

  constructor(
    private readonly flow: OidcFlow,
    private readonly actions: PeopleActions,
    private readonly sessions: ConsoleSessions,
    private readonly renderer: ConsoleRenderer,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get('start')
  async start(@Res() reply: FastifyReply) {
    if (!this.flow.enabled) return this.notConfigured(reply);
    try {
      const { url, cookie } = await this.flow.start();
      return reply.status(303).headers(CONSOLE_HEADERS).header('set-cookie', cookie).header('location', url).send();
    } catch (error) {
      this.logger.warn(`Single sign-on could not start: ${error instanceof Error ? error.message : String(error)}`);
      return this.refuse(reply, 'unreachable');
    }
  }

  @Get('callback')
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.flow.enabled) return this.notConfigured(reply);
    // The flow's cookie goes whatever happens: a callback is used once.
    void reply.header('set-cookie', this.flow.clearCookie);
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const outcome = await this.flow.finish(search, request.headers.cookie);
    if (!outcome.ok) {
      if (outcome.detail) this.logger.warn(`A single sign-on callback was refused (${outcome.reason}): ${outcome.detail}`);
      return this.refuse(reply, outcome.reason);
    }
    const agent = request.headers['user-agent'];
    const started = await this.actions.signInWithSso(outcome.email, typeof agent === 'string' && agent !== '' ? agent : null, this.sessions.actor(request, null));
    if (!started) return this.refuse(reply, 'stranger');
    setSessionCookie(reply, this.config.publicUrl, started.secret, this.config.sessionMaxDays * 86_400);
    return redirect(reply, started.accountId ? `/console?account=${started.accountId}` : '/console');
  }

  private refuse(reply: FastifyReply, reason: Refusal | 'stranger') {
    const { status, heading, paragraphs } = REFUSALS[reason];
    return sendHtml(reply, status, this.renderer.message({ heading, paragraphs, link: { href: '/console/sign-in', text: 'Back to the sign-in page' } }));
  }

  private notConfigured(reply: FastifyReply) {
    return sendHtml(reply, 404, this.renderer.message({ heading: 'Single sign-on is not set up', paragraphs: ['Sign in with an email link or a passkey instead.'], link: { href: '/console/sign-in', text: 'Back to the sign-in page' } }));
  }
}

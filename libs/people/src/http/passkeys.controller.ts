import { Body, Controller, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { VigilError } from '../../../core/src/errors';
import { Public } from '../../../http/src/account-context';
import { errorBody } from '../../../http/src/error-body';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { CommandBus } from '@nestjs/cqrs';
import { RunUserCommand } from '../write/user.handler';
import { field, redirect, sendHtml } from './console-reply';
import { ConsoleRenderer } from '../render/console-renderer';
import { ConsoleSessions, SignedIn } from './console-sessions';
import { PasskeyCeremonies } from './passkey-ceremonies';
import { isSameOriginRequest, setSessionCookie } from './session-cookie';

const NAME = /^[^\u0000-\u001f\u007f]{1,60}$/;

/** Passkeys: the JSON steps of the WebAuthn ceremonies (called by the console's script) and removal by form. */
@Public()
@ApiExcludeController()
@Controller('console')
export class PasskeysController {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly sessions: ConsoleSessions,
    private readonly commands: CommandBus,
    private readonly renderer: ConsoleRenderer,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Post('passkeys/registration-options')
  registrationOptions(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.json(request, reply, true, (me) => this.ceremonies.registrationOptions(me!));
  }

  @Post('passkeys')
  register(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.json(request, reply, true, async (me) => {
      const name = field(body, 'name').trim();
      if (!NAME.test(name)) return { status: 400, body: errorBody(400, 'Name the passkey (1 to 60 characters)') };
      await this.ceremonies.register(me!, name, (body as { response?: unknown }).response, this.sessions.actor(request, me!.user));
      return { status: 201, body: { registered: true } };
    });
  }

  @Post('sign-in/passkey-options')
  authenticationOptions(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.json(request, reply, false, () => this.ceremonies.authenticationOptions());
  }

  @Post('sign-in/passkey')
  signIn(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.json(request, reply, false, async () => {
      const agent = typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null;
      const started = await this.ceremonies.authenticate((body as { response?: unknown } | undefined)?.response, agent, this.sessions.actor(request, null));
      setSessionCookie(reply, this.config.publicUrl, started.secret, this.config.sessionMaxDays * 86_400);
      return { status: 200, body: { location: '/console' } };
    });
  }

  @Post('passkeys/:id/remove')
  async remove(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const refused = () => sendHtml(reply, 403, this.renderer.message({ heading: 'Request refused', paragraphs: ['This form was sent from another site, or from a page that is out of date. Go back, reload the page and try again.'], link: { href: '/console', text: 'Open the console' } }));
    if (!isSameOriginRequest(request)) return refused();
    const me = await this.sessions.resolve(request);
    if (!me) return redirect(reply, '/console/sign-in');
    if (field(body, 'csrf') !== me.csrf) return refused();
    try {
      await this.commands.execute(new RunUserCommand({ type: 'RemovePasskey', userId: me.user.id, credentialId: id.slice(0, 1024) }, this.sessions.actor(request, me.user)));
    } catch (error) {
      if (!(error instanceof VigilError) || error.statusCode >= 500) throw error;
      return redirect(reply, '/console');
    }
    return redirect(reply, '/console/account?notice=passkey-removed');
  }

  /** Same origin always; with `session`, a signed-in person and the page's token in x-csrf-token. Errors in the API's shape. */
  private async json(request: FastifyRequest, reply: FastifyReply, session: boolean, work: (me: SignedIn | null) => Promise<object | { status: number; body: object }>) {
    const send = (status: number, body: object) => reply.status(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body));
    if (!isSameOriginRequest(request)) return send(403, errorBody(403, 'Cross-site request refused'));
    let me: SignedIn | null = null;
    if (session) {
      me = await this.sessions.resolve(request);
      if (!me) return send(401, errorBody(401, 'Sign in first'));
      if (request.headers['x-csrf-token'] !== me.csrf) return send(403, errorBody(403, 'Missing or wrong form token; reload the page'));
    }
    try {
      const result = await work(me);
      return 'status' in result && 'body' in result ? send(result.status as number, result.body as object) : send(200, result);
    } catch (error) {
      if (!(error instanceof VigilError) || error.statusCode >= 500) throw error;
      return send(error.statusCode, errorBody(error.statusCode, error.message));
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { NotFoundError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor } from '../../../event-store/src/command-runner';
import { Role } from '../../../http/src/account-context';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { hashSecret, isSecretShape, newSecret, normalizeEmail, userIdOf } from '../domain/secrets';
import { InvitationNotValidError } from '../domain/team.decider';
import { LinkNotValidError, SessionData, SignInMethod } from '../domain/user.decider';
import { PeopleQuery } from '../read/people.queries';
import { RunTeamCommand } from './team.handler';
import { RunUserCommand } from './user.handler';

const MINUTE = 60_000;
const DAY = 86_400_000;
export const SIGN_IN_LINK_MS = 15 * MINUTE;
export const INVITATION_MS = 7 * DAY;

export interface StartedSession {
  /** The cookie's value: shown once, to the browser. */
  secret: string;
  userId: string;
  sessionId: string;
}

/**
 * What the CLI and the console do with people, each step one aggregate's command: the flows that touch
 * a person and an account (a member added, an invitation accepted) run their commands in order.
 */
@Injectable()
export class PeopleActions {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  /** Registers the person if new, then makes them a member with the role (the CLI's `users create`). */
  async addMember(email: string, accountId: string, role: Role, actor: Actor, by: string | null = null): Promise<{ userId: string; email: string; accountId: string; role: Role }> {
    const address = normalizeEmail(email);
    const userId = await this.register(address, actor);
    await this.commands.execute(new RunTeamCommand({ type: 'AddMember', accountId, userId, email: address, role, by }, actor));
    return { userId, email: address, accountId, role };
  }

  /** A one-time sign-in URL for a known person, valid 15 minutes; NotFound for an unknown address. */
  async signInLink(email: string, actor: Actor): Promise<{ url: string; expiresAt: string }> {
    const user = await this.queries.execute(new PeopleQuery({ type: 'UserByEmail', email: normalizeEmail(email) }));
    if (!user) throw new NotFoundError('No user has this email address');
    const secret = newSecret();
    const expiresAt = new Date(this.clock.now().getTime() + SIGN_IN_LINK_MS).toISOString();
    await this.commands.execute(new RunUserCommand({ type: 'IssueSignInLink', userId: user.id, linkId: this.ids.next(), hash: hashSecret(secret), expiresAt }, actor));
    return { url: `${this.config.publicUrl}/console/sign-in/link?token=${secret}`, expiresAt };
  }

  /** Uses a sign-in link (once) and starts a session; LinkNotValidError for anything but an open link. */
  async signInWithLink(secret: unknown, userAgent: string | null, actor: Actor): Promise<StartedSession> {
    const link = isSecretShape(secret) ? await this.queries.execute(new PeopleQuery({ type: 'SignInLinkByHash', hash: hashSecret(secret) })) : null;
    if (!link) throw new LinkNotValidError();
    const now = this.clock.now();
    const { session, started } = this.newSession('email-link', now, userAgent, link.userId);
    await this.commands.execute(new RunUserCommand({ type: 'SignInWithLink', userId: link.userId, linkId: link.id, now: now.toISOString(), session }, actor));
    return started;
  }

  /** Invites an address to an account; returns the link (shown to the ADMIN, and mailed when SMTP is set). */
  async invite(accountId: string, email: string, role: Role, by: string, actor: Actor): Promise<{ url: string; email: string; invitationId: string }> {
    const secret = newSecret();
    const invitationId = this.ids.next();
    const expiresAt = new Date(this.clock.now().getTime() + INVITATION_MS).toISOString();
    const address = normalizeEmail(email);
    await this.commands.execute(new RunTeamCommand({ type: 'Invite', accountId, invitationId, email: address, role, hash: hashSecret(secret), expiresAt, by }, actor));
    return { url: `${this.config.publicUrl}/console/invitations/accept?token=${secret}`, email: address, invitationId };
  }

  /** The pending invitation a secret opens, or InvitationNotValidError. */
  async invitation(secret: unknown) {
    const invitation = isSecretShape(secret) ? await this.queries.execute(new PeopleQuery({ type: 'InvitationByHash', hash: hashSecret(secret) })) : null;
    if (!invitation || this.clock.now().toISOString() >= invitation.expiresAt) throw new InvitationNotValidError();
    return invitation;
  }

  /** Accepts an invitation (once): the invitee becomes a member, registered if new, and is signed in. */
  async acceptInvitation(secret: unknown, userAgent: string | null, actor: Actor): Promise<StartedSession & { accountId: string }> {
    const invitation = await this.invitation(secret);
    const userId = await this.register(invitation.email, actor);
    const now = this.clock.now();
    await this.commands.execute(
      new RunTeamCommand({ type: 'AcceptInvitation', accountId: invitation.accountId, invitationId: invitation.id, userId, email: invitation.email, now: now.toISOString() }, actor),
    );
    const { session, started } = this.newSession('invitation', now, userAgent, userId);
    await this.commands.execute(new RunUserCommand({ type: 'StartSession', userId, session }, actor));
    return { ...started, accountId: invitation.accountId };
  }

  /**
   * Single sign-on: the provider vouched for this address. A user signs in; pending invitations of the address
   * are accepted (registering the person); null when the address is neither (no one else gets in).
   */
  async signInWithSso(email: string, userAgent: string | null, actor: Actor): Promise<(StartedSession & { accountId: string | null }) | null> {
    const address = normalizeEmail(email);
    const now = this.clock.now();
    const user = await this.queries.execute(new PeopleQuery({ type: 'UserByEmail', email: address }));
    const invitations = (await this.queries.execute(new PeopleQuery({ type: 'InvitationsByEmail', email: address }))).filter((invitation) => now.toISOString() < invitation.expiresAt);
    if (!user && invitations.length === 0) return null;
    const userId = user?.id ?? (await this.register(address, actor));
    for (const invitation of invitations) {
      await this.commands.execute(new RunTeamCommand({ type: 'AcceptInvitation', accountId: invitation.accountId, invitationId: invitation.id, userId, email: address, now: now.toISOString() }, actor));
    }
    const { session, started } = this.newSession('sso', now, userAgent, userId);
    await this.commands.execute(new RunUserCommand({ type: 'StartSession', userId, session }, actor));
    return { ...started, accountId: invitations[0]?.accountId ?? null };
  }

  /** Starts a session for a passkey the ceremony verified; the user's aggregate checks the counter. */
  async signInWithPasskey(userId: string, credentialId: string, counter: number, userAgent: string | null, actor: Actor): Promise<StartedSession> {
    const { session, started } = this.newSession('passkey', this.clock.now(), userAgent, userId);
    await this.commands.execute(new RunUserCommand({ type: 'SignInWithPasskey', userId, credentialId, counter, session }, actor));
    return started;
  }

  private async register(email: string, actor: Actor): Promise<string> {
    const userId = userIdOf(email);
    await this.commands.execute(new RunUserCommand({ type: 'RegisterUser', userId, email }, actor));
    return userId;
  }

  private newSession(method: SignInMethod, now: Date, userAgent: string | null, userId: string): { session: SessionData; started: StartedSession } {
    const secret = newSecret();
    const id = this.ids.next();
    const expires = now.getTime() + this.config.sessionMaxDays * DAY;
    const idle = Math.min(expires, now.getTime() + this.config.sessionIdleDays * DAY);
    const session: SessionData = {
      id,
      hash: hashSecret(secret),
      method,
      startedAt: now.toISOString(),
      expiresAt: new Date(expires).toISOString(),
      idleExpiresAt: new Date(idle).toISOString(),
      userAgent: userAgent === null ? null : userAgent.slice(0, 200),
    };
    return { session, started: { secret, userId, sessionId: id } };
  }
}

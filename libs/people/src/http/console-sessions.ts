import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Actor } from '../../../event-store/src/command-runner';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { hashSecret } from '../domain/secrets';
import { SessionEndReason } from '../domain/user.decider';
import { MemberDoc, SessionDoc, UserDoc } from '../read/people.projections';
import { PeopleQuery } from '../read/people.queries';
import { RunUserCommand } from '../write/user.handler';
import { csrfTokenOf, sessionSecretOf } from './session-cookie';

/** A session's idle end moves forward at most this often: one event an hour of use, not one a request. */
const REFRESH_AFTER_MS = 3_600_000;
const DAY = 86_400_000;

/** The person behind a request's session cookie. */
export interface SignedIn {
  user: UserDoc;
  session: SessionDoc;
  /** The form token every state-changing request of this session must carry. */
  csrf: string;
  memberships: MemberDoc[];
}

/** Finds the session of a request (server-side, so a revoked one stops at once) and keeps it alive while used. */
@Injectable()
export class ConsoleSessions {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async resolve(request: FastifyRequest): Promise<SignedIn | null> {
    const secret = sessionSecretOf(request, this.config.publicUrl);
    if (secret === null) return null;
    const session = await this.queries.execute(new PeopleQuery({ type: 'SessionByHash', hash: hashSecret(secret) }));
    if (!session) return null;
    const now = this.clock.now();
    const at = now.toISOString();
    if (at >= session.expiresAt || at >= session.idleExpiresAt) return null;
    const user = await this.queries.execute(new PeopleQuery({ type: 'UserById', userId: session.userId }));
    if (!user) return null;
    if (now.getTime() - Date.parse(session.lastSeenAt) > REFRESH_AFTER_MS) {
      const idleExpiresAt = new Date(now.getTime() + this.config.sessionIdleDays * DAY).toISOString();
      await this.commands.execute(new RunUserCommand({ type: 'RefreshSession', userId: user.id, sessionId: session.id, now: at, idleExpiresAt }, this.actor(request, user)));
    }
    const memberships = await this.queries.execute(new PeopleQuery({ type: 'MembershipsOfUser', userId: user.id }));
    return { user, session, csrf: csrfTokenOf(secret), memberships };
  }

  /** Ends one of the person's own sessions (another person's is not found in their stream). */
  async end(request: FastifyRequest, me: SignedIn, sessionId: string, reason: SessionEndReason): Promise<void> {
    await this.commands.execute(new RunUserCommand({ type: 'EndSession', userId: me.user.id, sessionId, reason }, this.actor(request, me.user)));
  }

  async endAll(request: FastifyRequest, me: SignedIn): Promise<void> {
    await this.commands.execute(new RunUserCommand({ type: 'EndAllSessions', userId: me.user.id, reason: 'signed-out-everywhere' }, this.actor(request, me.user)));
  }

  /** Who acts, for the events a signed-in person causes: the account, and the person by address. */
  actor(request: FastifyRequest, user: UserDoc | null, accountId: string | null = null): Actor {
    return { accountId, keyId: null, keyName: user ? `person:${user.email}` : 'console', requestId: String(request.id), ...(user ? { userId: user.id } : {}) };
  }
}

import { EventOf } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { Role } from '../../../http/src/account-context';
import { TeamEvent } from '../domain/team.decider';
import { SignInMethod, UserEvent } from '../domain/user.decider';

export interface UserDoc {
  id: string;
  email: string;
  created_at: string;
  [field: string]: unknown;
}

export const usersProjection: Projection<UserDoc, EventOf<UserEvent, 'UserRegistered'>> = {
  name: 'people_users',
  version: 1,
  handles: ['UserRegistered'],
  indexes: [{ field: 'email' }],
  sortField: 'email',
  ids: (event) => [event.data.userId],
  evolve: (doc, event) => doc ?? { id: event.data.userId, email: event.data.email, created_at: event.metadata.occurredAt },
};

/** Open sign-in links, found by the hash of their secret; a used link is deleted. */
export interface SignInLinkDoc {
  id: string;
  userId: string;
  hash: string;
  expiresAt: string;
  [field: string]: unknown;
}

export const signInLinksProjection: Projection<SignInLinkDoc, EventOf<UserEvent, 'SignInLinkIssued' | 'SignInLinkUsed'>> = {
  name: 'people_sign_in_links',
  version: 1,
  handles: ['SignInLinkIssued', 'SignInLinkUsed'],
  indexes: [{ field: 'hash' }],
  ids: (event) => [event.data.linkId],
  evolve(_doc, event) {
    if (event.type !== 'SignInLinkIssued') return null;
    return { id: event.data.linkId, userId: event.data.userId, hash: event.data.hash, expiresAt: event.data.expiresAt };
  },
};

/** Open sessions, found by the hash of their cookie; an ended session is deleted. */
export interface SessionDoc {
  id: string;
  userId: string;
  hash: string;
  method: SignInMethod;
  startedAt: string;
  expiresAt: string;
  idleExpiresAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  [field: string]: unknown;
}

export const sessionsProjection: Projection<SessionDoc, EventOf<UserEvent, 'SessionStarted' | 'SessionRefreshed' | 'SessionEnded'>> = {
  name: 'people_sessions',
  version: 1,
  handles: ['SessionStarted', 'SessionRefreshed', 'SessionEnded'],
  indexes: [{ field: 'hash' }, { field: 'userId' }, { field: 'startedAt' }],
  sortField: 'startedAt',
  ids: (event) => [event.type === 'SessionStarted' ? event.data.id : event.data.sessionId],
  evolve(doc, event) {
    switch (event.type) {
      case 'SessionStarted': {
        const { id, userId, hash, method, startedAt, expiresAt, idleExpiresAt, userAgent } = event.data;
        return { id, userId, hash, method, startedAt, expiresAt, idleExpiresAt, lastSeenAt: startedAt, userAgent };
      }
      case 'SessionRefreshed':
        return doc && { ...doc, idleExpiresAt: event.data.idleExpiresAt, lastSeenAt: event.metadata.occurredAt };
      case 'SessionEnded':
        return null;
      default:
        return doc;
    }
  },
};

/** One per (account, user): `${accountId}:${userId}`. */
export interface MemberDoc {
  id: string;
  accountId: string;
  userId: string;
  email: string;
  role: Role;
  since: string;
  [field: string]: unknown;
}

export const membersProjection: Projection<MemberDoc, EventOf<TeamEvent, 'MemberAdded' | 'MemberRoleChanged' | 'MemberRemoved'>> = {
  name: 'people_members',
  version: 1,
  handles: ['MemberAdded', 'MemberRoleChanged', 'MemberRemoved'],
  indexes: [{ field: 'accountId' }, { field: 'userId' }, { field: 'email' }],
  sortField: 'email',
  ids: (event) => [`${event.data.accountId}:${event.data.userId}`],
  evolve(doc, event, id) {
    switch (event.type) {
      case 'MemberAdded':
        return { id, accountId: event.data.accountId, userId: event.data.userId, email: event.data.email, role: event.data.role, since: event.metadata.occurredAt };
      case 'MemberRoleChanged':
        return doc && { ...doc, role: event.data.role };
      case 'MemberRemoved':
        return null;
      default:
        return doc;
    }
  },
};

/** Pending invitations; an accepted or revoked one is deleted. */
export interface InvitationDoc {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  hash: string;
  expiresAt: string;
  created_at: string;
  [field: string]: unknown;
}

export const invitationsProjection: Projection<InvitationDoc, EventOf<TeamEvent, 'InvitationCreated' | 'InvitationAccepted' | 'InvitationRevoked'>> = {
  name: 'people_invitations',
  version: 1,
  handles: ['InvitationCreated', 'InvitationAccepted', 'InvitationRevoked'],
  indexes: [{ field: 'hash' }, { field: 'accountId' }, { field: 'email' }, { field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [event.data.invitationId],
  evolve(_doc, event) {
    if (event.type !== 'InvitationCreated') return null;
    const { invitationId, accountId, email, role, hash, expiresAt } = event.data;
    return { id: invitationId, accountId, email, role, hash, expiresAt, created_at: event.metadata.occurredAt };
  },
};

/** Registered passkeys, by credential id: what a passkey sign-in is verified against. */
export interface PasskeyDoc {
  id: string;
  userId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: string;
  lastUsedAt: string | null;
  [field: string]: unknown;
}

export const passkeysProjection: Projection<PasskeyDoc, EventOf<UserEvent, 'PasskeyRegistered' | 'PasskeyUsed' | 'PasskeyRemoved' | 'PasskeyRenamed'>> = {
  name: 'people_passkeys',
  version: 1,
  handles: ['PasskeyRegistered', 'PasskeyUsed', 'PasskeyRemoved', 'PasskeyRenamed'],
  indexes: [{ field: 'userId' }, { field: 'created_at' }],
  sortField: 'created_at',
  ids: (event) => [event.data.credentialId],
  evolve(doc, event) {
    switch (event.type) {
      case 'PasskeyRegistered': {
        const { credentialId, userId, publicKey, counter, transports, name } = event.data;
        return { id: credentialId, userId, publicKey, counter, transports, name, created_at: event.metadata.occurredAt, lastUsedAt: null };
      }
      case 'PasskeyUsed':
        return doc && { ...doc, counter: event.data.counter, lastUsedAt: event.metadata.occurredAt };
      case 'PasskeyRenamed':
        return doc && { ...doc, name: event.data.name };
      case 'PasskeyRemoved':
        return null;
      default:
        return doc;
    }
  },
};

export const PEOPLE_PROJECTIONS = [usersProjection, signInLinksProjection, sessionsProjection, membersProjection, invitationsProjection, passkeysProjection];

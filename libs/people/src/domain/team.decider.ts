import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { Role } from '../../../http/src/account-context';

/** The people of one account: its members and pending invitations. */
export type TeamEvent =
  | { type: 'MemberAdded'; data: { accountId: string; userId: string; email: string; role: Role; by: string | null } }
  | { type: 'MemberRoleChanged'; data: { accountId: string; userId: string; role: Role; by: string | null } }
  | { type: 'MemberRemoved'; data: { accountId: string; userId: string; by: string | null } }
  | { type: 'InvitationCreated'; data: { accountId: string; invitationId: string; email: string; role: Role; hash: string; expiresAt: string; by: string | null } }
  | { type: 'InvitationAccepted'; data: { accountId: string; invitationId: string; userId: string } }
  | { type: 'InvitationRevoked'; data: { accountId: string; invitationId: string; by: string | null } };

/** `by`: the user acting, or null for the CLI. */
export type TeamCommand =
  | { type: 'AddMember'; accountId: string; userId: string; email: string; role: Role; by: string | null }
  | { type: 'ChangeMemberRole'; accountId: string; userId: string; role: Role; by: string | null }
  | { type: 'RemoveMember'; accountId: string; userId: string; by: string | null }
  | { type: 'Invite'; accountId: string; invitationId: string; email: string; role: Role; hash: string; expiresAt: string; by: string | null }
  | { type: 'AcceptInvitation'; accountId: string; invitationId: string; userId: string; email: string; now: string }
  | { type: 'RevokeInvitation'; accountId: string; invitationId: string; by: string | null };

interface Member {
  email: string;
  role: Role;
}

interface Invitation {
  email: string;
  role: Role;
  expiresAt: string;
}

export interface TeamState {
  members: Record<string, Member>;
  /** Pending invitations only: accepted and revoked ones are gone. */
  invitations: Record<string, Invitation>;
}

/** One message for expired, used, revoked and unknown invitations. */
export class InvitationNotValidError extends ValidationError {
  constructor() {
    super('This invitation is not valid: it has expired, was already used or revoked, or was mistyped');
  }
}

const LAST_ADMIN = 'An account keeps at least one ADMIN: make another member ADMIN first';

function adminsBesides(state: TeamState, userId: string): number {
  return Object.entries(state.members).filter(([id, m]) => id !== userId && m.role === 'ADMIN').length;
}

function requireMember(state: TeamState, userId: string): Member {
  const member = state.members[userId];
  if (!member) throw new NotFoundError(`User ${userId} is not a member of this account`);
  return member;
}

export const teamDecider: Decider<TeamState, TeamCommand, TeamEvent> = {
  initialState: () => ({ members: {}, invitations: {} }),
  decide(command, state) {
    const { accountId } = command;
    switch (command.type) {
      case 'AddMember': {
        const member = state.members[command.userId];
        if (member) {
          if (member.role === command.role) return [];
          throw new ConflictError(`${command.email} is already a member of this account, as ${member.role}`);
        }
        return [{ type: 'MemberAdded', data: { accountId, userId: command.userId, email: command.email, role: command.role, by: command.by } }];
      }
      case 'ChangeMemberRole': {
        const member = requireMember(state, command.userId);
        if (member.role === command.role) return [];
        if (member.role === 'ADMIN' && adminsBesides(state, command.userId) === 0) throw new ConflictError(LAST_ADMIN);
        return [{ type: 'MemberRoleChanged', data: { accountId, userId: command.userId, role: command.role, by: command.by } }];
      }
      case 'RemoveMember': {
        const member = requireMember(state, command.userId);
        if (member.role === 'ADMIN' && adminsBesides(state, command.userId) === 0) throw new ConflictError(LAST_ADMIN);
        return [{ type: 'MemberRemoved', data: { accountId, userId: command.userId, by: command.by } }];
      }
      case 'Invite': {
        if (Object.values(state.members).some((m) => m.email === command.email)) throw new ConflictError(`${command.email} is already a member of this account`);
        if (state.invitations[command.invitationId]) throw new ConflictError(`Invitation ${command.invitationId} already exists`);
        const { invitationId, email, role, hash, expiresAt, by } = command;
        return [{ type: 'InvitationCreated', data: { accountId, invitationId, email, role, hash, expiresAt, by } }];
      }
      case 'AcceptInvitation': {
        const invitation = state.invitations[command.invitationId];
        if (!invitation || command.now >= invitation.expiresAt || invitation.email !== command.email) throw new InvitationNotValidError();
        const accepted: TeamEvent = { type: 'InvitationAccepted', data: { accountId, invitationId: command.invitationId, userId: command.userId } };
        // Already a member (added meanwhile): the invitation is used up and the role stays as it is.
        if (state.members[command.userId]) return [accepted];
        return [accepted, { type: 'MemberAdded', data: { accountId, userId: command.userId, email: command.email, role: invitation.role, by: null } }];
      }
      case 'RevokeInvitation':
        if (!state.invitations[command.invitationId]) throw new NotFoundError(`No pending invitation ${command.invitationId}`);
        return [{ type: 'InvitationRevoked', data: { accountId, invitationId: command.invitationId, by: command.by } }];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'MemberAdded':
        return { ...state, members: { ...state.members, [event.data.userId]: { email: event.data.email, role: event.data.role } } };
      case 'MemberRoleChanged': {
        const member = state.members[event.data.userId];
        return member ? { ...state, members: { ...state.members, [event.data.userId]: { ...member, role: event.data.role } } } : state;
      }
      case 'MemberRemoved': {
        const members = { ...state.members };
        delete members[event.data.userId];
        return { ...state, members };
      }
      case 'InvitationCreated':
        return { ...state, invitations: { ...state.invitations, [event.data.invitationId]: { email: event.data.email, role: event.data.role, expiresAt: event.data.expiresAt } } };
      case 'InvitationAccepted':
      case 'InvitationRevoked': {
        const invitations = { ...state.invitations };
        delete invitations[event.data.invitationId];
        return { ...state, invitations };
      }
      default:
        return state;
    }
  },
};

export const teamStream = (accountId: string) => `team-${accountId}`;

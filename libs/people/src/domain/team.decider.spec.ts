import { ConflictError, NotFoundError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { InvitationNotValidError, teamDecider, TeamEvent } from './team.decider';

const spec = specFor(teamDecider);
const accountId = 'a1';
const ada: TeamEvent = { type: 'MemberAdded', data: { accountId, userId: 'ada', email: 'ada@example.com', role: 'ADMIN', by: null } };
const bob: TeamEvent = { type: 'MemberAdded', data: { accountId, userId: 'bob', email: 'bob@example.com', role: 'READ_ONLY', by: 'ada' } };
const invited: TeamEvent = {
  type: 'InvitationCreated',
  data: { accountId, invitationId: 'i1', email: 'cy@example.com', role: 'READ_WRITE', hash: 'h', expiresAt: '2026-01-08T00:00:00.000Z', by: 'ada' },
};
const accept = { type: 'AcceptInvitation' as const, accountId, invitationId: 'i1', userId: 'cy', email: 'cy@example.com', now: '2026-01-02T00:00:00.000Z' };

describe('team decider', () => {
  it('adds a member once; the same again changes nothing, another role is a conflict', () => {
    spec.given([]).when({ type: 'AddMember', accountId, userId: 'ada', email: 'ada@example.com', role: 'ADMIN', by: null }).then([ada]);
    spec.given([ada]).when({ type: 'AddMember', accountId, userId: 'ada', email: 'ada@example.com', role: 'ADMIN', by: null }).then([]);
    spec.given([ada]).when({ type: 'AddMember', accountId, userId: 'ada', email: 'ada@example.com', role: 'READ_ONLY', by: null }).thenThrows(ConflictError);
  });

  it('an account keeps at least one ADMIN', () => {
    spec.given([ada, bob]).when({ type: 'ChangeMemberRole', accountId, userId: 'ada', role: 'READ_WRITE', by: 'ada' }).thenThrows(ConflictError, /at least one ADMIN/);
    spec.given([ada, bob]).when({ type: 'RemoveMember', accountId, userId: 'ada', by: 'ada' }).thenThrows(ConflictError, /at least one ADMIN/);
    const promoted: TeamEvent = { type: 'MemberRoleChanged', data: { accountId, userId: 'bob', role: 'ADMIN', by: 'ada' } };
    spec.given([ada, bob]).when({ type: 'ChangeMemberRole', accountId, userId: 'bob', role: 'ADMIN', by: 'ada' }).then([promoted]);
    spec.given([ada, bob, promoted]).when({ type: 'RemoveMember', accountId, userId: 'ada', by: 'bob' }).then([{ type: 'MemberRemoved', data: { accountId, userId: 'ada', by: 'bob' } }]);
    spec.given([ada]).when({ type: 'RemoveMember', accountId, userId: 'bob', by: 'ada' }).thenThrows(NotFoundError);
  });

  it('an invitation is accepted once, by its address, before it expires', () => {
    const accepted: TeamEvent = { type: 'InvitationAccepted', data: { accountId, invitationId: 'i1', userId: 'cy' } };
    const added: TeamEvent = { type: 'MemberAdded', data: { accountId, userId: 'cy', email: 'cy@example.com', role: 'READ_WRITE', by: null } };
    spec.given([ada, invited]).when(accept).then([accepted, added]);
    spec.given([ada, invited, accepted, added]).when(accept).thenThrows(InvitationNotValidError);
    spec.given([ada, invited]).when({ ...accept, now: '2026-01-08T00:00:00.000Z' }).thenThrows(InvitationNotValidError);
    spec.given([ada, invited]).when({ ...accept, email: 'eve@example.com' }).thenThrows(InvitationNotValidError);
  });

  it('a revoked invitation cannot be accepted; members are not invited again', () => {
    const revoked: TeamEvent = { type: 'InvitationRevoked', data: { accountId, invitationId: 'i1', by: 'ada' } };
    spec.given([ada, invited]).when({ type: 'RevokeInvitation', accountId, invitationId: 'i1', by: 'ada' }).then([revoked]);
    spec.given([ada, invited, revoked]).when(accept).thenThrows(InvitationNotValidError);
    spec.given([ada, invited, revoked]).when({ type: 'RevokeInvitation', accountId, invitationId: 'i1', by: 'ada' }).thenThrows(NotFoundError);
    spec.given([ada]).when({ ...(invited.data as object), type: 'Invite', email: 'ada@example.com' } as never).thenThrows(ConflictError);
  });
});

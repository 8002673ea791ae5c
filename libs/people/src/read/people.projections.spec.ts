import { project, recorded } from '../../../testing/src/given-when-then';
import { TeamEvent } from '../domain/team.decider';
import { UserEvent } from '../domain/user.decider';
import { invitationsProjection, membersProjection, passkeysProjection, sessionsProjection, signInLinksProjection, usersProjection } from './people.projections';

const userId = 'u1';
const session = { id: 's1', hash: 'sh', method: 'email-link' as const, startedAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-31T00:00:00.000Z', idleExpiresAt: '2026-01-08T00:00:00.000Z', userAgent: 'Firefox' };
const userEvents: UserEvent[] = [
  { type: 'UserRegistered', data: { userId, email: 'ada@example.com' } },
  { type: 'SignInLinkIssued', data: { userId, linkId: 'l1', hash: 'lh', expiresAt: '2026-01-01T00:15:00.000Z' } },
  { type: 'SignInLinkIssued', data: { userId, linkId: 'l2', hash: 'lh2', expiresAt: '2026-01-01T00:15:00.000Z' } },
  { type: 'SignInLinkUsed', data: { userId, linkId: 'l1' } },
  { type: 'SessionStarted', data: { userId, ...session } },
  { type: 'SessionStarted', data: { userId, ...session, id: 's2', hash: 'sh2' } },
  { type: 'SessionRefreshed', data: { userId, sessionId: 's1', idleExpiresAt: '2026-01-09T00:00:00.000Z' } },
  { type: 'SessionEnded', data: { userId, sessionId: 's2', reason: 'signed-out' } },
];

describe('people projections', () => {
  const events = recorded(`user-${userId}`, userEvents);

  it('users: one per registration, found by address', () => {
    expect([...project(usersProjection, events).values()]).toEqual([{ id: userId, email: 'ada@example.com', created_at: events[0].metadata.occurredAt }]);
  });

  it('sign-in links: open ones only, by hash', () => {
    expect([...project(signInLinksProjection, events).values()]).toEqual([{ id: 'l2', userId, hash: 'lh2', expiresAt: '2026-01-01T00:15:00.000Z' }]);
  });

  it('sessions: open ones, with their idle end moved by a refresh and the time it was seen', () => {
    expect([...project(sessionsProjection, events).values()]).toEqual([
      { ...session, userId, idleExpiresAt: '2026-01-09T00:00:00.000Z', lastSeenAt: events[6].metadata.occurredAt },
    ]);
  });

  it('passkeys: registered, used, renamed; a removed one is gone', () => {
    const passkey = { credentialId: 'c1', publicKey: 'pk', counter: 0, transports: ['internal'], name: 'My passkey' };
    const log = recorded(`user-${userId}`, [
      { type: 'PasskeyRegistered', data: { userId, ...passkey } },
      { type: 'PasskeyRegistered', data: { userId, ...passkey, credentialId: 'c2' } },
      { type: 'PasskeyUsed', data: { userId, credentialId: 'c1', counter: 3 } },
      { type: 'PasskeyRenamed', data: { userId, credentialId: 'c1', name: 'Work laptop' } },
      { type: 'PasskeyRemoved', data: { userId, credentialId: 'c2' } },
    ] as UserEvent[]);
    expect([...project(passkeysProjection, log).values()]).toEqual([
      { id: 'c1', userId, publicKey: 'pk', counter: 3, transports: ['internal'], name: 'Work laptop', created_at: log[0].metadata.occurredAt, lastUsedAt: log[2].metadata.occurredAt },
    ]);
  });

  it('members and invitations: roles follow changes; removed members and used or revoked invitations are gone', () => {
    const accountId = 'a1';
    const team: TeamEvent[] = [
      { type: 'MemberAdded', data: { accountId, userId: 'ada', email: 'ada@example.com', role: 'ADMIN', by: null } },
      { type: 'MemberAdded', data: { accountId, userId: 'bob', email: 'bob@example.com', role: 'READ_ONLY', by: 'ada' } },
      { type: 'MemberRoleChanged', data: { accountId, userId: 'bob', role: 'READ_WRITE', by: 'ada' } },
      { type: 'InvitationCreated', data: { accountId, invitationId: 'i1', email: 'cy@example.com', role: 'ADMIN', hash: 'ih', expiresAt: '2026-01-08T00:00:00.000Z', by: 'ada' } },
      { type: 'InvitationCreated', data: { accountId, invitationId: 'i2', email: 'dee@example.com', role: 'READ_ONLY', hash: 'ih2', expiresAt: '2026-01-08T00:00:00.000Z', by: 'ada' } },
      { type: 'InvitationRevoked', data: { accountId, invitationId: 'i1', by: 'ada' } },
      { type: 'MemberRemoved', data: { accountId, userId: 'ada', by: 'bob' } },
    ];
    const log = recorded(`team-${accountId}`, team);
    expect([...project(membersProjection, log).values()]).toEqual([{ id: 'a1:bob', accountId, userId: 'bob', email: 'bob@example.com', role: 'READ_WRITE', since: log[1].metadata.occurredAt }]);
    expect([...project(invitationsProjection, log).values()]).toEqual([
      { id: 'i2', accountId, email: 'dee@example.com', role: 'READ_ONLY', hash: 'ih2', expiresAt: '2026-01-08T00:00:00.000Z', created_at: log[4].metadata.occurredAt },
    ]);
  });
});

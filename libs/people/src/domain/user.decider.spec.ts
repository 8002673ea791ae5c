import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';
import { specFor } from '../../../testing/src/given-when-then';
import { LinkNotValidError, PasskeyNotValidError, SessionData, userDecider, UserEvent } from './user.decider';

const spec = specFor(userDecider);
const userId = 'u1';
const registered: UserEvent = { type: 'UserRegistered', data: { userId, email: 'ada@example.com' } };
const linkIssued: UserEvent = { type: 'SignInLinkIssued', data: { userId, linkId: 'l1', hash: 'h', expiresAt: '2026-01-01T00:15:00.000Z' } };
const session: SessionData = {
  id: 's1',
  hash: 'sh',
  method: 'email-link',
  startedAt: '2026-01-01T00:05:00.000Z',
  expiresAt: '2026-01-31T00:05:00.000Z',
  idleExpiresAt: '2026-01-08T00:05:00.000Z',
  userAgent: null,
};
const started: UserEvent = { type: 'SessionStarted', data: { userId, ...session } };

describe('user decider', () => {
  it('registers a person once; again with the same address changes nothing', () => {
    spec.given([]).when({ type: 'RegisterUser', userId, email: 'ada@example.com' }).then([registered]);
    spec.given([registered]).when({ type: 'RegisterUser', userId, email: 'ada@example.com' }).then([]);
    spec.given([registered]).when({ type: 'RegisterUser', userId, email: 'eve@example.com' }).thenThrows(ConflictError);
  });

  it('issues sign-in links to registered people only', () => {
    spec.given([]).when({ type: 'IssueSignInLink', userId, linkId: 'l1', hash: 'h', expiresAt: '2026-01-01T00:15:00.000Z' }).thenThrows(NotFoundError);
    spec.given([registered]).when({ type: 'IssueSignInLink', userId, linkId: 'l1', hash: 'h', expiresAt: '2026-01-01T00:15:00.000Z' }).then([linkIssued]);
  });

  it('a link signs in once, before it expires', () => {
    const use = { type: 'SignInWithLink' as const, userId, linkId: 'l1', now: '2026-01-01T00:05:00.000Z', session };
    const used: UserEvent = { type: 'SignInLinkUsed', data: { userId, linkId: 'l1' } };
    spec.given([registered, linkIssued]).when(use).then([used, started]);
    spec.given([registered, linkIssued, used, started]).when({ ...use, session: { ...session, id: 's2' } }).thenThrows(LinkNotValidError);
    spec.given([registered, linkIssued]).when({ ...use, now: '2026-01-01T00:15:00.000Z' }).thenThrows(LinkNotValidError);
    spec.given([registered]).when({ ...use, linkId: 'forged' }).thenThrows(LinkNotValidError);
  });

  it('refreshes a live session forward only, never past its absolute end', () => {
    const refresh = { type: 'RefreshSession' as const, userId, sessionId: 's1', now: '2026-01-02T00:00:00.000Z', idleExpiresAt: '2026-01-09T00:00:00.000Z' };
    spec.given([registered, started]).when(refresh).then([{ type: 'SessionRefreshed', data: { userId, sessionId: 's1', idleExpiresAt: '2026-01-09T00:00:00.000Z' } }]);
    spec.given([registered, started]).when({ ...refresh, now: '2026-01-29T00:00:00.000Z', idleExpiresAt: '2026-02-05T00:00:00.000Z' }).thenThrows(NotFoundError);
    spec.given([registered, started]).when({ ...refresh, now: '2026-01-07T00:00:00.000Z', idleExpiresAt: '2026-01-07T12:00:00.000Z' }).then([]);
  });

  it('ends one session or all; an ended session is not found', () => {
    const ended: UserEvent = { type: 'SessionEnded', data: { userId, sessionId: 's1', reason: 'signed-out' } };
    spec.given([registered, started]).when({ type: 'EndSession', userId, sessionId: 's1', reason: 'signed-out' }).then([ended]);
    spec.given([registered, started, ended]).when({ type: 'EndSession', userId, sessionId: 's1', reason: 'signed-out' }).thenThrows(NotFoundError);
    const second: UserEvent = { type: 'SessionStarted', data: { userId, ...session, id: 's2' } };
    spec
      .given([registered, started, second])
      .when({ type: 'EndAllSessions', userId, reason: 'removed-from-account' })
      .then([
        { type: 'SessionEnded', data: { userId, sessionId: 's1', reason: 'removed-from-account' } },
        { type: 'SessionEnded', data: { userId, sessionId: 's2', reason: 'removed-from-account' } },
      ]);
    spec.given([registered]).when({ type: 'EndAllSessions', userId, reason: 'signed-out-everywhere' }).then([]);
  });
});

describe('user decider: passkeys', () => {
  const passkey = { credentialId: 'c1', publicKey: 'pk', counter: 0, transports: ['internal'], name: 'Laptop' };
  const passkeyRegistered: UserEvent = { type: 'PasskeyRegistered', data: { userId, ...passkey } };
  const signIn = { type: 'SignInWithPasskey' as const, userId, credentialId: 'c1', counter: 0, session: { ...session, method: 'passkey' as const } };

  it('registers a passkey once', () => {
    spec.given([registered]).when({ type: 'RegisterPasskey', userId, passkey }).then([passkeyRegistered]);
    spec.given([registered, passkeyRegistered]).when({ type: 'RegisterPasskey', userId, passkey }).thenThrows(ConflictError);
  });

  it('signs in with a registered passkey whose counter grows (or that keeps none)', () => {
    spec.given([registered, passkeyRegistered]).when(signIn).then([
      { type: 'PasskeyUsed', data: { userId, credentialId: 'c1', counter: 0 } },
      { type: 'SessionStarted', data: { userId, ...signIn.session } },
    ]);
    const used: UserEvent = { type: 'PasskeyUsed', data: { userId, credentialId: 'c1', counter: 5 } };
    spec.given([registered, passkeyRegistered, used]).when({ ...signIn, counter: 5 }).thenThrows(PasskeyNotValidError);
    spec.given([registered, passkeyRegistered, used]).when({ ...signIn, counter: 6 }).then([
      { type: 'PasskeyUsed', data: { userId, credentialId: 'c1', counter: 6 } },
      { type: 'SessionStarted', data: { userId, ...signIn.session } },
    ]);
  });

  it('a removed or unknown passkey signs no one in', () => {
    const removed: UserEvent = { type: 'PasskeyRemoved', data: { userId, credentialId: 'c1' } };
    spec.given([registered, passkeyRegistered]).when({ type: 'RemovePasskey', userId, credentialId: 'c1' }).then([removed]);
    spec.given([registered, passkeyRegistered, removed]).when(signIn).thenThrows(PasskeyNotValidError);
    spec.given([registered]).when({ type: 'RemovePasskey', userId, credentialId: 'c1' }).thenThrows(NotFoundError);
  });

  it('renames a passkey of the person, trimmed; an empty, long or unknown one is refused', () => {
    spec.given([registered, passkeyRegistered]).when({ type: 'RenamePasskey', userId, credentialId: 'c1', name: '  Work laptop ' }).then([
      { type: 'PasskeyRenamed', data: { userId, credentialId: 'c1', name: 'Work laptop' } },
    ]);
    spec.given([registered, passkeyRegistered]).when({ type: 'RenamePasskey', userId, credentialId: 'c1', name: '   ' }).thenThrows(ValidationError);
    spec.given([registered, passkeyRegistered]).when({ type: 'RenamePasskey', userId, credentialId: 'c1', name: 'x'.repeat(61) }).thenThrows(ValidationError);
    spec.given([registered]).when({ type: 'RenamePasskey', userId, credentialId: 'c1', name: 'Phone' }).thenThrows(NotFoundError);
  });
});

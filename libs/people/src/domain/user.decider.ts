import { Decider } from '../../../core/src/decider';
import { ConflictError, NotFoundError, ValidationError } from '../../../core/src/errors';

/** How a session began: the audit trail says so. */
export type SignInMethod = 'email-link' | 'invitation' | 'passkey' | 'sso';

export interface SessionData {
  id: string;
  /** SHA-256 of the cookie's secret; the secret itself is never stored. */
  hash: string;
  method: SignInMethod;
  startedAt: string;
  /** Absolute end: no activity keeps a session past it. */
  expiresAt: string;
  /** Idle end: moved forward while the session is used. */
  idleExpiresAt: string;
  /** What the browser said it was, for the person's list of sessions. */
  userAgent: string | null;
}

export type SessionEndReason = 'signed-out' | 'signed-out-everywhere' | 'removed-from-account' | 'expired';

export type UserEvent =
  | { type: 'UserRegistered'; data: { userId: string; email: string } }
  | { type: 'SignInLinkIssued'; data: { userId: string; linkId: string; hash: string; expiresAt: string } }
  | { type: 'SignInLinkUsed'; data: { userId: string; linkId: string } }
  | { type: 'SessionStarted'; data: { userId: string } & SessionData }
  | { type: 'SessionRefreshed'; data: { userId: string; sessionId: string; idleExpiresAt: string } }
  | { type: 'SessionEnded'; data: { userId: string; sessionId: string; reason: SessionEndReason } }
  | { type: 'PasskeyRegistered'; data: { userId: string } & PasskeyData }
  | { type: 'PasskeyUsed'; data: { userId: string; credentialId: string; counter: number } }
  | { type: 'PasskeyRemoved'; data: { userId: string; credentialId: string } }
  | { type: 'PasskeyRenamed'; data: { userId: string; credentialId: string; name: string } };

/** A WebAuthn credential: its id and COSE public key (base64url), signature counter, transports and the person's name for it. */
export interface PasskeyData {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
}

export type UserCommand =
  | { type: 'RegisterUser'; userId: string; email: string }
  | { type: 'IssueSignInLink'; userId: string; linkId: string; hash: string; expiresAt: string }
  | { type: 'SignInWithLink'; userId: string; linkId: string; now: string; session: SessionData }
  | { type: 'StartSession'; userId: string; session: SessionData }
  | { type: 'RefreshSession'; userId: string; sessionId: string; now: string; idleExpiresAt: string }
  | { type: 'EndSession'; userId: string; sessionId: string; reason: SessionEndReason }
  | { type: 'EndAllSessions'; userId: string; reason: SessionEndReason }
  | { type: 'RegisterPasskey'; userId: string; passkey: PasskeyData }
  | { type: 'SignInWithPasskey'; userId: string; credentialId: string; counter: number; session: SessionData }
  | { type: 'RemovePasskey'; userId: string; credentialId: string }
  | { type: 'RenamePasskey'; userId: string; credentialId: string; name: string };

interface LinkState {
  expiresAt: string;
}

interface SessionState {
  expiresAt: string;
  idleExpiresAt: string;
}

export interface UserState {
  email: string | null;
  links: Record<string, LinkState>;
  /** Open sessions only. */
  sessions: Record<string, SessionState>;
  /** Signature counters of registered passkeys, by credential id. */
  passkeys: Record<string, number>;
}

/** A passkey assertion that is not this person's, or whose counter went back (a replay or a cloned key). */
/** A passkey's name as people see it: 1 to 60 characters, no control characters. */
export const PASSKEY_NAME = /^[^\u0000-\u001f\u007f]{1,60}$/;

export class PasskeyNotValidError extends ValidationError {
  constructor() {
    super('This passkey could not sign you in');
  }
}

/** Refused sign-in links: one message for expired, used and unknown, so a link tells nothing about others. */
export class LinkNotValidError extends ValidationError {
  constructor() {
    super('This sign-in link is not valid: it has expired, was already used, or was mistyped');
  }
}

const live = (session: SessionState, now: string) => now < session.expiresAt && now < session.idleExpiresAt;

function requireUser(state: UserState, userId: string): void {
  if (state.email === null) throw new NotFoundError(`User ${userId} does not exist`);
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ email: null, links: {}, sessions: {}, passkeys: {} }),
  decide(command, state) {
    const userId = command.userId;
    switch (command.type) {
      case 'RegisterUser':
        if (state.email !== null) {
          if (state.email === command.email) return [];
          throw new ConflictError(`User ${userId} already exists with another address`);
        }
        return [{ type: 'UserRegistered', data: { userId, email: command.email } }];
      case 'IssueSignInLink':
        requireUser(state, userId);
        if (state.links[command.linkId]) throw new ConflictError(`Sign-in link ${command.linkId} already exists`);
        return [{ type: 'SignInLinkIssued', data: { userId, linkId: command.linkId, hash: command.hash, expiresAt: command.expiresAt } }];
      case 'SignInWithLink': {
        requireUser(state, userId);
        const link = state.links[command.linkId];
        if (!link || command.now >= link.expiresAt) throw new LinkNotValidError();
        return [
          { type: 'SignInLinkUsed', data: { userId, linkId: command.linkId } },
          { type: 'SessionStarted', data: { userId, ...command.session } },
        ];
      }
      case 'StartSession':
        requireUser(state, userId);
        if (state.sessions[command.session.id]) throw new ConflictError(`Session ${command.session.id} already exists`);
        return [{ type: 'SessionStarted', data: { userId, ...command.session } }];
      case 'RefreshSession': {
        const session = state.sessions[command.sessionId];
        if (!session || !live(session, command.now)) throw new NotFoundError('Session not found or ended');
        const idleExpiresAt = command.idleExpiresAt < session.expiresAt ? command.idleExpiresAt : session.expiresAt;
        return idleExpiresAt <= session.idleExpiresAt ? [] : [{ type: 'SessionRefreshed', data: { userId, sessionId: command.sessionId, idleExpiresAt } }];
      }
      case 'EndSession':
        if (!state.sessions[command.sessionId]) throw new NotFoundError('Session not found or ended');
        return [{ type: 'SessionEnded', data: { userId, sessionId: command.sessionId, reason: command.reason } }];
      case 'RegisterPasskey':
        requireUser(state, userId);
        if (state.passkeys[command.passkey.credentialId] !== undefined) throw new ConflictError('This passkey is registered already');
        return [{ type: 'PasskeyRegistered', data: { userId, ...command.passkey } }];
      case 'SignInWithPasskey': {
        requireUser(state, userId);
        const stored = state.passkeys[command.credentialId];
        // Counters only grow; authenticators that keep none report 0 every time.
        if (stored === undefined || ((stored > 0 || command.counter > 0) && command.counter <= stored)) throw new PasskeyNotValidError();
        return [
          { type: 'PasskeyUsed', data: { userId, credentialId: command.credentialId, counter: command.counter } },
          { type: 'SessionStarted', data: { userId, ...command.session } },
        ];
      }
      case 'RemovePasskey':
        if (state.passkeys[command.credentialId] === undefined) throw new NotFoundError('No such passkey');
        return [{ type: 'PasskeyRemoved', data: { userId, credentialId: command.credentialId } }];
      case 'RenamePasskey': {
        if (state.passkeys[command.credentialId] === undefined) throw new NotFoundError('No such passkey');
        const name = command.name.trim();
        if (!PASSKEY_NAME.test(name)) throw new ValidationError('Name the passkey (1 to 60 characters)', [{ path: 'name', message: 'must be 1 to 60 characters' }]);
        return [{ type: 'PasskeyRenamed', data: { userId, credentialId: command.credentialId, name } }];
      }
      case 'EndAllSessions':
        return Object.keys(state.sessions).map((sessionId) => ({ type: 'SessionEnded', data: { userId, sessionId, reason: command.reason } }));
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, email: event.data.email };
      case 'SignInLinkIssued':
        return { ...state, links: { ...state.links, [event.data.linkId]: { expiresAt: event.data.expiresAt } } };
      case 'SignInLinkUsed': {
        // A used link is forgotten: using it again finds nothing, as with a link never issued.
        const links = { ...state.links };
        delete links[event.data.linkId];
        return { ...state, links };
      }
      case 'SessionStarted':
        return { ...state, sessions: { ...state.sessions, [event.data.id]: { expiresAt: event.data.expiresAt, idleExpiresAt: event.data.idleExpiresAt } } };
      case 'SessionRefreshed': {
        const session = state.sessions[event.data.sessionId];
        return session ? { ...state, sessions: { ...state.sessions, [event.data.sessionId]: { ...session, idleExpiresAt: event.data.idleExpiresAt } } } : state;
      }
      case 'SessionEnded': {
        const sessions = { ...state.sessions };
        delete sessions[event.data.sessionId];
        return { ...state, sessions };
      }
      case 'PasskeyRegistered':
      case 'PasskeyUsed':
        return { ...state, passkeys: { ...state.passkeys, [event.data.credentialId]: event.data.counter } };
      case 'PasskeyRemoved': {
        const passkeys = { ...state.passkeys };
        delete passkeys[event.data.credentialId];
        return { ...state, passkeys };
      }
      default:
        return state;
    }
  },
};

export const userStream = (userId: string) => `user-${userId}`;

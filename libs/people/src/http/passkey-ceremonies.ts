import { Inject, Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ValidationError } from '../../../core/src/errors';
import { Actor } from '../../../event-store/src/command-runner';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PasskeyNotValidError } from '../domain/user.decider';
import { PeopleQuery } from '../read/people.queries';
import { PeopleActions, StartedSession } from '../write/people-actions';
import { RunUserCommand } from '../write/user.handler';
import { SignedIn } from './console-sessions';

const CHALLENGE_MS = 5 * 60_000;

/** Loaded at the first ceremony: the library takes most of a second to load, which every start would pay. */
let webauthnLibrary: Promise<typeof import('@simplewebauthn/server')> | null = null;
const webauthn = () => (webauthnLibrary ??= import('@simplewebauthn/server'));

interface Challenge {
  purpose: 'register' | 'authenticate';
  userId: string | null;
  expires: number;
}

/**
 * WebAuthn ceremonies (@simplewebauthn/server): discoverable credentials, the relying party being
 * VIGIL_PUBLIC_URL's host. Challenges are single use and kept 5 minutes in this process.
 */
@Injectable()
export class PasskeyCeremonies {
  private readonly challenges = new Map<string, Challenge>();

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly actions: PeopleActions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  private get origin(): string {
    return new URL(this.config.publicUrl).origin;
  }

  private get rpID(): string {
    return new URL(this.config.publicUrl).hostname;
  }

  async registrationOptions(me: SignedIn) {
    const existing = await this.queries.execute(new PeopleQuery({ type: 'PasskeysOfUser', userId: me.user.id }));
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: 'Vigil',
      rpID: this.rpID,
      userName: me.user.email,
      userID: new TextEncoder().encode(me.user.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    this.keep(options.challenge, 'register', me.user.id);
    return options;
  }

  async register(me: SignedIn, name: string, response: unknown, actor: Actor): Promise<void> {
    let verified;
    try {
      verified = await (await webauthn()).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: (challenge) => this.take(challenge, 'register', me.user.id),
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
      });
    } catch {
      throw new ValidationError('This passkey could not be registered');
    }
    if (!verified.verified) throw new ValidationError('This passkey could not be registered');
    const { credential } = verified.registrationInfo;
    const passkey = { credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter, transports: credential.transports ?? [], name };
    await this.commands.execute(new RunUserCommand({ type: 'RegisterPasskey', userId: me.user.id, passkey }, actor));
  }

  async authenticationOptions() {
    const options = await (await webauthn()).generateAuthenticationOptions({ rpID: this.rpID, userVerification: 'preferred' });
    this.keep(options.challenge, 'authenticate', null);
    return options;
  }

  /** A passkey alone signs in: the credential names its person. PasskeyNotValidError for anything wrong. */
  async authenticate(response: unknown, userAgent: string | null, actor: Actor): Promise<StartedSession> {
    const id = (response as { id?: unknown } | null)?.id;
    const passkey = typeof id === 'string' && id.length <= 1024 ? await this.queries.execute(new PeopleQuery({ type: 'PasskeyById', credentialId: id })) : null;
    if (!passkey) throw new PasskeyNotValidError();
    let verified;
    try {
      verified = await (await webauthn()).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: (challenge) => this.take(challenge, 'authenticate', null),
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports as never },
      });
    } catch {
      throw new PasskeyNotValidError();
    }
    if (!verified.verified) throw new PasskeyNotValidError();
    return this.actions.signInWithPasskey(passkey.userId, passkey.id, verified.authenticationInfo.newCounter, userAgent, actor);
  }

  private keep(challenge: string, purpose: Challenge['purpose'], userId: string | null): void {
    const now = this.clock.now().getTime();
    if (this.challenges.size > 10_000) for (const [key, c] of this.challenges) if (c.expires <= now) this.challenges.delete(key);
    this.challenges.set(challenge, { purpose, userId, expires: now + CHALLENGE_MS });
  }

  /** Single use: a challenge is gone once looked at, whatever the answer. */
  private take(challenge: string, purpose: Challenge['purpose'], userId: string | null): boolean {
    const kept = this.challenges.get(challenge);
    this.challenges.delete(challenge);
    return kept !== undefined && kept.purpose === purpose && kept.userId === userId && kept.expires > this.clock.now().getTime();
  }
}

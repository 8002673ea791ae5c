import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import * as oidc from 'openid-client';
import { CLOCK, Clock } from '../../../core/src/clock';
import { OidcConfig, VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { isEmailAddress } from '../domain/secrets';

/** The provider has this long to send the person back: a sign-in started earlier is refused. */
const FLOW_MS = 10 * 60_000;
export const CALLBACK_PATH = '/console/oidc/callback';

/** What one browser's sign-in needs at the callback: kept in an encrypted, HttpOnly cookie, never on the server. */
interface FlowChecks {
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

/** Why a callback signs no one in: the controller turns each into a clear page. */
export type OidcOutcome =
  | { ok: true; email: string }
  | { ok: false; reason: 'not-started' | 'state' | 'refused-by-provider' | 'rejected' | 'unverified' | 'unreachable'; detail?: string };

/**
 * The OpenID Connect authorization code flow with PKCE, state and nonce (openid-client). The cookie is sealed
 * (AES-256-GCM) with a key derived from the client secret: every instance of Vigil opens it, nobody reads or forges it.
 */
@Injectable()
export class OidcFlow {
  private readonly settings: OidcConfig | null;
  private readonly key: Buffer;
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.settings = config.oidc;
    this.key = createHash('sha256').update(`vigil-oidc-flow:${config.oidc?.clientSecret ?? ''}`, 'utf8').digest();
  }

  get enabled(): boolean {
    return this.settings !== null;
  }

  get cookieName(): string {
    return this.config.publicUrl.startsWith('https:') ? '__Host-vigil_oidc' : 'vigil_oidc';
  }

  /** The provider's authorization URL and the cookie that binds its answer to this browser. */
  async start(): Promise<{ url: string; cookie: string }> {
    const client = await this.client();
    const checks: FlowChecks = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), expiresAt: this.clock.now().getTime() + FLOW_MS };
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: this.config.publicUrl + CALLBACK_PATH,
      scope: 'openid email',
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, cookie: this.cookie(this.seal(checks), FLOW_MS / 1000) };
  }

  /** The cookie that ends the flow: a callback is used once. */
  get clearCookie(): string {
    return this.cookie('', 0);
  }

  /** Checks the callback (state, then code exchange with PKCE and nonce) and returns the verified address. */
  async finish(search: string, cookieHeader: string | undefined): Promise<OidcOutcome> {
    const query = new URLSearchParams(search);
    const checks = this.unseal(this.cookieValue(cookieHeader));
    if (!checks) return { ok: false, reason: 'not-started' };
    if (query.get('state') !== checks.state) return { ok: false, reason: 'state' };
    if (query.has('error')) return { ok: false, reason: 'refused-by-provider', detail: String(query.get('error')).slice(0, 100) };
    let claims: Record<string, unknown>;
    try {
      const client = await this.client();
      const tokens = await oidc.authorizationCodeGrant(client, new URL(this.config.publicUrl + CALLBACK_PATH + '?' + query.toString()), {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      claims = { ...idToken };
      // Most providers put the address in the userinfo answer rather than the ID token.
      if (typeof claims.email !== 'string' || claims.email_verified === undefined) claims = { ...(await oidc.fetchUserInfo(client, tokens.access_token, idToken.sub)), ...claims };
    } catch (error) {
      if (error instanceof TypeError) return { ok: false, reason: 'unreachable', detail: error.message };
      return { ok: false, reason: 'rejected', detail: error instanceof Error ? error.message : String(error) };
    }
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    if (claims.email_verified !== true || !isEmailAddress(email)) return { ok: false, reason: 'unverified' };
    return { ok: true, email };
  }

  private client(): Promise<oidc.Configuration> {
    const settings = this.settings;
    if (!settings) throw new Error('Single sign-on is not configured');
    // Discovered once; a failed discovery is tried again on the next sign-in.
    this.discovered ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
        execute: settings.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.discovered = null;
        throw error;
      });
    return this.discovered;
  }

  private cookie(value: string, maxAgeSeconds: number): string {
    const secure = this.config.publicUrl.startsWith('https:') ? '; Secure' : '';
    return `${this.cookieName}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
  }

  private cookieValue(header: string | undefined): string | null {
    for (const part of (header ?? '').split(';')) {
      const at = part.indexOf('=');
      if (at > 0 && part.slice(0, at).trim() === this.cookieName) return part.slice(at + 1).trim();
    }
    return null;
  }

  private seal(checks: FlowChecks): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(checks), 'utf8'), cipher.final()]);
    return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  private unseal(value: string | null): FlowChecks | null {
    const parts = (value ?? '').split('.');
    if (parts.length !== 3) return null;
    const [iv, body, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== 12 || tag.length !== 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      const checks = JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as FlowChecks;
      return typeof checks.expiresAt === 'number' && checks.expiresAt > this.clock.now().getTime() ? checks : null;
    } catch {
      // Tampered, sealed by another key, or not ours at all.
      return null;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { sharedSecret } from '../../../read-store/src/shared-secret';

export type TokenPurpose = 'confirm' | 'unsubscribe';

export interface TokenClaims {
  purpose: TokenPurpose;
  subscriptionId: string;
  statusPageId: string;
  /** ms since epoch; 0 never expires (unsubscribe links must keep working). */
  expiresAt: number;
}

export const CONFIRM_VALID_MS = 48 * 3_600_000;
const PURPOSE_CODES: Record<TokenPurpose, string> = { confirm: 'c', unsubscribe: 'u' };

/**
 * Signed links for subscribers: the subscription and page ids, the purpose and an expiry under an
 * HMAC whose key is made once and kept in the read store, so every instance accepts every link.
 */
@Injectable()
export class SubscriberTokens {
  private secret: Promise<Buffer> | null = null;

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async sign(claims: TokenClaims): Promise<string> {
    const payload = Buffer.from(JSON.stringify([PURPOSE_CODES[claims.purpose], claims.subscriptionId, claims.statusPageId, claims.expiresAt])).toString('base64url');
    return `${payload}.${await this.mac(payload)}`;
  }

  /** The claims of a genuine, unexpired token of this purpose, else null. */
  async verify(token: string, purpose: TokenPurpose, now: number): Promise<TokenClaims | null> {
    if (typeof token !== 'string' || token.length > 600) return null;
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) return null;
    const expected = Buffer.from(await this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const [p, subscriptionId, statusPageId, expiresAt] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, string, string, number];
      if (p !== PURPOSE_CODES[purpose] || typeof subscriptionId !== 'string' || typeof statusPageId !== 'string' || typeof expiresAt !== 'number') return null;
      if (expiresAt !== 0 && expiresAt < now) return null;
      return { purpose, subscriptionId, statusPageId, expiresAt };
    } catch {
      return null;
    }
  }

  /** The Standard Webhooks secret of a WEBHOOK subscription: sent to it in the confirmation POST, signing every POST after. */
  async webhookSecret(subscriptionId: string): Promise<string> {
    return `whsec_${createHmac('sha256', await this.key()).update(`webhook-subscriber:${subscriptionId}`).digest('base64')}`;
  }

  private async mac(payload: string): Promise<string> {
    return createHmac('sha256', await this.key()).update(payload).digest('base64url');
  }

  private key(): Promise<Buffer> {
    return (this.secret ??= sharedSecret(this.store, 'subscriber-token-secret'));
  }
}

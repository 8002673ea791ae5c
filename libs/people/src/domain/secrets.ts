import { createHash, randomBytes } from 'node:crypto';

/** A secret for a link or a session cookie: 256 random bits, shown once, stored only as its hash. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a secret, hex: what the event log and read models keep. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A secret's shape (43 base64url characters); anything else is refused before any lookup. */
export function isSecretShape(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Addresses are compared lower-case and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@<>()",;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmailAddress(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length <= 254 && EMAIL.test(value.trim());
}

/**
 * A user's id follows from the address (a UUID-shaped SHA-256 of it), so two writers creating the same
 * person meet on one stream and no second user can be made for an address.
 */
export function userIdOf(email: string): string {
  const h = createHash('sha256').update(`vigil-user:${normalizeEmail(email)}`, 'utf8').digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

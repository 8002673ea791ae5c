import { createHash, randomBytes } from 'node:crypto';

/** A new key: `vgl_` and 256 random bits, shown once. */
export function generateApiKey(): string {
  return `vgl_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, 8);
}

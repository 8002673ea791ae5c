import { createHash, randomBytes } from 'node:crypto';
import { Role } from '../../../http/src/account-context';
import { ApiKeyCommand } from './api-key.decider';

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

/** The command creating a key, and the key's value to show once (`secret`: the bootstrap key's given value). */
export function newApiKey(
  id: string,
  accountIds: string[],
  role: Role,
  name: string | null,
  secret: string = generateApiKey(),
): { command: Extract<ApiKeyCommand, { type: 'CreateApiKey' }>; apiKey: string } {
  return { command: { type: 'CreateApiKey', key: { id, accountIds, role, name, hash: hashApiKey(secret), prefix: keyPrefix(secret) } }, apiKey: secret };
}

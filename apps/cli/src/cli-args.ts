import { isUuid } from '../../../libs/core/src/ids';

/** A misuse of the CLI: its message and the usage text on stderr, exit code 2. */
export class UsageError extends Error {}

/** Who the CLI's writes are recorded as. */
export const CLI_ACTOR = { accountId: null, keyName: 'cli' };

export function requireText(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  if (value.trim().length > 255) throw new UsageError(`${flag} must be at most 255 characters`);
  return value.trim();
}

export function requireUuid(value: string | undefined, flag: string): string {
  if (!isUuid(value)) throw new UsageError(`${flag} must be a UUID`);
  return value.toLowerCase();
}

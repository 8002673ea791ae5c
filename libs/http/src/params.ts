import { NotFoundError } from '../../core/src/errors';
import { isUuid } from '../../core/src/ids';
import { Actor } from '../../event-store/src/command-runner';
import { AccountContext } from './account-context';

/** A malformed id in a path names nothing: 404, never 400 or 500. */
export function requireId(value: string, what = 'Resource'): string {
  if (!isUuid(value)) throw new NotFoundError(`${what} not found`);
  return value.toLowerCase();
}

export function actorOf(account: AccountContext): Actor {
  return { accountId: account.accountId, keyId: account.keyId, keyName: account.keyName, requestId: account.requestId };
}

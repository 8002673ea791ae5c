import { INestApplicationContext } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ROLES, Role } from '../../../libs/http/src/account-context';
import { isEmailAddress, normalizeEmail, PeopleActions, PeopleQuery } from '../../../libs/people/src/people.api';
import { CLI_ACTOR, requireUuid, UsageError } from './cli-args';

interface UsersFlags {
  email?: string;
  account?: string[];
  role?: string;
}

/** `users create|list|login-link`: people without email (a fresh install's first ADMIN). */
export async function runUsersCommand(action: string, flags: UsersFlags, app: INestApplicationContext): Promise<{ json: unknown; text: string }> {
  const email = () => {
    if (!isEmailAddress(flags.email)) throw new UsageError('--email must be an email address');
    return normalizeEmail(flags.email as string);
  };
  const account = () => requireUuid(flags.account?.[0], '--account');
  switch (action) {
    case 'create': {
      const role = flags.role as Role;
      const address = email();
      const accountId = account();
      if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const member = await app.get(PeopleActions).addMember(address, accountId, role, CLI_ACTOR);
      return { json: member, text: `User ${member.email} (${member.userId}) is ${member.role} of account ${member.accountId}` };
    }
    case 'list': {
      const members = await app.get(QueryBus).execute(new PeopleQuery({ type: 'MembersOfAccount', accountId: account() }));
      const rows = members.map((m) => ({ userId: m.userId, email: m.email, role: m.role, since: m.since }));
      return { json: rows, text: rows.length > 0 ? rows.map((m) => `${m.userId}  ${m.role.padEnd(10)}  ${m.email}`).join('\n') : 'No members.' };
    }
    case 'login-link': {
      const link = await app.get(PeopleActions).signInLink(email(), CLI_ACTOR);
      return { json: { url: link.url }, text: `Sign-in link, valid once until ${link.expiresAt}:\n\n  ${link.url}` };
    }
    default:
      throw new UsageError(`Unknown command "users ${action}"`);
  }
}

import { INestApplicationContext } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { isUuid } from '../../../libs/core/src/ids';
import { ROLES, Role } from '../../../libs/http/src/account-context';
import { isEmailAddress, normalizeEmail, PeopleActions, PeopleQuery } from '../../../libs/people/src/people.api';

const ACTOR = { accountId: null, keyName: 'cli' };

interface UsersFlags {
  email?: string;
  account?: string[];
  role?: string;
}

/** `users create|list|login-link`: people without email (a fresh install's first ADMIN). */
export async function runUsersCommand(action: string, flags: UsersFlags, app: INestApplicationContext, usage: (message: string) => never): Promise<{ json: unknown; text: string }> {
  const email = () => {
    if (!isEmailAddress(flags.email)) usage('--email must be an email address');
    return normalizeEmail(flags.email as string);
  };
  const account = () => {
    const [id] = flags.account ?? [];
    if (!isUuid(id)) usage('--account must be a UUID');
    return (id as string).toLowerCase();
  };
  switch (action) {
    case 'create': {
      const role = flags.role as Role;
      const address = email();
      const accountId = account();
      if (!ROLES.includes(role)) usage(`--role must be one of ${ROLES.join(', ')}`);
      const member = await app.get(PeopleActions).addMember(address, accountId, role, ACTOR);
      return { json: member, text: `User ${member.email} (${member.userId}) is ${member.role} of account ${member.accountId}` };
    }
    case 'list': {
      const members = await app.get(QueryBus).execute(new PeopleQuery({ type: 'MembersOfAccount', accountId: account() }));
      const rows = members.map((m) => ({ userId: m.userId, email: m.email, role: m.role, since: m.since }));
      return { json: rows, text: rows.length > 0 ? rows.map((m) => `${m.userId}  ${m.role.padEnd(10)}  ${m.email}`).join('\n') : 'No members.' };
    }
    case 'login-link': {
      const link = await app.get(PeopleActions).signInLink(email(), ACTOR);
      return { json: { url: link.url }, text: `Sign-in link, valid once until ${link.expiresAt}:\n\n  ${link.url}` };
    }
    default:
      return usage(`Unknown command "users ${action}"`);
  }
}

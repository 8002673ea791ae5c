import { INestApplicationContext } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ID_GENERATOR, IdGenerator } from '../../../libs/core/src/ids';
import { NotFoundError, ValidationError } from '../../../libs/core/src/errors';
import { AccountsQuery } from '../../../libs/accounts/src/accounts.api';
import { MonitorsQuery, newRunnerKey, parseRunnerKeyBody, RunRunnerKeyCommand } from '../../../libs/monitors/src/monitors.api';
import { CLI_ACTOR, requireUuid, UsageError } from './cli-args';

interface RunnerKeyFlags {
  account?: string[];
  location?: string;
  name?: string;
  'allow-private'?: boolean;
}

/** `runner-keys create|list|revoke`: keys for runner processes of a location (docs/operations.md, "Runners"). */
export async function runRunnerKeysCommand(action: string, args: string[], flags: RunnerKeyFlags, app: INestApplicationContext): Promise<{ json: unknown; text: string }> {
  const accountId = requireUuid(flags.account?.[0], '--account');
  if (!(await app.get(QueryBus).execute(new AccountsQuery({ type: 'GetAccount', id: accountId })))) throw new NotFoundError(`Account ${accountId} does not exist`);
  switch (action) {
    case 'create': {
      let fields;
      try {
        fields = parseRunnerKeyBody({ location: flags.location, name: flags.name ?? null, allowPrivateTargets: flags['allow-private'] === true });
      } catch (error) {
        if (error instanceof ValidationError) throw new UsageError((error.details ?? []).map((d) => `--${d.path === 'allowPrivateTargets' ? 'allow-private' : d.path} ${d.message}`).join('; '));
        throw error;
      }
      const { command, runnerKey } = newRunnerKey({ id: app.get<IdGenerator>(ID_GENERATOR).next(), accountId, ...fields });
      await app.get(CommandBus).execute(new RunRunnerKeyCommand(command, CLI_ACTOR));
      const { id, location, allowPrivateTargets } = command.key;
      const kind = allowPrivateTargets ? 'a private location: private targets allowed' : 'public targets only';
      return { json: { id, runnerKey, accountId, location, allowPrivateTargets }, text: `Runner key ${id} for location ${location} (${kind}):\n\n  ${runnerKey}\n\nStore it now: it is shown only once.` };
    }
    case 'list': {
      const keys = await app.get(QueryBus).execute(new MonitorsQuery({ type: 'ListRunnerKeys', accountId }));
      const lines = keys.map((k) => `${k.id}  ${k.location.padEnd(16)}  ${k.prefix}…  ${k.revoked ? 'revoked' : 'active '}  ${k.allowPrivateTargets ? 'private' : 'public '}  ${k.created_at}  ${k.name ?? ''}`);
      return { json: keys, text: lines.length > 0 ? lines.join('\n') : 'No runner keys.' };
    }
    case 'revoke': {
      const id = requireUuid(args[0], 'KEY_ID');
      await app.get(CommandBus).execute(new RunRunnerKeyCommand({ type: 'RevokeRunnerKey', id, accountId }, CLI_ACTOR));
      return { json: { id, revoked: true }, text: `Runner key ${id} revoked` };
    }
    default:
      throw new UsageError(`Unknown command "runner-keys ${action}"`);
  }
}

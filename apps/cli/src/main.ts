import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import pino from 'pino';
import { parseArgs } from 'node:util';
import { ID_GENERATOR, IdGenerator } from '../../../libs/core/src/ids';
import { CLOCK, Clock } from '../../../libs/core/src/clock';
import { NotFoundError, VigilError } from '../../../libs/core/src/errors';
import { ROLES, Role } from '../../../libs/http/src/account-context';
import { AccountsQuery, newApiKey, RunAccountCommand, RunApiKeyCommand } from '../../../libs/accounts/src/accounts.api';
import { IncidentsQuery } from '../../../libs/incidents/src/incidents.api';
import { ConfigError, loadConfig } from '../../../libs/platform/src/config';
import { createLogger, NestPinoLogger } from '../../../libs/platform/src/logger';
import { PROJECTION_ENGINE } from '../../../libs/platform/src/tokens';
import { ProjectionEngine } from '../../../libs/read-store/src/projection-engine';
import { Outbox, presentDelivery, retryDelivery } from '../../../libs/alerting/src/alerting.api';
import { HeadlessModule } from '../../api/src/contexts';
import { CLI_ACTOR, requireText, requireUuid, UsageError } from './cli-args';
import { MissingStoreError, requireStore, storeLine } from './store-notice';
import { runUsersCommand } from './users.commands';
import { runRunnerKeysCommand } from './runner-keys.commands';

const USAGE = `Usage: npm run --silent cli -- <command>

  accounts create --name NAME [--id UUID] [--json]
  accounts list [--json]
  keys create --account ID [--account ID…] --role READ_ONLY|READ_WRITE|ADMIN [--name NAME] [--json]
  keys list --account ID [--json]
  keys revoke KEY_ID
  runner-keys create --account ID --location NAME [--name NAME] [--allow-private] [--json]
  runner-keys list --account ID [--json]
  runner-keys revoke KEY_ID --account ID
  projections status [--json]
  projections rebuild [NAME]
  incidents history INCIDENT_ID [--json]
  notifications list --failed [--account ID] [--json]
  notifications retry NOTIFICATION_ID
  users create --email EMAIL --account ID --role READ_ONLY|READ_WRITE|ADMIN [--json]
  users list --account ID [--json]
  users login-link --email EMAIL [--json]   (a one-time console sign-in URL, valid 15 minutes)

Uses the same configuration as the server (VIGIL_DATA_DIR, or EVENTSTORE_URL and MONGODB_URL) and is
safe to run while the server runs. Says on stderr which store it opened; only \`accounts create\` creates
an embedded database that does not exist yet.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      id: { type: 'string' },
      account: { type: 'string', multiple: true },
      role: { type: 'string' },
      email: { type: 'string' },
      location: { type: 'string' },
      'allow-private': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      failed: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action, ...rest] = positionals;
  if (values.help || !group) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  /** The answer on stdout (JSON with --json), and the exit code of a command that succeeded. */
  const out = (json: unknown, text: string): number => {
    process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
    return 0;
  };

  const config = loadConfig();
  const command = `${group} ${action ?? ''}`.trim();
  requireStore(config, command);
  process.stderr.write(`${storeLine(config)}\n`);
  // The CLI's own stdout is for answers; logs go to stderr and only when something is wrong.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, pino.destination(2));
  const app = await NestFactory.createApplicationContext(HeadlessModule.forRoot({ config, logger }, false), { logger: new NestPinoLogger(logger) });
  try {
    const commands = app.get(CommandBus);
    const queries = app.get(QueryBus);
    const engine = app.get<ProjectionEngine>(PROJECTION_ENGINE);
    const ids = app.get<IdGenerator>(ID_GENERATOR);
    if (group === 'users' || group === 'runner-keys') {
      const answer = group === 'users' ? await runUsersCommand(action ?? '', values, app) : await runRunnerKeysCommand(action ?? '', rest, values, app);
      return out(answer.json, answer.text);
    }
    switch (command) {
      case 'accounts create': {
        const name = requireText(values.name, '--name');
        const id = values.id === undefined ? ids.next() : requireUuid(values.id, '--id');
        await commands.execute(new RunAccountCommand({ type: 'CreateAccount', id, name }, CLI_ACTOR));
        return out({ id, name }, `Account ${id} created: ${name}`);
      }
      case 'accounts list': {
        const accounts = (await queries.execute(new AccountsQuery({ type: 'ListAccounts' }))).map(({ id, name, created_at }) => ({ id, name, created_at }));
        return out(accounts, accounts.length > 0 ? accounts.map((a) => `${a.id}  ${a.created_at}  ${a.name}`).join('\n') : 'No accounts.');
      }
      case 'keys create': {
        const accounts = (values.account ?? []).map((a) => requireUuid(a, '--account'));
        if (accounts.length === 0) throw new UsageError('--account is required');
        const role = values.role as Role;
        if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
        const name = values.name === undefined ? null : requireText(values.name, '--name');
        const { command, apiKey } = newApiKey(ids.next(), accounts, role, name);
        await commands.execute(new RunApiKeyCommand(command, CLI_ACTOR));
        const { id } = command.key;
        return out({ id, apiKey, accountId: accounts[0], role }, `API key ${id} (${role}) for ${accounts.join(', ')}:\n\n  ${apiKey}\n\nStore it now: it is shown only once.`);
      }
      case 'keys list': {
        const keys = await queries.execute(new AccountsQuery({ type: 'ListApiKeys', accountId: requireUuid(values.account?.[0], '--account') }));
        const lines = keys.map((k) => `${k.id}  ${k.role.padEnd(10)}  ${k.prefix}…  ${k.revoked ? 'revoked' : 'active '}  ${k.created_at}  ${k.name ?? ''}`);
        return out(keys, lines.length > 0 ? lines.join('\n') : 'No keys.');
      }
      case 'keys revoke': {
        const id = requireUuid(rest[0], 'KEY_ID');
        await commands.execute(new RunApiKeyCommand({ type: 'RevokeApiKey', id }, CLI_ACTOR));
        return out({ id, revoked: true }, `API key ${id} revoked`);
      }
      case 'projections status': {
        const status = await engine.status();
        return out(
          status,
          status.map((s) => `${s.name.padEnd(24)} v${s.version} g${s.generation}  checkpoint ${s.checkpoint ?? '-'} / head ${s.head ?? '-'}  lag ${s.lag}${s.building ? `  building ${s.building.collection}` : ''}`).join('\n'),
        );
      }
      case 'projections rebuild': {
        const names = rest[0] ? [rest[0]] : engine.projectionNames();
        for (const name of names) if (!engine.projectionNames().includes(name)) throw new UsageError(`Unknown projection ${name}; known: ${engine.projectionNames().join(', ')}`);
        await engine.rebuild(names, (name, applied) => process.stderr.write(`${name}: ${applied} events applied\n`));
        return out({ rebuilt: names }, `Rebuilt ${names.join(', ')}`);
      }
      case 'incidents history': {
        const id = requireUuid(rest[0], 'INCIDENT_ID');
        // Any account's, deleted ones included: the operator's audit trail.
        const history = await queries.execute(new IncidentsQuery({ type: 'GetIncidentHistory', id, accountId: null, includeDeleted: true }));
        if (!history) throw new NotFoundError(`Incident ${id} not found`);
        const lines = history.entries.map(
          (e) => `#${e.revision}  ${e.occurredAt}  ${e.type.padEnd(22)}  by ${e.actor.keyName ?? '-'} (${e.actor.keyId ?? '-'})  ${JSON.stringify(e.data)}`,
        );
        return out({ incidentId: id, deleted: history.deleted, entries: history.entries }, lines.join('\n'));
      }
      case 'notifications list': {
        if (!values.failed) throw new UsageError('--failed is required (the list shows failed notifications)');
        const [account] = values.account ?? [];
        const docs = await app.get(Outbox).listByStatus('FAILED', account === undefined ? null : requireUuid(account, '--account'), 1000);
        const rows = docs.map(presentDelivery);
        const lines = rows.map((n) => `${n.id}  ${n.created_at}  ${n.alertType.padEnd(20)}  ${n.recipient}  attempts ${n.attempts}  ${n.lastError ?? ''}`);
        return out(rows, lines.length > 0 ? lines.join('\n') : 'No failed notifications.');
      }
      case 'notifications retry': {
        const id = requireUuid(rest[0], 'NOTIFICATION_ID');
        // Due at once: the next worker poll (API with the daemon on, or apps/worker) sends it.
        const doc = await retryDelivery(app.get(Outbox), null, id, app.get<Clock>(CLOCK).now());
        return out(presentDelivery(doc), `Notification ${id} is ${doc.status}${doc.status === 'PENDING' ? ': it will be sent again shortly' : ''}`);
      }
      default:
        throw new UsageError(`Unknown command "${positionals.join(' ')}"`);
    }
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    const misused = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (misused || error instanceof ConfigError || error instanceof MissingStoreError || error instanceof VigilError) {
      process.stderr.write(`${(error as Error).message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
      process.exit(misused ? 2 : 1);
    }
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);

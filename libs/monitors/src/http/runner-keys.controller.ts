import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ForbiddenError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { actorOf, requireId } from '../../../http/src/params';
import { LOCATION_NAME, newRunnerKey } from '../domain/runner-key-secret';
import { LOCAL_LOCATION } from '../read/locations';
import { MonitorsQuery } from '../read/monitors.queries';
import { RunRunnerKeyCommand } from '../write/runner-key.handler';
import { RUNNER_KEY_BODY_SCHEMA, RUNNER_KEY_CREATED_SCHEMA, RUNNER_KEYS_SCHEMA } from './runner.schemas';

export interface RunnerKeyBody {
  location: string;
  name: string | null;
  allowPrivateTargets: boolean;
}

/** Every field checked, unknown ones refused: the body of `POST /v1/runner-keys`, also what the CLI builds. */
export function parseRunnerKeyBody(body: unknown): RunnerKeyBody {
  const details: ViolationDetail[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ValidationError.of([{ path: '', message: 'must be a JSON object' }]);
  const b = body as Record<string, unknown>;
  for (const field of Object.keys(b)) if (!['location', 'name', 'allowPrivateTargets'].includes(field)) details.push({ path: field, message: 'is not a field of a runner key' });
  if (typeof b.location !== 'string' || !LOCATION_NAME.test(b.location)) details.push({ path: 'location', message: 'must be 1 to 63 lowercase letters, digits and dashes' });
  else if (b.location === LOCAL_LOCATION) details.push({ path: 'location', message: 'local is the embedded location; name a location of your own' });
  if (b.name !== undefined && b.name !== null && (typeof b.name !== 'string' || b.name.trim() === '' || b.name.length > 255)) details.push({ path: 'name', message: 'must be a text of 1 to 255 characters' });
  if (b.allowPrivateTargets !== undefined && typeof b.allowPrivateTargets !== 'boolean') details.push({ path: 'allowPrivateTargets', message: 'must be true or false' });
  if (details.length > 0) throw ValidationError.of(details);
  return { location: b.location as string, name: typeof b.name === 'string' ? b.name.trim() : null, allowPrivateTargets: b.allowPrivateTargets === true };
}

function requireAdmin(account: AccountContext): void {
  if (account.role !== 'ADMIN') throw new ForbiddenError('Runner keys need an ADMIN key');
}

/** Runner keys: created, listed and revoked by an ADMIN; a key is shown once, at creation. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('v1/runner-keys')
export class RunnerKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a runner key', description: 'ADMIN only. A key for runner processes of one location of this account; allowPrivateTargets makes it a private location whose runners may probe private addresses. The key is in the answer once and never again.' })
  @ApiBody({ schema: RUNNER_KEY_BODY_SCHEMA })
  @ApiCreatedResponse({ schema: RUNNER_KEY_CREATED_SCHEMA })
  async create(@Account() account: AccountContext, @Body() body: unknown) {
    requireAdmin(account);
    const fields = parseRunnerKeyBody(body);
    const { command, runnerKey } = newRunnerKey({ id: this.ids.next(), accountId: account.accountId, ...fields });
    await this.commands.execute(new RunRunnerKeyCommand(command, actorOf(account)));
    const { hash: _hash, accountId: _account, ...shown } = command.key;
    return { ...shown, runnerKey };
  }

  @Get()
  @ApiOperation({ summary: 'List runner keys', description: 'ADMIN only. The account’s runner keys with their location, first characters and whether revoked; never the keys.' })
  @ApiOkResponse({ schema: RUNNER_KEYS_SCHEMA })
  async list(@Account() account: AccountContext) {
    requireAdmin(account);
    return this.queries.execute(new MonitorsQuery({ type: 'ListRunnerKeys', accountId: account.accountId }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a runner key', description: 'ADMIN only. Runners using it are refused within a second; their runs go to the location’s other runners.' })
  @ApiNoContentResponse()
  async revoke(@Account() account: AccountContext, @Param('id') rawId: string): Promise<void> {
    requireAdmin(account);
    const id = requireId(rawId, 'Runner key');
    await this.commands.execute(new RunRunnerKeyCommand({ type: 'RevokeRunnerKey', id, accountId: account.accountId }, actorOf(account)));
  }
}

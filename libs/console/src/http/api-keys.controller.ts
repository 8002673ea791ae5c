import { Body, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsQuery, ApiKeySummary, newApiKey, RunApiKeyCommand } from '../../../accounts/src/accounts.api';
import { ID_GENERATOR, IdGenerator, isUuid } from '../../../core/src/ids';
import { Role } from '../../../http/src/account-context';
import { when } from '../read/console-reads';
import { ConsoleAccess, ConsoleController, fieldOf, Visit } from './console-access';
import { FieldErrors, shownErrors } from './form-check';
import { choices } from './incident-form';

const ROLES: readonly Role[] = ['READ_ONLY', 'READ_WRITE', 'ADMIN'];
const MAX_NAME = 100;
const ADMIN_ONLY = 'API keys are managed by the account\'s ADMIN members.';

/** API keys of the account: create (the key shown once, never stored) and revoke. ADMIN members only. */
@ConsoleController('api-keys')
export class ConsoleApiKeysController {
  constructor(
    private readonly access: ConsoleAccess,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.access.visit(request);
    if (!isAdmin(visit)) return this.access.message(reply, 403, visit, 'ADMIN only', ADMIN_ONLY);
    return this.page(reply, 200, visit, { name: '', role: 'READ_WRITE' }, {});
  }

  @Post()
  async create(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.admin(request, body);
    const values = { name: fieldOf(body, 'name').trim(), role: fieldOf(body, 'role') };
    const errors: FieldErrors = {};
    if (values.name === '') errors.name = 'Name the key after what will use it.';
    else if (values.name.length > MAX_NAME) errors.name = `At most ${MAX_NAME} characters (this has ${values.name.length}).`;
    if (!ROLES.includes(values.role as Role)) errors.role = `Choose a role: ${ROLES.join(', ')}.`;
    if (Object.keys(errors).length > 0) return this.page(reply, 400, visit, values, errors);
    const { command, apiKey } = newApiKey(this.ids.next(), [visit.accountId!], values.role as Role, values.name);
    await this.commands.execute(new RunApiKeyCommand(command, visit.actor));
    // Shown in this answer only (no redirect: the key never goes into a URL or a later page).
    return this.page(reply, 201, visit, { name: '', role: 'READ_WRITE' }, {}, { name: values.name, apiKey });
  }

  @Post(':id/revoke')
  async revoke(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const visit = await this.admin(request, body);
    const key = isUuid(id) ? (await this.keys(visit)).find((k) => k.id === id.toLowerCase()) : undefined;
    if (!key) return this.access.message(reply, 404, visit, 'No such key', 'This account has no API key at this address.');
    // A key granting other accounts too is not this account's alone to revoke.
    if (key.accountIds.length > 1) return this.access.message(reply, 403, visit, 'Request refused', 'This key also grants other accounts: revoke it with the CLI (vigil keys revoke).');
    await this.commands.execute(new RunApiKeyCommand({ type: 'RevokeApiKey', id: key.id }, visit.actor));
    return this.access.done(reply, visit, '/console/api-keys');
  }

  /** A form post of an ADMIN member; otherwise refused. */
  private async admin(request: FastifyRequest, body: unknown): Promise<Visit> {
    const visit = await this.access.act(request, body);
    if (!isAdmin(visit)) throw this.access.refusal(visit, ADMIN_ONLY);
    return visit;
  }

  private keys(visit: Visit): Promise<ApiKeySummary[]> {
    return this.queries.execute(new AccountsQuery({ type: 'ListApiKeys', accountId: visit.accountId! }));
  }

  private async page(reply: FastifyReply, code: number, visit: Visit, values: { name: string; role: string }, errors: FieldErrors, created?: { name: string; apiKey: string }) {
    const keys = (await this.keys(visit)).map((k) => ({
      ...k,
      created: when(k.created_at),
      revokedAt: when(k.revoked_at),
      shared: k.accountIds.length > 1,
      revocable: !k.revoked && k.accountIds.length === 1,
    }));
    const view = { keys, created, values, roles: choices(ROLES, values.role), errors: shownErrors(errors) };
    return this.access.render(reply, code, visit, 'keys', { title: 'API keys', nav: 'keys' }, view);
  }
}

const isAdmin = (visit: Visit) => visit.accountId !== null && visit.chrome.account?.role === 'ADMIN';

import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { NotFoundError, StoreUnavailableError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { actorOf } from '../../../http/src/params';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { AccountCommand } from '../domain/account.decider';
import { PingKeyDoc } from '../read/account-ping-keys.projection';
import { AccountsQuery } from '../read/accounts.queries';
import { newPingKey } from '../read/ping-keys';
import { RunAccountCommand } from '../write/account.handler';

class PingKeyDto {
  @ApiProperty({ example: 'q3JcX0bq1T8h2pW5zLrN4A', description: '22 URL-safe characters' }) pingKey!: string;
  @ApiProperty({ example: 'https://vigil.example/ping/q3JcX0bq1T8h2pW5zLrN4A', description: 'append /{slug} of a check' }) pingUrl!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** The account ping key of slug URLs. */
@ApiTags('accounts')
@ApiBearerAuth()
@Controller('v1/accounts/ping-key')
export class PingKeyController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The account ping key (issued on first read by a READ_WRITE or ADMIN key)' })
  @ApiOkResponse({ type: PingKeyDto })
  @ApiNotFoundResponse({ description: 'A READ_ONLY key asked before any key was issued', schema: { $ref: '#/components/schemas/Error' } })
  async show(@Account() account: AccountContext): Promise<PingKeyDto> {
    const stored = await this.current(account.accountId);
    if (stored) return this.view(stored);
    // Issuing is a write: a read-only key sees a key, never mints one.
    if (account.role === 'READ_ONLY') throw new NotFoundError('No ping key has been issued yet; a READ_WRITE or ADMIN key issues it');
    return this.write(account, { type: 'IssuePingKey', id: account.accountId, pingKey: newPingKey() });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the account ping key: slug URLs with the old key answer 404 from now on' })
  @ApiOkResponse({ type: PingKeyDto })
  async rotate(@Account() account: AccountContext): Promise<PingKeyDto> {
    return this.write(account, { type: 'RotatePingKey', id: account.accountId, pingKey: newPingKey() });
  }

  private async write(account: AccountContext, command: AccountCommand): Promise<PingKeyDto> {
    await this.commands.execute(new RunAccountCommand(command, actorOf(account)));
    const written = await this.current(account.accountId);
    // A read model that has not followed yet is a 503 to retry, not a crash.
    if (!written) throw new StoreUnavailableError('The ping key is being written; try again');
    return this.view(written);
  }

  private current(accountId: string): Promise<PingKeyDoc | null> {
    return this.queries.execute(new AccountsQuery({ type: 'GetPingKey', accountId }));
  }

  private view(doc: PingKeyDoc): PingKeyDto {
    return { pingKey: doc.pingKey, pingUrl: `${this.config.publicUrl}/ping/${doc.pingKey}`, updated_at: doc.updated_at };
  }
}

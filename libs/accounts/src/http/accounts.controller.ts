import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext, AccountFromPath } from '../../../http/src/account-context';
import { AccountsQuery } from '../read/accounts.queries';

/** The account document the `checkly` CLI asks for before every command. */
@ApiTags('accounts')
@ApiBearerAuth()
@Controller('next/accounts')
export class AccountsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':accountId')
  @AccountFromPath('accountId')
  @ApiOperation({ summary: 'The account the key acts on (compatibility with the checkly CLI)' })
  async get(@Param('accountId') _accountId: string, @Account() account: AccountContext) {
    const doc = await this.queries.execute(new AccountsQuery({ type: 'GetAccount', id: account.accountId }));
    if (!doc) throw new NotFoundError('Account not found');
    return {
      id: doc.id,
      name: doc.name,
      runtimeId: '2025.04',
      plan: 'SELF_HOSTED',
      planDisplayName: 'Vigil (self-hosted)',
      features: [],
    };
  }
}

import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotFoundError } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { HeartbeatsQuery } from '../read/heartbeats.queries';
import { CheckStatusDto } from './check.dto';
import { CheckIdParam } from './checks.controller';
import { OtherChecks } from '../read/other-checks';

/** Checkly's `GET /v1/check-statuses` (what `checkly checks list` reads), for every check of the account. */
@ApiTags('heartbeat checks')
@ApiBearerAuth()
@Controller('v1/check-statuses')
export class CheckStatusesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly others: OtherChecks,
  ) {}

  @Get()
  @ApiOperation({ summary: "Every check's status, in Checkly's shape", description: 'All checks of the account, oldest first, unpaged as Checkly answers it.' })
  @ApiOkResponse({ type: [CheckStatusDto] })
  async list(@Account() account: AccountContext) {
    const [heartbeats, others] = await Promise.all([this.queries.execute(new HeartbeatsQuery({ type: 'CheckStatuses', accountId: account.accountId })), this.others.statuses(account.accountId)]);
    return [...heartbeats, ...others];
  }

  @Get(':checkId')
  @ApiOperation({ summary: "One check's status, in Checkly's shape", description: 'The check as the checkly CLI shows it: failing (hasFailures), late (isDegraded), and when it last ran.' })
  @ApiOkResponse({ type: CheckStatusDto })
  async get(@Account() account: AccountContext, @CheckIdParam() id: string) {
    const status = (await this.queries.execute(new HeartbeatsQuery({ type: 'CheckStatus', accountId: account.accountId, checkId: id }))) ?? (await this.others.status(account.accountId, id));
    if (!status) throw new NotFoundError('Check not found');
    return status;
  }
}

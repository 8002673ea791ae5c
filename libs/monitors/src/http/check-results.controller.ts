import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CHECK_RESULTS_SCHEMA } from './monitor.schemas';
import { NotFoundError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseLimit } from '../../../http/src/pagination';
import { requireId } from '../../../http/src/params';
import { ResultsFilter } from '../read/monitor-results';
import { MonitorsQuery } from '../read/monitors.queries';

function seconds(raw: string | undefined, name: string, details: ViolationDetail[]): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,12}$/.test(raw)) {
    details.push({ path: name, message: 'must be a UNIX time in seconds' });
    return null;
  }
  return Number(raw) * 1000;
}

/** A monitor's runs in Checkly's shape, what `checkly checks get` lists. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('v2/check-results')
export class CheckResultsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':checkId')
  @ApiOperation({ summary: 'A monitor’s runs', description: 'Every run of the monitor in Checkly’s check-result shape, newest first: FINAL runs and the ATTEMPT runs retried after them. from and to are UNIX seconds. Paged with limit and nextId.' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiQuery({ name: 'nextId', required: false, type: String })
  @ApiQuery({ name: 'from', required: false, type: Number })
  @ApiQuery({ name: 'to', required: false, type: Number })
  @ApiQuery({ name: 'resultType', required: false, schema: { type: 'string', enum: ['FINAL', 'ATTEMPT', 'ALL'] } })
  @ApiQuery({ name: 'hasFailures', required: false, type: Boolean })
  @ApiOkResponse({ schema: CHECK_RESULTS_SCHEMA })
  async list(
    @Account() account: AccountContext,
    @Param('checkId') checkId: string,
    @Query('limit') limit?: string,
    @Query('nextId') nextId?: string,
    @Query('from') from?: string,
    @Query('to') to?: string,
    @Query('resultType') resultType?: string,
    @Query('hasFailures') hasFailures?: string,
  ) {
    const id = requireId(checkId, 'Check');
    const details: ViolationDetail[] = [];
    if (nextId !== undefined && !/^\d{1,19}$/.test(nextId)) details.push({ path: 'nextId', message: 'must be a nextId from a previous page' });
    if (resultType !== undefined && !['FINAL', 'ATTEMPT', 'ALL'].includes(resultType)) details.push({ path: 'resultType', message: 'must be FINAL, ATTEMPT or ALL' });
    if (hasFailures !== undefined && hasFailures !== 'true' && hasFailures !== 'false') details.push({ path: 'hasFailures', message: 'must be true or false' });
    const filter: ResultsFilter = {
      limit: parseLimit(limit),
      before: nextId !== undefined && /^\d{1,19}$/.test(nextId) ? BigInt(nextId) : null,
      resultType: (resultType as ResultsFilter['resultType'] | undefined) ?? 'ALL',
      hasFailures: hasFailures === undefined ? null : hasFailures === 'true',
      fromMs: seconds(from, 'from', details),
      toMs: seconds(to, 'to', details),
    };
    if (details.length > 0) throw ValidationError.of(details);
    const page = await this.queries.execute(new MonitorsQuery({ type: 'ListMonitorResults', accountId: account.accountId, id, filter }));
    if (!page) throw new NotFoundError('Check not found');
    return { length: page.entries.length, entries: page.entries, nextId: page.nextId };
  }
}

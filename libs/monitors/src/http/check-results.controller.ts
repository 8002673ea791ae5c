import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { HeartbeatsQuery } from '../../../heartbeats/src/heartbeats.api';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CHECK_RESULTS_SCHEMA } from './monitor.schemas';
import { NotFoundError, ValidationError, ViolationDetail } from '../../../core/src/errors';
import { Account, AccountContext } from '../../../http/src/account-context';
import { parseLimit } from '../../../http/src/pagination';
import { requireId } from '../../../http/src/params';
import { ResultsFilter } from '../read/monitor-results';
import { MonitorsQuery } from '../read/monitors.queries';
import { ApiLimitedPageQuery } from '../../../http/src/page-query';

function seconds(raw: string | undefined, name: string, details: ViolationDetail[]): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,12}$/.test(raw)) {
    details.push({ path: name, message: 'must be a UNIX time in seconds' });
    return null;
  }
  return Number(raw) * 1000;
}

const HEARTBEAT_WINDOW_MS = 30 * 86_400_000;

/** A monitor's runs in Checkly's shape, what `checkly checks get` lists. */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('v2/check-results')
export class CheckResultsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':checkId')
  @ApiOperation({ summary: 'A monitor’s runs', description: 'Every run of the monitor in Checkly’s check-result shape, newest first: FINAL runs and the ATTEMPT runs retried after them. from and to are UNIX seconds. Paged with limit and nextId.' })
  @ApiLimitedPageQuery()
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
    if (!page) return this.heartbeatResults(account.accountId, id, filter);
    return { length: page.entries.length, entries: page.entries, nextId: page.nextId };
  }

  /** A heartbeat check's pings and FAILINGs as check results: within from–to (default the last 30 days), newest first, one page. */
  private async heartbeatResults(accountId: string, id: string, filter: ResultsFilter) {
    const found = await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId, id }));
    if (!found) throw new NotFoundError('Check not found');
    const end = filter.toMs ?? this.clock.now().getTime();
    const start = filter.fromMs ?? end - HEARTBEAT_WINDOW_MS;
    const events = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckEvents', accountId, checkId: id, window: { start, end }, limit: filter.limit }));
    const entries = (events?.events ?? [])
      .map((e) => ({
        id: e.id,
        checkId: id,
        name: found.check.name,
        hasFailures: e.state === 'FAILING',
        hasErrors: false,
        isDegraded: false,
        overMaxResponseTime: false,
        runLocation: e.source ?? 'heartbeat',
        startedAt: e.timestamp,
        stoppedAt: e.duration === undefined ? e.timestamp : new Date(Date.parse(e.timestamp) + e.duration).toISOString(),
        created_at: e.timestamp,
        responseTime: e.duration ?? 0,
        checkRunId: Date.parse(e.timestamp),
        attempts: 1,
        resultType: 'FINAL' as const,
        error: e.state === 'FAILING' ? (e.exitCode === undefined ? 'no ping by the deadline' : `exit code ${e.exitCode}`) : null,
        timings: {},
      }))
      .filter((r) => filter.hasFailures === null || r.hasFailures === filter.hasFailures)
      .filter(() => filter.resultType !== 'ATTEMPT');
    return { length: entries.length, entries, nextId: null };
  }
}

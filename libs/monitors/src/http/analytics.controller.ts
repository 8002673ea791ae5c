import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ANALYTICS_SCHEMA, BATCH_ANALYTICS_SCHEMA } from './monitor.schemas';
import { CLOCK, Clock } from '../../../core/src/clock';
import { NotFoundError, ValidationError } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { requireId } from '../../../http/src/params';
import { HeartbeatsQuery } from '../../../heartbeats/src/heartbeats.api';
import { CheckType } from '../domain/monitor-config';
import { namedMetrics, QUICK_RANGES, rangeOf } from '../read/monitor-analytics';
import { MonitorsQuery } from '../read/monitors.queries';

/** Checkly's analytics path segment per check type (what the `checkly` CLI asks for). */
const TYPE_OF_PATH: Record<string, CheckType | 'HEARTBEAT'> = { 'url-monitors': 'URL', 'api-checks': 'API', 'tcp-checks': 'TCP', dns: 'DNS', ssl: 'SSL', 'heartbeat-checks': 'HEARTBEAT' };
const UNITS: Record<string, string> = { availability: 'percentage' };
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Checkly's analytics for monitors and heartbeat checks, what `checkly checks get` and `checkly checks stats` show:
 * availability and response-time percentiles over a quick range, from hourly or daily rollups.
 */
@ApiTags('monitors')
@ApiBearerAuth()
@Controller('v1/analytics')
export class AnalyticsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('checks')
  @HttpCode(200)
  @ApiOperation({ summary: 'Availability and response times of several checks', description: 'Body {checkIds} (at most 100); quickRange as Checkly’s. One entry per check found: availability (percent), responseTime_avg and responseTime_p95 (ms; monitors only).' })
  @ApiQuery({ name: 'quickRange', required: false, schema: { type: 'string', enum: [...QUICK_RANGES] } })
  @ApiOkResponse({ schema: BATCH_ANALYTICS_SCHEMA })
  async batch(@Account() account: AccountContext, @Body() body: unknown, @Query('quickRange') quickRange?: string) {
    const ids = (body as { checkIds?: unknown } | null)?.checkIds;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100) throw ValidationError.of([{ path: 'checkIds', message: 'must be an array of 1 to 100 check ids' }]);
    const bad = ids.map((id, i) => (typeof id === 'string' && isUuid(id) ? null : { path: `checkIds[${i}]`, message: 'must be a check id' })).filter((d) => d !== null);
    if (bad.length > 0) throw ValidationError.of(bad);
    const range = rangeOf(quickRange, this.clock.now().getTime());
    const wanted = (ids as string[]).map((id) => id.toLowerCase());
    const monitors = await this.monitorMetrics(account.accountId, wanted, range);
    const out = [];
    for (const id of wanted) {
      const monitor = monitors.get(id);
      if (monitor) {
        out.push({ checkId: id, ...namedMetrics(monitor.monitor.checkType, monitor.metrics, ['availability', 'responseTime_avg', 'responseTime_p95']) });
        continue;
      }
      const availability = await this.heartbeatAvailability(account.accountId, id, range);
      if (availability !== undefined) out.push({ checkId: id, availability });
    }
    return out;
  }

  @Get(':type/:checkId')
  @ApiOperation({ summary: 'Availability and response times of one check', description: 'type is Checkly’s path segment (url-monitors, api-checks, tcp-checks, dns, ssl, heartbeat-checks); metrics a comma-separated list of Checkly’s names; quickRange as Checkly’s.' })
  @ApiQuery({ name: 'quickRange', required: false, schema: { type: 'string', enum: [...QUICK_RANGES] } })
  @ApiQuery({ name: 'metrics', required: false, type: String })
  @ApiOkResponse({ schema: ANALYTICS_SCHEMA })
  async one(@Account() account: AccountContext, @Param('type') type: string, @Param('checkId') checkId: string, @Query('quickRange') quickRange?: string, @Query('metrics') metrics?: string) {
    const checkType = TYPE_OF_PATH[type];
    if (!checkType) throw new NotFoundError('Unknown analytics type');
    const id = requireId(checkId, 'Check');
    const range = rangeOf(quickRange, this.clock.now().getTime());
    const wanted = metrics ? metrics.split(',').map((m) => m.trim()).filter((m) => m !== '') : null;
    if (checkType === 'HEARTBEAT') {
      const found = await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId: account.accountId, id }));
      const availability = found ? await this.heartbeatAvailability(account.accountId, id, range) : undefined;
      if (!found || availability === undefined) throw new NotFoundError('Check not found');
      const check = found.check;
      return this.answer({ id, name: check.name, checkType, activated: check.activated, muted: check.muted, tags: check.tags }, range, { availability });
    }
    const monitor = (await this.monitorMetrics(account.accountId, [id], range)).get(id);
    if (!monitor || monitor.monitor.checkType !== checkType) throw new NotFoundError('Check not found');
    const view = monitor.monitor;
    return this.answer(view, range, namedMetrics(view.checkType, monitor.metrics, wanted));
  }

  private answer(check: { id: string; name: string; checkType: string; activated: boolean; muted: boolean; tags: string[]; frequency?: number }, range: { from: number; to: number }, data: Record<string, number | null>) {
    const metadata = Object.fromEntries(Object.keys(data).map((k) => [k, { unit: UNITS[k] ?? 'milliseconds', label: k }]));
    return { checkId: check.id, name: check.name, checkType: check.checkType, activated: check.activated, muted: check.muted, frequency: check.frequency ?? null, tags: check.tags, from: iso(range.from), to: iso(range.to), series: [{ data: [data] }], metadata };
  }

  private monitorMetrics(accountId: string, ids: string[], range: { from: number; to: number; granularity: 'h' | 'd' }) {
    return this.queries.execute(new MonitorsQuery({ type: 'MonitorMetrics', accountId, ids, granularity: range.granularity, from: iso(range.from), to: iso(range.to) }));
  }

  /** A heartbeat check's availability in percent (null without runs), undefined when it is not the account's. */
  private async heartbeatAvailability(accountId: string, checkId: string, range: { from: number; to: number }): Promise<number | null | undefined> {
    const availability = await this.queries.execute(new HeartbeatsQuery({ type: 'CheckAvailability', accountId, checkId, window: { start: range.from, end: range.to } }));
    if (!availability) return undefined;
    const ratio = availability.successRatio.currentPeriod;
    return ratio === undefined ? null : Math.round(ratio * 100_000) / 1000;
  }
}

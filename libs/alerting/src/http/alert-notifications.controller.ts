import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { isUuid } from '../../../core/src/ids';
import { Account, AccountContext } from '../../../http/src/account-context';
import { ApiPageQuery } from '../../../http/src/page-query';
import { CURSOR_CODEC, CursorCodec, parseLimit } from '../../../http/src/pagination';
import { actorOf, requireId } from '../../../http/src/params';
import { AlertingQuery } from '../read/alerting.queries';
import { RunAlertChannelCommand } from '../write/alert-channel.handler';
import { retryDelivery } from '../write/delivery-retry';
import { DeliveryDoc, DeliveryStatus, Outbox } from '../write/outbox';

/** A delivery as the log shows it: without the worker's bookkeeping, its next attempt as an ISO time. */
export type NotificationView = Pick<DeliveryDoc, 'id' | 'alertChannelId' | 'checkId' | 'incidentId' | 'alertType' | 'recipient' | 'status' | 'attempts' | 'lastError' | 'created_at' | 'sentAt'> & {
  nextAttemptAt: string | null;
  /** Set on SUPPRESSED notifications: why the alert was not sent. */
  suppressedReason: string | null;
};

export function presentDelivery(doc: DeliveryDoc): NotificationView {
  const { id, alertChannelId, checkId, incidentId, alertType, recipient, status, attempts, lastError, created_at, sentAt } = doc;
  return {
    id, alertChannelId, checkId, incidentId, alertType, recipient, status, attempts, lastError, created_at, sentAt,
    nextAttemptAt: doc.status === 'PENDING' && doc.nextAttemptAt !== null ? new Date(doc.nextAttemptAt).toISOString() : null,
    suppressedReason: doc.suppressedReason ?? null,
  };
}

const STATUSES: DeliveryStatus[] = ['PENDING', 'SENT', 'FAILED', 'SUPPRESSED'];

function isoOrProblem(value: unknown, name: string, details: ViolationDetail[]): string | undefined {
  if (value === undefined) return undefined;
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) {
    details.push({ path: name, message: `${name} must be an ISO 8601 date or date-time` });
    return undefined;
  }
  return new Date(time).toISOString();
}

/** The delivery log: every notification with its attempts, and a retry for failed ones. */
@ApiTags('alerting')
@ApiBearerAuth()
@Controller('v1/alert-notifications')
export class AlertNotificationsController {
  constructor(
    private readonly outbox: Outbox,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiPageQuery()
  @ApiQuery({ name: 'from', required: false })
  @ApiQuery({ name: 'to', required: false })
  @ApiQuery({ name: 'checkId', required: false })
  @ApiQuery({ name: 'alertChannelId', required: false })
  @ApiQuery({ name: 'status', required: false, enum: STATUSES })
  async list(@Account() account: AccountContext, @Query() query: Record<string, unknown>) {
    const details: ViolationDetail[] = [];
    const from = isoOrProblem(query.from, 'from', details);
    const to = isoOrProblem(query.to, 'to', details);
    for (const name of ['checkId', 'alertChannelId'] as const) {
      if (query[name] !== undefined && !isUuid(query[name])) details.push({ path: name, message: `${name} must be a UUID` });
    }
    if (query.status !== undefined && !STATUSES.includes(query.status as DeliveryStatus)) details.push({ path: 'status', message: 'status must be PENDING, SENT, FAILED or SUPPRESSED' });
    if (details.length > 0) throw ValidationError.of(details);
    const lower = (name: 'checkId' | 'alertChannelId') => (query[name] as string | undefined)?.toLowerCase();
    const filter = { from, to, checkId: lower('checkId'), alertChannelId: lower('alertChannelId'), status: query.status as DeliveryStatus | undefined };
    const scope = `alert-notifications:${account.accountId}:${JSON.stringify(filter)}`;
    const size = parseLimit(query.limit);
    const after = this.cursors.decode(scope, query.nextId);
    const rows = await this.queries.execute(new AlertingQuery({ type: 'ListNotifications', accountId: account.accountId, limit: size, after, filter }));
    return this.cursors.page(scope, rows, size, (d: DeliveryDoc) => ({ value: d.created_at, id: d.id }), (d) => presentDelivery(d as DeliveryDoc));
  }

  /** A channel's delivery is retried by the channel's RetryAlertDelivery (recorded with its author); a subscriber's directly. */
  @Post(':id/retry')
  @HttpCode(202)
  async retry(@Account() account: AccountContext, @Param('id') rawId: string) {
    const id = requireId(rawId, 'Notification');
    const stored = await this.outbox.get(id);
    if (!stored?.doc.alertChannelId || stored.doc.accountId !== account.accountId) return presentDelivery(await retryDelivery(this.outbox, account.accountId, id, this.clock.now()));
    const command = { type: 'RetryAlertDelivery' as const, id: stored.doc.alertChannelId, accountId: account.accountId, notificationId: id, failed: true };
    await this.commands.execute(new RunAlertChannelCommand(command, actorOf(account)));
    return presentDelivery((await this.outbox.get(id))?.doc ?? stored.doc);
  }
}

import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContextQuery } from '../../../read-store/src/context-query';
import { FindQuery } from '../../../read-store/src/read-store.port';
import { ChannelSettings } from '../domain/alert-channel';
import { DeliveryDoc, NotificationFilter, Outbox } from '../write/outbox';
import { ChannelDirectory, ChannelView } from './channel-directory';

/** What may be asked of the alerting read side, always for one account. */
export type AlertingQuestion =
  | { type: 'ListAlertChannels'; accountId: string; limit: number; after: FindQuery['after'] }
  /** The same page without each channel's subscriptions (a list of names and targets: no scan of the checks). */
  | { type: 'ListAlertChannelSettings'; accountId: string; limit: number; after: FindQuery['after'] }
  | { type: 'GetAlertChannel'; accountId: string; id: string }
  /** A channel's stored settings, secrets unmasked: what an update starts from. */
  | { type: 'AlertChannelSettings'; accountId: string; id: string }
  | { type: 'ListNotifications'; accountId: string; limit: number; after: FindQuery['after']; filter: NotificationFilter };

export interface AlertingAnswers {
  /** One page, newest first, one row more than `limit`. */
  ListAlertChannels: ChannelView[];
  ListAlertChannelSettings: Omit<ChannelView, 'subscriptions'>[];
  GetAlertChannel: { channel: ChannelView; revision: bigint } | null;
  AlertChannelSettings: ChannelSettings | null;
  /** One page, newest first, one row more than `limit`. */
  ListNotifications: DeliveryDoc[];
}

export class AlertingQuery<T extends AlertingQuestion['type']> extends ContextQuery<AlertingQuestion, AlertingAnswers, T> {}

/** Alert channels from their read model, notifications from the delivery log. */
@QueryHandler(AlertingQuery)
export class AlertingQueryHandler implements IQueryHandler<AlertingQuery<AlertingQuestion['type']>> {
  constructor(
    private readonly channels: ChannelDirectory,
    private readonly outbox: Outbox,
  ) {}

  async execute({ query: q }: AlertingQuery<AlertingQuestion['type']>): Promise<AlertingAnswers[AlertingQuestion['type']]> {
    switch (q.type) {
      case 'ListAlertChannels':
        return this.channels.present(await this.channels.list(q.accountId, q.limit, q.after));
      case 'ListAlertChannelSettings':
        return (await this.channels.list(q.accountId, q.limit, q.after)).map((doc) => this.channels.settingsOf(doc));
      case 'GetAlertChannel':
        return this.channels.get(q.accountId, q.id);
      case 'AlertChannelSettings': {
        const doc = await this.channels.anyDoc(q.id);
        if (!doc || doc.accountId !== q.accountId) return null;
        const { type, config, sendRecovery, sendFailure, sendDegraded, sslExpiry, sslExpiryThreshold } = doc;
        return { type, config, sendRecovery, sendFailure, sendDegraded, sslExpiry, sslExpiryThreshold };
      }
      case 'ListNotifications':
        return this.outbox.list(q.accountId, q.limit, q.after, q.filter);
    }
  }
}

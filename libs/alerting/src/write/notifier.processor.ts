import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { CheckDoc, FailedData, HeartbeatEvent, HeartbeatsQuery, outageOf, PingReceivedData } from '../../../heartbeats/src/heartbeats.api';
import { maskedRecipient } from '../domain/alert-channel';
import { AlertChannelEvent } from '../domain/alert-channel.decider';
import { CheckAlert, failureCause } from '../domain/alert-message';
import { alertPolicy } from '../domain/alert-settings';
import { ChannelDoc } from '../read/alert-channels.projection';
import { ChannelDirectory } from '../read/channel-directory';
import { ChannelSubscriptions } from './channel-subscriptions';
import { MaintenanceDirectory } from '../../../maintenance/src/maintenance.api';
import { deliveryId, DeliveryDoc, newDelivery, Outbox } from './outbox';
import { SubscriberNoticeEvent, SubscriberNotices } from './subscriber-notices';

/** What the notifier reads: from heartbeat, alert channel, subscriptions and incident streams. */
export type NotifierEvent =
  | EventOf<HeartbeatEvent, 'HeartbeatFailed' | 'HeartbeatPingReceived'>
  | EventOf<AlertChannelEvent, 'AlertChannelTestRequested' | 'AlertChannelDeleted'>
  | SubscriberNoticeEvent;

/** A check alerts no one while muted or deactivated. */
export const alertable = (check: CheckDoc | null): check is CheckDoc => check !== null && !check.muted && check.activated;

/**
 * Turns events into deliveries in the outbox, with ids made from the triggering event and the
 * recipient, so handling an event again (a crash, a second worker) adds nothing.
 * 1. HeartbeatFailed: when its outage (which the event carries) reaches the escalation threshold, an
 *    ALERT_FAILURE per subscribed channel, then the reminders, each sent only while the outage lasts.
 *    TIME_BASED escalation is a FAILURE due at start + threshold, on the same terms.
 * 2. HeartbeatPingReceived that ends an outage: an ALERT_RECOVERY with its downtime when the outage had alerted.
 * 3. AlertChannelTestRequested: the ALERT_TEST delivery; AlertChannelDeleted: no check keeps the channel.
 * 4. Subscriptions and incident updates: see SubscriberNotices.
 */
@Injectable()
export class Notifier implements Processor<NotifierEvent> {
  readonly name = 'notifier';
  readonly handles = ['HeartbeatFailed', 'HeartbeatPingReceived', 'AlertChannelTestRequested', 'AlertChannelDeleted', 'StatusPageSubscriptionsAdded', 'StatusPageSubscriptionConfirmationRequested', 'IncidentUpdatePosted'] as const;
  readonly startAt = 'head' as const;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly queries: QueryBus,
    private readonly channels: ChannelDirectory,
    private readonly subscribers: SubscriberNotices,
    private readonly subscriptions: ChannelSubscriptions,
    private readonly maintenance: MaintenanceDirectory,
  ) {}

  /** Why an alert of the check at `at` is silenced (muted, deactivated, a maintenance window of its tags), or null. */
  private async silencedAt(check: CheckDoc, at: number): Promise<string | null> {
    if (check.muted) return 'the check is muted';
    if (!check.activated) return 'the check is deactivated';
    const end = await this.maintenance.maintenanceEnd(check.accountId, new Date(at), { tags: check.tags });
    return end === null ? null : `a maintenance window of its tags, until ${end.toISOString()}`;
  }

  async handle(event: RecordedEvent<NotifierEvent>): Promise<void> {
    switch (event.type) {
      case 'HeartbeatFailed':
        return this.failed(event.data);
      case 'HeartbeatPingReceived':
        return this.recovered(event.data);
      case 'AlertChannelTestRequested': {
        const { data } = event;
        const channel = await this.channels.anyDoc(data.id);
        if (channel) await this.outbox.add(testDelivery(channel, data.notificationId, this.clock.now()));
        return;
      }
      case 'AlertChannelDeleted':
        return this.unsubscribeAll(event);
      default:
        return this.subscribers.handle(event);
    }
  }

  /** The delete answered after removing the channel from its checks; this finishes the job should it have died half-way. */
  private async unsubscribeAll(event: RecordedEvent<EventOf<AlertChannelEvent, 'AlertChannelDeleted'>>): Promise<void> {
    const accountId = event.metadata.accountId;
    const { id } = event.data;
    if (!accountId) return;
    await this.subscriptions.removeAll(accountId, id, { accountId, keyName: 'notifier' });
  }

  /** A later FAILING written before FAILINGs carried their outage has no run count: it alerts no one. */
  private async failed(data: FailedData): Promise<void> {
    const outage = outageOf(data);
    if (!outage) return;
    const check = await this.queries.execute(new HeartbeatsQuery({ type: 'AnyCheck', id: data.checkId }));
    if (!check) return;
    const policy = alertPolicy(check.alertSettings);
    const startedAt = Date.parse(outage.startedAt);
    let alertAt: number;
    // The cheap escalation tests first: most FAILINGs of an outage alert no one, and need no maintenance lookup.
    if (policy.escalationType === 'TIME_BASED') {
      if (!data.first) return;
      alertAt = startedAt + policy.minutesFailingThreshold * 60_000;
    } else {
      if (outage.failedRuns !== policy.failedRunThreshold) return;
      alertAt = Date.parse(data.deadline);
    }
    const silenced = await this.silencedAt(check, Date.parse(data.deadline));
    const base: Omit<CheckAlert, 'alertType'> = {
      checkId: check.id,
      checkName: check.name,
      tags: check.tags,
      outageId: outage.id,
      startedAt: outage.startedAt,
      at: data.deadline,
      downtimeSeconds: null,
      cause: failureCause(data),
    };
    // Recorded, not sent: the log says which alert was silenced and why.
    if (silenced !== null) return this.fanOut(check, { ...base, alertType: 'ALERT_FAILURE' }, data.eventId, alertAt, null, silenced);
    const delayed = policy.escalationType === 'TIME_BASED';
    await this.fanOut(check, { ...base, alertType: 'ALERT_FAILURE' }, data.eventId, alertAt, delayed ? outage.id : null);
    for (let i = 1; i <= policy.reminders.amount; i++) {
      const at = alertAt + i * policy.reminders.intervalMinutes * 60_000;
      await this.fanOut(check, { ...base, alertType: 'ALERT_REMINDER', at: new Date(at).toISOString() }, `${data.eventId}:reminder:${i}`, at, outage.id);
    }
  }

  /** A recovery written before pings carried their outage has no start to count the downtime from: it alerts no one. */
  private async recovered(data: PingReceivedData): Promise<void> {
    const outage = data.recoveredFrom ? data.outage : undefined;
    if (!outage) return;
    const check = await this.queries.execute(new HeartbeatsQuery({ type: 'AnyCheck', id: data.checkId }));
    if (!check) return;
    const policy = alertPolicy(check.alertSettings);
    const downtimeMs = Date.parse(data.at) - Date.parse(outage.startedAt);
    const alerted = policy.escalationType === 'TIME_BASED' ? downtimeMs >= policy.minutesFailingThreshold * 60_000 : outage.failedRuns >= policy.failedRunThreshold;
    if (!alerted) return;
    const silenced = await this.silencedAt(check, Date.parse(data.at));
    const alert: CheckAlert = {
      alertType: 'ALERT_RECOVERY',
      checkId: check.id,
      checkName: check.name,
      tags: check.tags,
      outageId: outage.id,
      startedAt: outage.startedAt,
      at: data.at,
      downtimeSeconds: Math.max(0, Math.round(downtimeMs / 1000)),
    };
    await this.fanOut(check, alert, data.eventId, this.clock.now().getTime(), null, silenced);
  }

  /** One delivery per activated subscription of the check to a channel of its account that wants this kind of alert. */
  private async fanOut(check: CheckDoc, alert: CheckAlert, trigger: string, dueAt: number, whileOutage: string | null, silenced: string | null = null): Promise<void> {
    const now = this.clock.now();
    for (const subscription of check.alertChannelSubscriptions ?? []) {
      if (!subscription.activated) continue;
      const channel = await this.channels.anyDoc(subscription.alertChannelId);
      if (!channel || channel.accountId !== check.accountId) continue;
      if (alert.alertType === 'ALERT_RECOVERY' ? !channel.sendRecovery : !channel.sendFailure) continue;
      await this.outbox.add(newDelivery({
        ...channelFields(channel),
        id: deliveryId(trigger, alert.alertType, channel.id),
        nextAttemptAt: Math.max(dueAt, now.getTime()),
        checkId: check.id,
        alertType: alert.alertType,
        whileOutage,
        target: { kind: 'channel', alert },
        ...(silenced === null ? {} : { status: 'SUPPRESSED' as const, nextAttemptAt: null, suppressedReason: silenced }),
      }, now));
    }
  }
}

const channelFields = (channel: ChannelDoc) => ({
  accountId: channel.accountId,
  alertChannelId: channel.id,
  recipient: maskedRecipient(channel.type, channel.config),
});

/** POST …/test: an ALERT_TEST to the channel, due at once. */
export function testDelivery(channel: ChannelDoc, notificationId: string, now: Date): DeliveryDoc {
  return newDelivery({
    ...channelFields(channel),
    id: notificationId,
    alertType: 'ALERT_TEST',
    target: {
      kind: 'channel',
      alert: { alertType: 'ALERT_TEST', checkId: null, checkName: 'Test check', tags: [], outageId: null, startedAt: null, at: now.toISOString(), downtimeSeconds: null },
    },
  }, now);
}

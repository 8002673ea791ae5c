import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { CheckDoc, FailedData, HeartbeatEvent, HeartbeatsQuery, outageOf, PingReceivedData } from '../../../heartbeats/src/heartbeats.api';
import { AlertChannelEvent } from '../domain/alert-channel.decider';
import { CheckAlert, failureCause } from '../domain/alert-message';
import { alertPolicy, outageAlerted } from '../domain/alert-settings';
import { ChannelDoc } from '../read/alert-channels.projection';
import { ChannelDirectory } from '../read/channel-directory';
import { AlertFanOut, AlertSubject, channelDelivery } from './alert-fan-out';
import { ChannelSubscriptions } from './channel-subscriptions';
import { DeliveryDoc, Outbox } from './outbox';
import { SubscriberNoticeEvent, SubscriberNotices } from './subscriber-notices';

/** What the notifier reads: from heartbeat, alert channel, subscriptions and incident streams. */
export type NotifierEvent =
  | EventOf<HeartbeatEvent, 'HeartbeatFailed' | 'HeartbeatPingReceived'>
  | EventOf<AlertChannelEvent, 'AlertChannelTestRequested' | 'AlertChannelDeleted'>
  | SubscriberNoticeEvent;

const subjectOf = (check: CheckDoc): AlertSubject => ({ ...check, noun: 'check' });
const alertOf = (check: CheckDoc, outage: { id: string; startedAt: string }, at: string): Omit<CheckAlert, 'alertType'> => ({
  checkId: check.id,
  checkName: check.name,
  tags: check.tags,
  outageId: outage.id,
  startedAt: outage.startedAt,
  at,
  downtimeSeconds: null,
});

/**
 * Turns events into deliveries in the outbox (see AlertFanOut for their ids).
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
    private readonly alerts: AlertFanOut,
  ) {}

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
      case 'AlertChannelDeleted': {
        // The delete answered after removing the channel from its checks; this finishes the job should it have died half-way.
        const accountId = event.metadata.accountId;
        if (accountId) await this.subscriptions.removeAll(accountId, event.data.id, { accountId, keyName: 'notifier' });
        return;
      }
      default:
        return this.subscribers.handle(event);
    }
  }

  /** A later FAILING written before FAILINGs carried their outage has no run count: it alerts no one. */
  private async failed(data: FailedData): Promise<void> {
    const outage = outageOf(data);
    if (!outage) return;
    const check = await this.queries.execute(new HeartbeatsQuery({ type: 'AnyCheck', id: data.checkId }));
    if (!check) return;
    const policy = alertPolicy(check.alertSettings);
    // The cheap escalation tests first: most FAILINGs of an outage alert no one, and need no maintenance lookup.
    const timeBased = policy.escalationType === 'TIME_BASED';
    if (timeBased ? !data.first : outage.failedRuns !== policy.failedRunThreshold) return;
    const alertAt = timeBased ? Date.parse(outage.startedAt) + policy.minutesFailingThreshold * 60_000 : Date.parse(data.deadline);
    const base = { ...alertOf(check, outage, data.deadline), cause: failureCause(data) };
    await this.alerts.escalate(subjectOf(check), base, data.eventId, alertAt, outage.id, timeBased);
  }

  /** A recovery written before pings carried their outage has no start to count the downtime from: it alerts no one. */
  private async recovered(data: PingReceivedData): Promise<void> {
    const outage = data.recoveredFrom ? data.outage : undefined;
    if (!outage) return;
    const check = await this.queries.execute(new HeartbeatsQuery({ type: 'AnyCheck', id: data.checkId }));
    if (!check) return;
    const downtimeMs = Date.parse(data.at) - Date.parse(outage.startedAt);
    if (!outageAlerted(check.alertSettings, downtimeMs, outage.failedRuns)) return;
    const subject = subjectOf(check);
    const alert: CheckAlert = { ...alertOf(check, outage, data.at), alertType: 'ALERT_RECOVERY', downtimeSeconds: Math.max(0, Math.round(downtimeMs / 1000)) };
    await this.alerts.fanOut(subject, alert, data.eventId, this.clock.now().getTime(), null, await this.alerts.silencedAt(subject, data.at));
  }
}

/** POST …/test: an ALERT_TEST to the channel, due at once. */
export function testDelivery(channel: ChannelDoc, notificationId: string, now: Date): DeliveryDoc {
  const alert: CheckAlert = { alertType: 'ALERT_TEST', checkId: null, checkName: 'Test check', tags: [], outageId: null, startedAt: null, at: now.toISOString(), downtimeSeconds: null };
  return channelDelivery(channel, alert, notificationId, now);
}

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { MaintenanceDirectory } from '../../../maintenance/src/maintenance.api';
import { maskedRecipient } from '../domain/alert-channel';
import { CheckAlert } from '../domain/alert-message';
import { alertPolicy } from '../domain/alert-settings';
import { ChannelDoc } from '../read/alert-channels.projection';
import { ChannelDirectory } from '../read/channel-directory';
import { deliveryId, DeliveryDoc, newDelivery, Outbox } from './outbox';

/** What alerts are about: a heartbeat check or a monitor, with its subscriptions and alert settings. */
export interface AlertSubject {
  /** How the suppressed reason names it ("the check is muted"). */
  noun: 'check' | 'monitor';
  id: string;
  accountId: string;
  muted: boolean;
  activated: boolean;
  tags: string[];
  alertSettings: unknown;
  alertChannelSubscriptions?: { alertChannelId: string; activated: boolean }[];
}

/** A check or monitor alerts no one while muted or deactivated. */
export const alertable = <T extends { muted: boolean; activated: boolean }>(subject: T | null): subject is T => subject !== null && !subject.muted && subject.activated;

/** Which channels want which alert: Checkly's channel flags. */
function wants(channel: ChannelDoc, alert: CheckAlert, degradedRecovery: boolean): boolean {
  switch (alert.alertType) {
    case 'ALERT_RECOVERY':
      return channel.sendRecovery && (!degradedRecovery || channel.sendDegraded);
    case 'ALERT_DEGRADED':
      return channel.sendDegraded;
    case 'ALERT_SSL':
      return channel.sslExpiry && (alert.monitor?.sslDaysRemaining ?? 0) <= channel.sslExpiryThreshold;
    default:
      return channel.sendFailure;
  }
}

/** A PENDING delivery of `alert` to the channel (unless `fields` say otherwise). */
export function channelDelivery(channel: ChannelDoc, alert: CheckAlert, id: string, now: Date, fields: Partial<DeliveryDoc> = {}): DeliveryDoc {
  const recipient = maskedRecipient(channel.type, channel.config);
  return newDelivery({ accountId: channel.accountId, alertChannelId: channel.id, recipient, id, alertType: alert.alertType, target: { kind: 'channel', alert }, ...fields }, now);
}

/**
 * Turns one alert of a check or monitor into deliveries to its subscribed channels, with ids made from the
 * triggering event and the channel, so handling an event again (a crash, a second worker) adds nothing.
 */
@Injectable()
export class AlertFanOut {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly channels: ChannelDirectory,
    private readonly maintenance: MaintenanceDirectory,
  ) {}

  /** Why an alert of the subject at `at` is silenced (muted, deactivated, a maintenance window of its tags), or null. */
  async silencedAt(subject: AlertSubject, at: string): Promise<string | null> {
    if (subject.muted) return `the ${subject.noun} is muted`;
    if (!subject.activated) return `the ${subject.noun} is deactivated`;
    const end = await this.maintenance.maintenanceEnd(subject.accountId, new Date(at), { tags: subject.tags });
    return end === null ? null : `a maintenance window of its tags, until ${end.toISOString()}`;
  }

  /**
   * The failure alert due at `alertAt` (only while outage `outageId` lasts when `delayed`), then the reminders,
   * each sent only while the outage lasts. Silenced at `base.at`: the failure is recorded SUPPRESSED, with no reminders.
   */
  async escalate(subject: AlertSubject, base: Omit<CheckAlert, 'alertType'>, trigger: string, alertAt: number, outageId: string, delayed: boolean): Promise<void> {
    const silenced = await this.silencedAt(subject, base.at);
    if (silenced !== null) return this.fanOut(subject, { ...base, alertType: 'ALERT_FAILURE' }, trigger, alertAt, null, silenced);
    await this.fanOut(subject, { ...base, alertType: 'ALERT_FAILURE' }, trigger, alertAt, delayed ? outageId : null);
    const { reminders } = alertPolicy(subject.alertSettings);
    for (let i = 1; i <= reminders.amount; i++) {
      const at = alertAt + i * reminders.intervalMinutes * 60_000;
      await this.fanOut(subject, { ...base, alertType: 'ALERT_REMINDER', at: new Date(at).toISOString() }, `${trigger}:reminder:${i}`, at, outageId);
    }
  }

  /**
   * One delivery per activated subscription to a channel of the subject's account that wants this kind of alert,
   * recorded SUPPRESSED with the reason when `silenced`. `degradedRecovery`: the end of a DEGRADED, not of an outage.
   */
  async fanOut(subject: AlertSubject, alert: CheckAlert, trigger: string, dueAt: number, whileOutage: string | null, silenced: string | null = null, degradedRecovery = false): Promise<void> {
    const now = this.clock.now();
    for (const subscription of subject.alertChannelSubscriptions ?? []) {
      if (!subscription.activated) continue;
      const channel = await this.channels.anyDoc(subscription.alertChannelId);
      if (!channel || channel.accountId !== subject.accountId || !wants(channel, alert, degradedRecovery)) continue;
      await this.outbox.add(channelDelivery(channel, alert, deliveryId(trigger, alert.alertType, channel.id), now, {
        nextAttemptAt: Math.max(dueAt, now.getTime()),
        checkId: subject.id,
        whileOutage,
        ...(silenced === null ? {} : { status: 'SUPPRESSED' as const, nextAttemptAt: null, suppressedReason: silenced }),
      }));
    }
  }
}

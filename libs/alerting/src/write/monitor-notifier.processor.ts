import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { MaintenanceDirectory } from '../../../maintenance/src/maintenance.api';
import { expiringDays, MonitorEvent, MonitorOutage, MonitorsQuery, MonitorView } from '../../../monitors/src/monitors.api';
import { maskedRecipient } from '../domain/alert-channel';
import { CheckAlert } from '../domain/alert-message';
import { alertPolicy } from '../domain/alert-settings';
import { MonitorFacts } from '../domain/monitor-alert-words';
import { ChannelDoc } from '../read/alert-channels.projection';
import { ChannelDirectory } from '../read/channel-directory';
import { deliveryId, newDelivery, Outbox } from './outbox';

/** Delayed alerts and reminders of a monitor carry `whileOutage` ids with this prefix. */
export const MONITOR_OUTAGE_PREFIX = 'monitor:';
export const monitorOutageId = (monitorId: string, startedAt: string) => `${MONITOR_OUTAGE_PREFIX}${monitorId}:${startedAt}`;

type Event = RecordedEvent<EventOf<MonitorEvent, 'MonitorStateChanged' | 'MonitorStillFailing'>>;
interface Monitor {
  accountId: string;
  view: MonitorView;
}

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

/**
 * Turns a monitor's state changes into deliveries, as the notifier does a heartbeat's FAILINGs, with ids made
 * from the triggering event so handling it again adds nothing.
 * The outage (start, failing rounds, certificate cause) is the one the event carries.
 * 1. → FAILING begins the outage. A certificate within `alertDaysBeforeExpiry` is an ALERT_SSL to channels with
 *    `sslExpiry` (within their threshold) instead. Otherwise RUN_BASED escalation alerts at the
 *    `failedRunThreshold`th failing round (MonitorStillFailing counts them), TIME_BASED after the minutes
 *    (a delivery dropped if the outage ends first); reminders follow while the outage lasts.
 * 2. FAILING → anything: the outage ends; an ALERT_RECOVERY with the downtime when it had alerted.
 * A MonitorStillFailing or a recovery written before events carried their outage alerts no one.
 * 3. → DEGRADED: an ALERT_DEGRADED to channels with `sendDegraded`; DEGRADED → PASSING their recovery.
 * Muted, deactivated or in a maintenance window of its tags: recorded as SUPPRESSED with the reason.
 */
@Injectable()
export class MonitorNotifier implements Processor<EventOf<MonitorEvent, 'MonitorStateChanged' | 'MonitorStillFailing'>> {
  readonly name = 'monitor-notifier';
  readonly handles = ['MonitorStateChanged', 'MonitorStillFailing'] as const;
  readonly startAt = 'head' as const;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly queries: QueryBus,
    private readonly channels: ChannelDirectory,
    private readonly maintenance: MaintenanceDirectory,
  ) {}

  async handle(event: Event): Promise<void> {
    // Runs are recorded without an actor, so the account comes from the monitor the event names.
    const found = await this.queries.execute(new MonitorsQuery({ type: 'MonitorOf', id: event.data.id }));
    if (!found) return;
    const monitor = { accountId: found.accountId, view: found.monitor };
    if (event.type === 'MonitorStillFailing') return this.stillFailing(monitor, event);
    const { from, to } = event.data;
    if (to === 'FAILING') return this.failing(monitor, event);
    if (from === 'FAILING') await this.recovered(monitor, event);
    if (to === 'DEGRADED') return this.degraded(monitor, event);
    if (from === 'DEGRADED' && to === 'PASSING') return this.degradedRecovered(monitor, event);
  }

  private trigger = (event: Event) => `${event.stream}@${event.revision}`;

  private async failing(monitor: Monitor, event: EventOf<MonitorEvent, 'MonitorStateChanged'> & Event): Promise<void> {
    const { id, roundAt, failedLocations } = event.data;
    const failure = await this.queries.execute(new MonitorsQuery({ type: 'ListMonitorResults', accountId: monitor.accountId, id, filter: { limit: 1, before: null, resultType: 'FINAL', hasFailures: true, fromMs: Date.parse(roundAt), toMs: null } }));
    const run = failure?.entries[0] ?? null;
    const sslDays = monitor.view.checkType === 'SSL' ? expiringDays(run?.error ?? null) : null;
    const facts: MonitorFacts = { checkType: monitor.view.checkType, error: run?.error ?? null, locations: failedLocations, responseTime: run?.responseTime ?? null, sslDaysRemaining: sslDays };
    // An event written before it carried the outage: the failed run says whether the certificate was the cause.
    const outage = event.data.outage ?? { startedAt: roundAt, failingRounds: 1, sslExpiry: sslDays !== null };
    const base = this.alert(monitor, outage, facts);
    if (outage.sslExpiry) return this.fanOut(monitor, { ...base, alertType: 'ALERT_SSL' }, this.trigger(event), Date.parse(roundAt), null, await this.silencedAt(monitor, roundAt));
    const policy = alertPolicy(monitor.view.alertSettings);
    if (policy.escalationType === 'TIME_BASED') return this.escalate(monitor, outage, base, this.trigger(event), Date.parse(roundAt) + policy.minutesFailingThreshold * 60_000, true);
    if (policy.failedRunThreshold === 1) return this.escalate(monitor, outage, base, this.trigger(event), Date.parse(roundAt), false);
  }

  private async stillFailing(monitor: Monitor, event: EventOf<MonitorEvent, 'MonitorStillFailing'> & Event): Promise<void> {
    const { roundAt, failedLocations, outage } = event.data;
    const policy = alertPolicy(monitor.view.alertSettings);
    if (!outage || outage.sslExpiry || policy.escalationType !== 'RUN_BASED' || outage.failingRounds !== policy.failedRunThreshold) return;
    const facts: MonitorFacts = { checkType: monitor.view.checkType, error: monitor.view.status.lastRun?.error ?? null, locations: failedLocations, responseTime: null, sslDaysRemaining: null };
    await this.escalate(monitor, outage, { ...this.alert(monitor, outage, facts), at: roundAt }, this.trigger(event), Date.parse(roundAt), false);
  }

  /** The failure alert due at `alertAt` (only while the outage lasts when `delayed`), then the reminders. */
  private async escalate(monitor: Monitor, outage: MonitorOutage, base: Omit<CheckAlert, 'alertType'>, trigger: string, alertAt: number, delayed: boolean): Promise<void> {
    const silenced = await this.silencedAt(monitor, base.at);
    if (silenced !== null) return this.fanOut(monitor, { ...base, alertType: 'ALERT_FAILURE' }, trigger, alertAt, null, silenced);
    const outageId = monitorOutageId(monitor.view.id, outage.startedAt);
    await this.fanOut(monitor, { ...base, alertType: 'ALERT_FAILURE' }, trigger, alertAt, delayed ? outageId : null);
    const { reminders } = alertPolicy(monitor.view.alertSettings);
    for (let i = 1; i <= reminders.amount; i++) {
      const at = alertAt + i * reminders.intervalMinutes * 60_000;
      await this.fanOut(monitor, { ...base, alertType: 'ALERT_REMINDER', at: new Date(at).toISOString() }, `${trigger}:reminder:${i}`, at, outageId);
    }
  }

  private async recovered(monitor: Monitor, event: EventOf<MonitorEvent, 'MonitorStateChanged'> & Event): Promise<void> {
    const { roundAt, outage } = event.data;
    if (!outage || outage.sslExpiry) return;
    const policy = alertPolicy(monitor.view.alertSettings);
    const downtimeMs = event.data.downtimeMs ?? Date.parse(roundAt) - Date.parse(outage.startedAt);
    const alerted = policy.escalationType === 'TIME_BASED' ? downtimeMs >= policy.minutesFailingThreshold * 60_000 : outage.failingRounds >= policy.failedRunThreshold;
    if (!alerted) return;
    const facts: MonitorFacts = { checkType: monitor.view.checkType, error: null, locations: [], responseTime: null, sslDaysRemaining: null };
    const alert: CheckAlert = { ...this.alert(monitor, outage, facts), alertType: 'ALERT_RECOVERY', at: roundAt, downtimeSeconds: Math.max(0, Math.round(downtimeMs / 1000)) };
    await this.fanOut(monitor, alert, this.trigger(event), this.clock.now().getTime(), null, await this.silencedAt(monitor, roundAt));
  }

  private async degraded(monitor: Monitor, event: EventOf<MonitorEvent, 'MonitorStateChanged'> & Event): Promise<void> {
    const { id, roundAt } = event.data;
    const facts: MonitorFacts = { checkType: monitor.view.checkType, error: null, locations: [], responseTime: monitor.view.status.lastRun?.timings.total ?? null, sslDaysRemaining: null };
    const alert: CheckAlert = { alertType: 'ALERT_DEGRADED', checkId: id, checkName: monitor.view.name, tags: monitor.view.tags, outageId: `${monitorOutageId(id, roundAt)}:degraded`, startedAt: roundAt, at: roundAt, downtimeSeconds: null, monitor: facts };
    await this.fanOut(monitor, alert, this.trigger(event), Date.parse(roundAt), null, await this.silencedAt(monitor, roundAt));
  }

  private async degradedRecovered(monitor: Monitor, event: EventOf<MonitorEvent, 'MonitorStateChanged'> & Event): Promise<void> {
    const { id, roundAt } = event.data;
    const since = monitor.view.status.since ?? roundAt;
    const facts: MonitorFacts = { checkType: monitor.view.checkType, error: null, locations: [], responseTime: null, sslDaysRemaining: null };
    const alert: CheckAlert = { alertType: 'ALERT_RECOVERY', checkId: id, checkName: monitor.view.name, tags: monitor.view.tags, outageId: null, startedAt: roundAt, at: since > roundAt ? since : roundAt, downtimeSeconds: null, monitor: facts };
    await this.fanOut(monitor, alert, this.trigger(event), this.clock.now().getTime(), null, await this.silencedAt(monitor, roundAt), true);
  }

  private alert(monitor: Monitor, outage: MonitorOutage, facts: MonitorFacts): Omit<CheckAlert, 'alertType'> {
    return { checkId: monitor.view.id, checkName: monitor.view.name, tags: monitor.view.tags, outageId: monitorOutageId(monitor.view.id, outage.startedAt), startedAt: outage.startedAt, at: outage.startedAt, downtimeSeconds: null, monitor: facts };
  }

  /** Why an alert of the monitor at `at` is silenced (muted, deactivated, a maintenance window of its tags), or null. */
  private async silencedAt(monitor: Monitor, at: string): Promise<string | null> {
    if (monitor.view.muted) return 'the monitor is muted';
    if (!monitor.view.activated) return 'the monitor is deactivated';
    const end = await this.maintenance.maintenanceEnd(monitor.accountId, new Date(at), { tags: monitor.view.tags });
    return end === null ? null : `a maintenance window of its tags, until ${end.toISOString()}`;
  }

  /** One delivery per activated subscription of the monitor to a channel of its account that wants this kind of alert. */
  private async fanOut(monitor: Monitor, alert: CheckAlert, trigger: string, dueAt: number, whileOutage: string | null, silenced: string | null = null, degradedRecovery = false): Promise<void> {
    const now = this.clock.now();
    for (const subscription of monitor.view.alertChannelSubscriptions ?? []) {
      if (!subscription.activated) continue;
      const channel = await this.channels.anyDoc(subscription.alertChannelId);
      if (!channel || channel.accountId !== monitor.accountId || !wants(channel, alert, degradedRecovery)) continue;
      await this.outbox.add(newDelivery({
        accountId: channel.accountId,
        alertChannelId: channel.id,
        recipient: maskedRecipient(channel.type, channel.config),
        id: deliveryId(trigger, alert.alertType, channel.id),
        nextAttemptAt: Math.max(dueAt, now.getTime()),
        checkId: monitor.view.id,
        alertType: alert.alertType,
        whileOutage,
        target: { kind: 'channel', alert },
        ...(silenced === null ? {} : { status: 'SUPPRESSED' as const, nextAttemptAt: null, suppressedReason: silenced }),
      }, now));
    }
  }
}

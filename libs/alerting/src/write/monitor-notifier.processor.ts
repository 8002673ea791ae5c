import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { EventOf, RecordedEvent } from '../../../core/src/event';
import { Processor } from '../../../core/src/processor';
import { expiringDays, MonitorEvent, MonitorOutage, MonitorsQuery, MonitorView } from '../../../monitors/src/monitors.api';
import { CheckAlert } from '../domain/alert-message';
import { alertPolicy, outageAlerted } from '../domain/alert-settings';
import { MonitorFacts } from '../domain/monitor-alert-words';
import { AlertFanOut, AlertSubject } from './alert-fan-out';

/** Delayed alerts and reminders of a monitor carry `whileOutage` ids with this prefix. */
export const MONITOR_OUTAGE_PREFIX = 'monitor:';
export const monitorOutageId = (monitorId: string, startedAt: string) => `${MONITOR_OUTAGE_PREFIX}${monitorId}:${startedAt}`;

type Event = RecordedEvent<EventOf<MonitorEvent, 'MonitorStateChanged' | 'MonitorStillFailing'>>;
type ChangedEvent = EventOf<MonitorEvent, 'MonitorStateChanged'> & Event;
type Monitor = MonitorView & AlertSubject;

/** The facts of an alert that names none but the monitor's type. */
const factsOf = (monitor: Monitor, known: Partial<MonitorFacts> = {}): MonitorFacts => ({ checkType: monitor.checkType, error: null, locations: [], responseTime: null, sslDaysRemaining: null, ...known });
const triggerOf = (event: Event) => `${event.stream}@${event.revision}`;

/**
 * Turns a monitor's state changes into deliveries, as the notifier does a heartbeat's FAILINGs (see AlertFanOut).
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
    private readonly queries: QueryBus,
    private readonly alerts: AlertFanOut,
  ) {}

  async handle(event: Event): Promise<void> {
    // Runs are recorded without an actor, so the account comes from the monitor the event names.
    const found = await this.queries.execute(new MonitorsQuery({ type: 'MonitorOf', id: event.data.id }));
    if (!found) return;
    const monitor: Monitor = { ...found.monitor, accountId: found.accountId, noun: 'monitor' };
    if (event.type === 'MonitorStillFailing') return this.stillFailing(monitor, event);
    const { from, to } = event.data;
    if (to === 'FAILING') return this.failing(monitor, event);
    if (from === 'FAILING') await this.recovered(monitor, event);
    if (to === 'DEGRADED') return this.degraded(monitor, event);
    if (from === 'DEGRADED' && to === 'PASSING') return this.degradedRecovered(monitor, event);
  }

  private async failing(monitor: Monitor, event: ChangedEvent): Promise<void> {
    const { id, roundAt, failedLocations } = event.data;
    const failure = await this.queries.execute(new MonitorsQuery({ type: 'ListMonitorResults', accountId: monitor.accountId, id, filter: { limit: 1, before: null, resultType: 'FINAL', hasFailures: true, fromMs: Date.parse(roundAt), toMs: null } }));
    const run = failure?.entries[0] ?? null;
    const sslDays = monitor.checkType === 'SSL' ? expiringDays(run?.error ?? null) : null;
    const facts = factsOf(monitor, { error: run?.error ?? null, locations: failedLocations, responseTime: run?.responseTime ?? null, sslDaysRemaining: sslDays });
    // An event written before it carried the outage: the failed run says whether the certificate was the cause.
    const outage = event.data.outage ?? { startedAt: roundAt, failingRounds: 1, sslExpiry: sslDays !== null };
    const base = this.alert(monitor, outage, facts);
    if (outage.sslExpiry) return this.alerts.fanOut(monitor, { ...base, alertType: 'ALERT_SSL' }, triggerOf(event), Date.parse(roundAt), null, await this.alerts.silencedAt(monitor, roundAt));
    const policy = alertPolicy(monitor.alertSettings);
    if (policy.escalationType === 'TIME_BASED') return this.escalate(monitor, outage, base, event, Date.parse(roundAt) + policy.minutesFailingThreshold * 60_000, true);
    if (policy.failedRunThreshold === 1) return this.escalate(monitor, outage, base, event, Date.parse(roundAt), false);
  }

  private async stillFailing(monitor: Monitor, event: EventOf<MonitorEvent, 'MonitorStillFailing'> & Event): Promise<void> {
    const { roundAt, failedLocations, outage } = event.data;
    const policy = alertPolicy(monitor.alertSettings);
    if (!outage || outage.sslExpiry || policy.escalationType !== 'RUN_BASED' || outage.failingRounds !== policy.failedRunThreshold) return;
    const facts = factsOf(monitor, { error: monitor.status.lastRun?.error ?? null, locations: failedLocations });
    await this.escalate(monitor, outage, { ...this.alert(monitor, outage, facts), at: roundAt }, event, Date.parse(roundAt), false);
  }

  private escalate(monitor: Monitor, outage: MonitorOutage, base: Omit<CheckAlert, 'alertType'>, event: Event, alertAt: number, delayed: boolean): Promise<void> {
    return this.alerts.escalate(monitor, base, triggerOf(event), alertAt, monitorOutageId(monitor.id, outage.startedAt), delayed);
  }

  private async recovered(monitor: Monitor, event: ChangedEvent): Promise<void> {
    const { roundAt, outage } = event.data;
    if (!outage || outage.sslExpiry) return;
    const downtimeMs = event.data.downtimeMs ?? Date.parse(roundAt) - Date.parse(outage.startedAt);
    if (!outageAlerted(monitor.alertSettings, downtimeMs, outage.failingRounds)) return;
    const alert: CheckAlert = { ...this.alert(monitor, outage, factsOf(monitor)), alertType: 'ALERT_RECOVERY', at: roundAt, downtimeSeconds: Math.max(0, Math.round(downtimeMs / 1000)) };
    await this.alerts.fanOut(monitor, alert, triggerOf(event), this.clock.now().getTime(), null, await this.alerts.silencedAt(monitor, roundAt));
  }

  private async degraded(monitor: Monitor, event: ChangedEvent): Promise<void> {
    const { id, roundAt } = event.data;
    const facts = factsOf(monitor, { responseTime: monitor.status.lastRun?.timings.total ?? null });
    const alert: CheckAlert = { alertType: 'ALERT_DEGRADED', checkId: id, checkName: monitor.name, tags: monitor.tags, outageId: `${monitorOutageId(id, roundAt)}:degraded`, startedAt: roundAt, at: roundAt, downtimeSeconds: null, monitor: facts };
    await this.alerts.fanOut(monitor, alert, triggerOf(event), Date.parse(roundAt), null, await this.alerts.silencedAt(monitor, roundAt));
  }

  private async degradedRecovered(monitor: Monitor, event: ChangedEvent): Promise<void> {
    const { id, roundAt } = event.data;
    const since = monitor.status.since ?? roundAt;
    const alert: CheckAlert = { alertType: 'ALERT_RECOVERY', checkId: id, checkName: monitor.name, tags: monitor.tags, outageId: null, startedAt: roundAt, at: since > roundAt ? since : roundAt, downtimeSeconds: null, monitor: factsOf(monitor) };
    await this.alerts.fanOut(monitor, alert, triggerOf(event), this.clock.now().getTime(), null, await this.alerts.silencedAt(monitor, roundAt), true);
  }

  private alert(monitor: Monitor, outage: MonitorOutage, facts: MonitorFacts): Omit<CheckAlert, 'alertType'> {
    return { checkId: monitor.id, checkName: monitor.name, tags: monitor.tags, outageId: monitorOutageId(monitor.id, outage.startedAt), startedAt: outage.startedAt, at: outage.startedAt, downtimeSeconds: null, monitor: facts };
  }
}

import { QueryBus } from '@nestjs/cqrs';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { BackgroundLoop } from '../../../core/src/background-loop';
import { TooManyRequestsError } from '../../../core/src/errors';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { LOGGER, VigilLogger } from '../../../platform/src/logger';
import { DAEMON_ENABLED } from '../../../platform/src/tokens';
import { Metrics } from '../../../platform/src/metrics';
import { Counter } from 'prom-client';
import { HeartbeatsQuery } from '../../../heartbeats/src/heartbeats.api';
import { MonitorsQuery } from '../../../monitors/src/monitors.api';
import { EmailQuota } from '../../../status-pages/src/status-pages.api';
import { ChannelDirectory } from '../read/channel-directory';
import { DeliveryError } from '../send/delivery-error';
import { EmailSender } from '../send/email-sender';
import { asDeliveryError, BATCH_PARALLEL, DeliverySender } from './delivery-sender';
import { alertable } from './alert-fan-out';
import { DeliveryDoc, Outbox } from './outbox';
import { MONITOR_OUTAGE_PREFIX, monitorOutageId } from './monitor-notifier.processor';

/** The longest wait between passes without news (a delivery added elsewhere); the next due one is waited for exactly. */
export const DELIVERY_IDLE_MS = 10_000;
export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;
const IN_FLIGHT = 50;
/** The shortest wait for a delivery just ahead (a frozen test clock must not make the loop spin). */
const MIN_WAIT_MS = 20;
/** A claimed delivery is another worker's again this long after its attempt's deadline, should its worker die mid-send. */
const leaseMarginMs = (timeoutMs: number) => Math.max(5_000, timeoutMs);

/** About 30 s doubling with each attempt, ±20 % jitter so a burst of retries spreads out. */
export function backoffMs(attempts: number, random = Math.random): number {
  return Math.round(FIRST_RETRY_MS * 2 ** (attempts - 1) * (0.8 + 0.4 * random()));
}

/**
 * Sends what the outbox holds, wherever background work runs: a pass when a delivery is added here or
 * falls due, when a send ends, else every DELIVERY_IDLE_MS. Several processes may share the outbox: a
 * delivery is claimed by a compare-and-set that moves its due time past a lease, so one worker
 * attempts it; a worker that dies mid-send leaves it due again when the lease ends.
 * Every attempt is recorded; failures are retried with backoff (Retry-After honoured) up to
 * MAX_ATTEMPTS, except permanent ones (4xx other than 429, refused targets), which fail at once.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private loop: BackgroundLoop | null = null;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** When the soonest delivery not yet due is (ms on the clock), as the last pass saw it. */
  private nextDueAt: number | null = null;

  constructor(
    @Inject(DAEMON_ENABLED) private readonly enabled: boolean,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly outbox: Outbox,
    private readonly channels: ChannelDirectory,
    private readonly queries: QueryBus,
    private readonly email: EmailSender,
    private readonly sender: DeliverySender,
    metrics: Metrics,
  ) {
    this.notifications = metrics.counter('vigil_notifications_total', 'Notification attempts by channel type, alert type and outcome (sent, retry, failed)', ['channel_type', 'alert_type', 'outcome']);
    metrics.gauge('vigil_outbox_pending', 'Deliveries waiting in the outbox', [], async (gauge) => gauge.set((await this.outbox.pending()).count));
    metrics.gauge('vigil_outbox_oldest_pending_seconds', 'Age of the oldest waiting delivery (0 when none waits)', [], async (gauge) => {
      const { oldestCreatedAt } = await this.outbox.pending();
      gauge.set(oldestCreatedAt ? Math.max(0, (this.clock.now().getTime() - Date.parse(oldestCreatedAt)) / 1000) : 0);
    });
  }

  private readonly notifications: Counter<'channel_type' | 'alert_type' | 'outcome'>;

  /** The label /metrics counts a delivery under: the channel's type (EMAIL for SMTP, the HTTP types for webhooks). */
  private async channelTypeOf(doc: DeliveryDoc): Promise<string> {
    if (doc.target.kind !== 'channel') return doc.target.kind === 'subscriber-webhook' ? 'WEBHOOK' : 'EMAIL';
    return (doc.alertChannelId ? (await this.channels.anyDoc(doc.alertChannelId))?.type : null) ?? 'DELETED';
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    await this.outbox.ensure();
    if (!this.email.configured) this.logger.warn('SMTP_URL is not set: email notifications will fail with "SMTP not configured"');
    this.loop = new BackgroundLoop({ name: 'delivery outbox', idleMs: DELIVERY_IDLE_MS, pass: () => this.pass(), logger: this.logger, clock: this.clock });
    this.stopNews = this.outbox.onNews(() => this.loop?.wake());
    this.loop.start();
  }

  private stopNews = (): void => undefined;

  async onApplicationShutdown(): Promise<void> {
    this.stopNews();
    await this.loop?.stop();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Returns the wait until the next pass: none while a backlog drains, else until the next due delivery. */
  private async pass(): Promise<number | null> {
    // A full house waits for a send to free a slot.
    if (this.inFlight.size >= IN_FLIGHT) await Promise.race(this.inFlight.values());
    if ((await this.runOnce()) > 0) return 0;
    return this.nextDueAt === null ? null : Math.max(MIN_WAIT_MS, this.nextDueAt - this.clock.now().getTime());
  }

  /** Claims what is due (up to the in-flight limit) and starts sending it; returns how many it started. */
  async runOnce(): Promise<number> {
    const room = IN_FLIGHT - this.inFlight.size;
    if (room <= 0) return 0;
    const now = this.clock.now().getTime();
    const upcoming = await this.outbox.upcoming(room + this.inFlight.size + 1);
    this.nextDueAt = upcoming.find((doc) => doc.nextAttemptAt! > now)?.nextAttemptAt ?? null;
    let started = 0;
    for (const candidate of upcoming) {
      if (started >= room || candidate.nextAttemptAt! > now) break;
      if (this.inFlight.has(candidate.id)) continue;
      const claimed = await this.claim(candidate.id, now);
      if (!claimed) continue;
      started++;
      const work = this.attempt(claimed.doc, claimed.version)
        .catch((error) => this.logger.error({ err: error, deliveryId: candidate.id }, 'delivery attempt failed unexpectedly'))
        .finally(() => {
          this.inFlight.delete(candidate.id);
          // Its retry may be due sooner than what the loop waits for.
          this.loop?.wake();
        });
      this.inFlight.set(candidate.id, work);
    }
    return started;
  }

  private async claim(id: string, now: number): Promise<{ doc: DeliveryDoc; version: bigint } | null> {
    const stored = await this.outbox.get(id);
    if (!stored || stored.doc.status !== 'PENDING' || stored.doc.nextAttemptAt === null || stored.doc.nextAttemptAt > now) return null;
    const leaseUntil = now + this.attemptBudgetMs(stored.doc) + leaseMarginMs(this.config.deliveryTimeoutMs);
    const doc = { ...stored.doc, nextAttemptAt: leaseUntil, leaseUntil };
    if (!(await this.outbox.replace(doc, stored.version))) return null;
    return { doc, version: stored.version + 1n };
  }

  /** How long one attempt may take: a batch sends its emails BATCH_PARALLEL at a time, each within the timeout. */
  private attemptBudgetMs(doc: DeliveryDoc): number {
    const emails = doc.target.kind === 'incident-emails' ? doc.target.recipients.length : 1;
    return this.config.deliveryTimeoutMs * Math.ceil(emails / BATCH_PARALLEL);
  }

  private async attempt(doc: DeliveryDoc, version: bigint): Promise<void> {
    if (doc.whileOutage !== null && !(await this.outageLasts(doc))) {
      // A reminder or delayed alert whose outage ended (or whose check went quiet) is dropped unsent.
      await this.outbox.remove(doc.id, version);
      return;
    }
    const quotaFrees = await this.overEmailQuota(doc);
    if (quotaFrees !== null) {
      // Not an attempt: sent once the account's hourly email quota frees.
      await this.outbox.replace({ ...doc, nextAttemptAt: quotaFrees, leaseUntil: 0, lastError: "waiting for the account's hourly email quota" }, version);
      return;
    }
    let error: DeliveryError | null = null;
    try {
      if (doc.target.kind === 'incident-emails') doc = { ...doc, target: await this.sender.sendBatch(doc, doc.target) };
      else await this.sender.send(doc);
    } catch (e) {
      error = asDeliveryError(e);
    }
    const now = this.clock.now();
    const attempts = doc.attempts + 1;
    const log = [...doc.attemptLog, { at: now.toISOString(), error: error?.message ?? null }].slice(-20);
    const settled = { ...doc, attempts, lastError: error?.message ?? null, leaseUntil: 0, attemptLog: log };
    const next: DeliveryDoc = !error
      ? { ...settled, status: 'SENT', sentAt: now.toISOString(), nextAttemptAt: null }
      : error.retryable && attempts < MAX_ATTEMPTS
        ? { ...settled, nextAttemptAt: now.getTime() + (error.retryAfterMs ?? backoffMs(attempts)) }
        : { ...settled, status: 'FAILED', nextAttemptAt: null };
    await this.outbox.replace(next, version);
    const outcome = next.status === 'SENT' ? 'sent' : next.status === 'FAILED' ? 'failed' : 'retry';
    this.notifications.inc({ channel_type: await this.channelTypeOf(doc), alert_type: doc.alertType, outcome });
    this.logger.info(
      { deliveryId: doc.id, accountId: doc.accountId, alertType: doc.alertType, alertChannelId: doc.alertChannelId, attempts, status: next.status, error: error?.message },
      error ? 'notification attempt failed' : 'notification sent',
    );
  }

  /** Counts the emails this delivery sends against the account's hourly quota; when it is used up, when it frees (ms). */
  private async overEmailQuota(doc: DeliveryDoc): Promise<number | null> {
    let emails = 0;
    if (doc.target.kind === 'incident-emails') emails = doc.target.recipients.filter((r) => r.state === 'PENDING').length;
    else if (doc.target.kind === 'channel' && doc.alertChannelId && doc.attempts === 0) emails = (await this.channels.anyDoc(doc.alertChannelId))?.type === 'EMAIL' ? 1 : 0;
    // Confirmations were counted when the subscription was asked for; a batch's retry counts only what is left.
    if (emails === 0 || (doc.target.kind === 'incident-emails' && doc.attempts > 0)) return null;
    const now = this.clock.now();
    try {
      // A batch larger than the whole quota goes out at the start of an hour rather than never.
      await new EmailQuota(this.store, { confirmationsPerHour: this.config.emailConfirmationsPerHour, emailsPerHour: this.config.emailsPerHour }).take(doc.accountId, now, 0, Math.min(emails, this.config.emailsPerHour));
      return null;
    } catch (error) {
      if (error instanceof TooManyRequestsError) return now.getTime() + error.retryAfterSeconds * 1000;
      throw error;
    }
  }

  private async outageLasts(doc: DeliveryDoc): Promise<boolean> {
    if (!doc.checkId) return false;
    if (doc.whileOutage!.startsWith(MONITOR_OUTAGE_PREFIX)) return this.monitorOutageLasts(doc.accountId, doc.checkId, doc.whileOutage!);
    if ((await this.queries.execute(new HeartbeatsQuery({ type: 'OngoingOutage', checkId: doc.checkId }))) !== doc.whileOutage) return false;
    return alertable(await this.queries.execute(new HeartbeatsQuery({ type: 'AnyCheck', id: doc.checkId })));
  }

  /** Whether the monitor's outage `outageId` still lasts and the monitor is neither muted nor deactivated. */
  private async monitorOutageLasts(accountId: string, monitorId: string, outageId: string): Promise<boolean> {
    const startedAt = await this.queries.execute(new MonitorsQuery({ type: 'OngoingOutage', accountId, id: monitorId }));
    if (startedAt === null || monitorOutageId(monitorId, startedAt) !== outageId) return false;
    return alertable((await this.queries.execute(new MonitorsQuery({ type: 'GetMonitor', accountId, id: monitorId })))?.monitor ?? null);
  }
}

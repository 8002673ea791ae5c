import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { unlessNotFound } from '../../../core/src/unless-not-found';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { RunSubscriptionsCommand } from '../../../status-pages/src/status-pages.api';
import { EmailConfig } from '../domain/alert-channel';
import { alertOutput, alertSummary, alertTitle, checkLink } from '../domain/alert-message';
import { ChannelDirectory } from '../read/channel-directory';
import { channelRequest, signatureHeaders } from '../send/channel-requests';
import { DeliveryError } from '../send/delivery-error';
import { EmailSender } from '../send/email-sender';
import { markdownHtml, markdownText, statusWord } from '../send/email-markdown';
import { renderEmail } from '../send/email-templates';
import { sendOutbound } from '../send/outbound-http';
import { DeliveryDoc, SubscriberRecipient } from './outbox';
import { CONFIRM_VALID_MS, SubscriberTokens } from './subscriber-tokens';

/** Emails of one subscriber batch sent at once. */
export const BATCH_PARALLEL = 20;

/** One attempt at a delivery, by the kind of its target; a DeliveryError says whether a retry may succeed. */
@Injectable()
export class DeliverySender {
  constructor(
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    private readonly channels: ChannelDirectory,
    private readonly email: EmailSender,
    private readonly tokens: SubscriberTokens,
    private readonly commands: CommandBus,
  ) {}

  /** Sends a delivery to its one recipient (a channel, a confirmation, a subscriber webhook). */
  async send(doc: DeliveryDoc): Promise<void> {
    const target = doc.target;
    switch (target.kind) {
      case 'channel': {
        const channel = doc.alertChannelId ? await this.channels.anyDoc(doc.alertChannelId) : null;
        if (!channel || channel.accountId !== doc.accountId) throw new DeliveryError('alert channel deleted', false);
        const alert = target.alert;
        if (channel.type === 'EMAIL') {
          const title = alertTitle(alert);
          const link = alert.checkId ? checkLink(this.config.publicUrl, alert.checkId) : null;
          const rendered = renderEmail('checkAlert', title, { title, summary: alertSummary(alert), checkName: alert.checkName, checkId: alert.checkId, output: alertOutput(alert), link });
          return this.email.send({ ...rendered, to: (channel.config as EmailConfig).address, messageId: doc.id });
        }
        // webhook-timestamp is checked by receivers against their own clock: it is the wall clock's (so below too).
        const request = channelRequest(channel, alert, doc.id, Math.floor(Date.now() / 1000), this.config);
        await sendOutbound(request, this.config.deliveryTimeoutMs, this.config.outboundAllowPrivate);
        return;
      }
      case 'confirm': {
        const token = await this.tokens.sign({
          purpose: 'confirm',
          subscriptionId: target.subscriptionId,
          statusPageId: target.statusPageId,
          expiresAt: Date.parse(doc.created_at) + CONFIRM_VALID_MS,
        });
        const confirmUrl = `${this.config.publicUrl}/subscriptions/confirm/${token}`;
        const rendered = renderEmail('confirm', `Confirm your subscription to ${target.pageName}`, { pageName: target.pageName, confirmUrl });
        return this.email.send({ ...rendered, to: target.address, messageId: doc.id });
      }
      case 'incident-emails':
        throw new Error('batches are sent by sendBatch');
      case 'subscriber-webhook': {
        const secret = await this.tokens.webhookSecret(target.subscriptionId);
        const { url: unsubscribe } = await this.unsubscribeLink(target);
        const meta = { unsubscribe, documentation: 'https://developer.statuspage.io/#section/Webhooks' };
        const confirming = doc.alertType === 'SUBSCRIPTION_CONFIRM';
        const body = JSON.stringify({ meta, ...target.payload, ...(confirming ? { signing_secret: secret } : {}) });
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = { 'content-type': 'application/json', 'webhook-id': doc.id, 'webhook-timestamp': String(timestamp), ...signatureHeaders(secret, doc.id, timestamp, body) };
        await sendOutbound({ url: target.url, method: 'POST', headers, body }, this.config.deliveryTimeoutMs, this.config.outboundAllowPrivate);
        // The signed test POST answered 2xx: double opt-in done for a webhook (unless unsubscribed meanwhile).
        const verify = { type: 'VerifySubscription' as const, statusPageId: target.statusPageId, id: target.subscriptionId };
        if (confirming) await unlessNotFound(this.commands.execute(new RunSubscriptionsCommand(verify, { accountId: doc.accountId, keyName: 'notifier' })));
        return;
      }
    }
  }

  /**
   * Sends a subscriber batch's unsent emails, BATCH_PARALLEL at a time, and returns the batch with
   * each recipient's outcome; throws (for the batch's retry) when some failed and may succeed later.
   */
  async sendBatch(doc: DeliveryDoc, target: Extract<DeliveryDoc['target'], { kind: 'incident-emails' }>) {
    const recipients = target.recipients.map((r) => ({ ...r }));
    const todo = recipients.filter((r) => r.state === 'PENDING');
    let next = 0;
    const work = async () => {
      while (next < todo.length) {
        const recipient = todo[next++];
        try {
          await this.sendIncidentEmail(target, recipient, doc.incidentId);
          recipient.state = 'SENT';
          recipient.lastError = null;
        } catch (e) {
          const error = asDeliveryError(e);
          recipient.lastError = error.message;
          if (!error.retryable) recipient.state = 'FAILED';
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_PARALLEL, todo.length) }, work));
    const updated = { ...target, recipients };
    const pending = recipients.filter((r) => r.state === 'PENDING');
    const failed = recipients.filter((r) => r.state === 'FAILED');
    if (pending.length > 0 || failed.length > 0) {
      const sample = (pending[0] ?? failed[0]).lastError;
      // The outcomes so far are kept with the delivery: a retry sends only what is still PENDING.
      doc.target = updated;
      throw new DeliveryError(`${pending.length + failed.length} of ${recipients.length} emails not sent: ${sample}`, pending.length > 0);
    }
    return updated;
  }

  /** The subscriber's never-expiring unsubscribe token and link. */
  private async unsubscribeLink(of: { subscriptionId: string; statusPageId: string }): Promise<{ token: string; url: string }> {
    const token = await this.tokens.sign({ purpose: 'unsubscribe', subscriptionId: of.subscriptionId, statusPageId: of.statusPageId, expiresAt: 0 });
    return { token, url: `${this.config.publicUrl}/subscriptions/unsubscribe/${token}` };
  }

  private async sendIncidentEmail(target: Extract<DeliveryDoc['target'], { kind: 'incident-emails' }>, recipient: SubscriberRecipient, incidentId: string | null): Promise<void> {
    const { token, url: unsubscribeUrl } = await this.unsubscribeLink(recipient);
    const pageUrl = recipient.pageUrl ? `${this.config.publicUrl}/status/${encodeURIComponent(recipient.pageUrl)}` : null;
    const status = statusWord(target.status);
    const rendered = renderEmail('incident', `[${recipient.pageName}] ${target.incidentName}: ${status}`, {
      pageName: recipient.pageName,
      incidentName: target.incidentName,
      status,
      body: markdownText(target.description),
      bodyHtml: markdownHtml(target.description),
      pageUrl,
      incidentUrl: pageUrl && incidentId ? `${pageUrl}/incidents/${incidentId}` : null,
      unsubscribeUrl,
    });
    // The mailto: form only where someone reads that mailbox.
    const mailto = this.config.mailInbound ? `, <mailto:${this.config.mailInbound}?subject=unsubscribe%20${token}>` : '';
    return this.email.send({
      ...rendered,
      to: recipient.address,
      messageId: recipient.messageId,
      headers: {
        'List-Unsubscribe': `<${unsubscribeUrl}>${mailto}`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
  }
}

export function asDeliveryError(e: unknown): DeliveryError {
  return e instanceof DeliveryError ? e : new DeliveryError(`unexpected: ${String((e as Error)?.message ?? e).slice(0, 200)}`, true);
}

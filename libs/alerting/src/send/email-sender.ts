import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import SMTPPool from 'nodemailer/lib/smtp-pool';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { DeliveryError } from './delivery-error';
import { RenderedEmail } from './email-templates';

export interface OutgoingEmail extends RenderedEmail {
  to: string;
  /** The delivery id: receivers drop the rare at-least-once duplicate by it. */
  messageId: string;
  headers?: Record<string, string>;
}

/** SMTP through nodemailer's pooled transport; without SMTP_URL every email fails at once. */
@Injectable()
export class EmailSender implements OnModuleDestroy {
  private transport: Transporter | null = null;

  constructor(@Inject(VIGIL_CONFIG) private readonly config: VigilConfig) {}

  get configured(): boolean {
    return this.config.smtpUrl !== null;
  }

  async send(email: OutgoingEmail): Promise<void> {
    if (!this.config.smtpUrl) throw new DeliveryError('SMTP not configured', false);
    // Options beside the URL (not a second argument: that one holds message defaults).
    this.transport ??= nodemailer.createTransport({
      url: this.config.smtpUrl,
      pool: true,
      maxConnections: 20,
      connectionTimeout: this.config.deliveryTimeoutMs,
      greetingTimeout: this.config.deliveryTimeoutMs,
      socketTimeout: this.config.deliveryTimeoutMs,
    } as SMTPPool.Options);
    const host = new URL(this.config.publicUrl).hostname;
    try {
      await this.transport.sendMail({
        from: this.config.mailFrom,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: `<${email.messageId}@${host}>`,
        headers: email.headers,
      });
    } catch (error) {
      const e = error as { responseCode?: number; code?: string; message?: string };
      // 5xx SMTP replies are permanent (a refused recipient); the rest (connection, 4xx) is retried.
      const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
      // Addresses in the server's reply stay out of the log and the delivery log.
      const reply = String(e.message ?? '').replace(/[^\s<>"]+@[^\s<>"]+/g, '<address>').slice(0, 200);
      throw new DeliveryError(`SMTP ${e.responseCode ?? e.code ?? 'error'}: ${reply}`, !permanent);
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

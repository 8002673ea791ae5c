import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EmailSender } from '../../../alerting/src/alerting.api';

/** Sign-in links and invitations by email, through alerting's SMTP sender (SMTP_URL). */
@Injectable()
export class PeopleMail {
  constructor(private readonly sender: EmailSender) {}

  get configured(): boolean {
    return this.sender.configured;
  }

  signInLink(to: string, url: string): Promise<void> {
    return this.send(to, 'Your Vigil sign-in link', [
      'Someone (we hope you) asked to sign in to Vigil with this address.',
      `Open this link to sign in; it works once, for 15 minutes:\n\n${url}`,
      'If you did not ask for it, ignore this email: nobody can sign in without the link.',
    ]);
  }

  invitation(to: string, url: string, role: string): Promise<void> {
    return this.send(to, 'You are invited to Vigil', [
      `You are invited to join a Vigil account as ${role}.`,
      `Open this link to accept; it works once, for 7 days:\n\n${url}`,
    ]);
  }

  private send(to: string, subject: string, paragraphs: string[]): Promise<void> {
    const text = `${paragraphs.join('\n\n')}\n`;
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const html = paragraphs.map((p) => `<p>${escape(p).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>').replace(/\n/g, '<br>')}</p>`).join('\n');
    return this.sender.send({ to, subject, text, html, messageId: randomUUID() });
  }
}

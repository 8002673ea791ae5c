import { NotFoundError } from '../../../core/src/errors';
import { DeliveryDoc, Outbox } from './outbox';

/** A FAILED delivery is PENDING again, due now, with a fresh set of attempts; other states are left alone. */
export async function retryDelivery(outbox: Outbox, accountId: string | null, id: string, now: Date): Promise<DeliveryDoc> {
  for (;;) {
    const stored = await outbox.get(id);
    if (!stored || (accountId !== null && stored.doc.accountId !== accountId)) throw new NotFoundError('Notification not found');
    if (stored.doc.status !== 'FAILED') return stored.doc;
    const target =
      stored.doc.target.kind === 'incident-emails'
        ? { ...stored.doc.target, recipients: stored.doc.target.recipients.map((r) => (r.state === 'FAILED' ? { ...r, state: 'PENDING' as const } : r)) }
        : stored.doc.target;
    const doc: DeliveryDoc = { ...stored.doc, target, status: 'PENDING', attempts: 0, nextAttemptAt: now.getTime(), leaseUntil: 0 };
    if (!(await outbox.replace(doc, stored.version))) continue;
    outbox.news();
    return doc;
  }
}

import { TooManyRequestsError } from '../../../core/src/errors';
import { collectionOf } from '../../../core/src/projection';
import { ReadStore } from '../../../read-store/src/read-store.port';
import { VersionedRecords } from '../../../read-store/src/versioned-records';

/** Per account, for the current clock hour: confirmation emails to unverified addresses, and every email. */
export interface EmailQuotaDoc {
  id: string;
  accountId: string;
  hour: number;
  confirmations: number;
  emails: number;
  [field: string]: unknown;
}

export const EMAIL_QUOTAS = collectionOf<EmailQuotaDoc>('email_quotas');

const HOUR_MS = 3_600_000;

export interface EmailLimits {
  /** Confirmation emails to unverified addresses an account may cause per hour. */
  confirmationsPerHour: number;
  /** Emails of every kind an account may cause per hour. */
  emailsPerHour: number;
}

/**
 * Counts an account's emails per clock hour in the read store (shared by every instance), with
 * compare-and-set increments; a request that would pass a limit is refused with 429 and Retry-After.
 */
export class EmailQuota {
  private static ready = new WeakMap<ReadStore, Promise<void>>();
  private readonly records: VersionedRecords<EmailQuotaDoc>;

  constructor(
    private readonly store: ReadStore,
    private readonly limits: EmailLimits,
  ) {
    this.records = new VersionedRecords(store, EMAIL_QUOTAS);
  }

  /** Takes `confirmations` confirmation emails (each also an email) and `emails` other emails, or throws 429 taking nothing. */
  async take(accountId: string, now: Date, confirmations: number, emails = 0): Promise<void> {
    if (confirmations + emails === 0) return;
    if (!EmailQuota.ready.has(this.store)) EmailQuota.ready.set(this.store, this.store.ensureCollection({ name: EMAIL_QUOTAS, indexes: [] }));
    await EmailQuota.ready.get(this.store);
    const hour = Math.floor(now.getTime() / HOUR_MS);
    // One document per account (its id), reset when the hour turns: nothing piles up.
    const retryAfter = ((hour + 1) * HOUR_MS - now.getTime()) / 1000;
    for (;;) {
      const stored = await this.records.get(accountId);
      const doc = stored && stored.doc.hour === hour ? stored.doc : { id: accountId, accountId, hour, confirmations: 0, emails: 0 };
      if (doc.confirmations + confirmations > this.limits.confirmationsPerHour) {
        throw new TooManyRequestsError(`This account may send ${this.limits.confirmationsPerHour} confirmation emails an hour; try again later`, retryAfter);
      }
      if (doc.emails + confirmations + emails > this.limits.emailsPerHour) {
        throw new TooManyRequestsError(`This account may send ${this.limits.emailsPerHour} emails an hour; try again later`, retryAfter);
      }
      const next = { ...doc, confirmations: doc.confirmations + confirmations, emails: doc.emails + confirmations + emails };
      if (await (stored ? this.records.compareAndSet(next, stored.version) : this.records.insert(next))) return;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { v5 as uuidv5 } from 'uuid';
import { collectionOf } from '../../../core/src/projection';
import { Filter, FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VersionedRecord, VersionedRecords } from '../../../read-store/src/versioned-records';
import { AlertType, CheckAlert } from '../domain/alert-message';

/** SUPPRESSED: an alert muting or a maintenance window silenced, kept in the log with its reason and never sent. */
export type DeliveryStatus = 'PENDING' | 'SENT' | 'FAILED' | 'SUPPRESSED';

/** Who receives a delivery: a channel (its current settings at send time) or a status page subscriber. */
export type DeliveryTarget =
  | { kind: 'channel'; alert: CheckAlert }
  | { kind: 'confirm'; subscriptionId: string; statusPageId: string; pageName: string; address: string }
  | {
      /** One incident event's emails to up to SUBSCRIBER_BATCH subscribers: one outbox write per batch, not per email. */
      kind: 'incident-emails';
      incidentName: string;
      status: string;
      description: string;
      recipients: SubscriberRecipient[];
    }
  | {
      /** A status page's WEBHOOK subscriber: the signed confirmation POST, or an incident in Statuspage's shape. */
      kind: 'subscriber-webhook';
      url: string;
      subscriptionId: string;
      statusPageId: string;
      /** Sent as is (with `meta.unsubscribe` added at send time). */
      payload: Record<string, unknown>;
    };

export interface SubscriberRecipient {
  address: string;
  subscriptionId: string;
  statusPageId: string;
  pageName: string;
  /** The page's slug, for links to it and its incidents (absent on batches stored before links were sent). */
  pageUrl?: string;
  /** The email's Message-ID: stable for this event and address. */
  messageId: string;
  /** SENT, or FAILED for good (a permanent refusal); PENDING ones are sent on the batch's next attempt. */
  state: DeliveryStatus;
  lastError: string | null;
}

export const SUBSCRIBER_BATCH = 100;

/** Which of an account's notifications the log lists (`from` and `to` bound `created_at`). */
export interface NotificationFilter {
  checkId?: string;
  alertChannelId?: string;
  status?: DeliveryStatus;
  from?: string;
  to?: string;
}

export interface AttemptRecord {
  at: string;
  error: string | null;
}

export interface DeliveryDoc {
  id: string;
  accountId: string;
  alertChannelId: string | null;
  checkId: string | null;
  incidentId: string | null;
  alertType: AlertType;
  recipient: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  created_at: string;
  sentAt: string | null;
  /** ms since epoch; null once SENT or FAILED. */
  nextAttemptAt: number | null;
  /** A worker holds the delivery until then (ms since epoch). */
  leaseUntil: number;
  /** Sent only while this outage of the check lasts (reminders, time-based escalation). */
  whileOutage: string | null;
  target: DeliveryTarget;
  attemptLog: AttemptRecord[];
  /** Why a SUPPRESSED delivery was not sent ("the check is muted", "a maintenance window until …"). */
  suppressedReason?: string | null;
  [field: string]: unknown;
}

export const DELIVERIES = collectionOf<DeliveryDoc>('alert_deliveries');

/** What a new delivery says; the bookkeeping fields start the same for every delivery. */
export type NewDelivery = Pick<DeliveryDoc, 'id' | 'accountId' | 'recipient' | 'alertType' | 'target'> & Partial<DeliveryDoc>;

/** A PENDING delivery, due now unless `fields` say when (or that it is SUPPRESSED). */
export function newDelivery(fields: NewDelivery, now: Date): DeliveryDoc {
  return {
    alertChannelId: null,
    checkId: null,
    incidentId: null,
    status: 'PENDING',
    attempts: 0,
    lastError: null,
    created_at: now.toISOString(),
    sentAt: null,
    nextAttemptAt: now.getTime(),
    leaseUntil: 0,
    whileOutage: null,
    attemptLog: [],
    ...fields,
  };
}
// Fixed namespace: the same triggering event and recipient always give the same delivery id.
const NAMESPACE = '4f1d0f6e-4c1a-4a59-9d55-6f1b7f0b8e21';

export const deliveryId = (...parts: string[]) => uuidv5(parts.join('|'), NAMESPACE);

/**
 * The durable outbox of deliveries, in the read store. Every write is a compare-and-set on the
 * delivery's version: an insert of an id that exists changes nothing, and a claim that lost a race to
 * another worker returns false.
 */
@Injectable()
export class Outbox {
  private ready: Promise<void> | null = null;
  private readonly records: VersionedRecords<DeliveryDoc>;
  private readonly listeners = new Set<() => void>();

  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {
    this.records = new VersionedRecords(store, DELIVERIES);
  }

  ensure(): Promise<void> {
    this.ready ??= this.store.ensureCollection({
      name: DELIVERIES,
      indexes: [{ field: 'accountId' }, { field: 'status' }, { field: 'nextAttemptAt' }, { field: 'alertChannelId' }, { field: 'checkId' }],
      sortField: 'created_at',
    });
    return this.ready;
  }

  /** Adds the delivery unless one with its id exists; true when added. */
  async add(doc: DeliveryDoc): Promise<boolean> {
    await this.ensure();
    const added = await this.records.insert(doc);
    if (added) this.news();
    return added;
  }

  /** Calls `listener` when this process adds a delivery or makes one due again (the delivery loop's news); returns the unsubscribe. */
  onNews(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  news(): void {
    for (const listener of this.listeners) listener();
  }

  async get(id: string): Promise<VersionedRecord<DeliveryDoc> | null> {
    await this.ensure();
    return this.records.get(id);
  }

  /** Writes the next version of a delivery read at `version`; false when another writer got there first. */
  async replace(doc: DeliveryDoc, version: bigint): Promise<boolean> {
    return this.records.compareAndSet(doc, version);
  }

  async remove(id: string, version: bigint): Promise<boolean> {
    return this.records.compareAndDelete(id, version);
  }

  /** How many deliveries wait, and when the oldest of them was created (for /metrics). */
  async pending(): Promise<{ count: number; oldestCreatedAt: string | null }> {
    await this.ensure();
    const waiting = [{ field: 'status', op: 'eq' as const, value: 'PENDING' }];
    const [oldest] = await this.store.find(DELIVERIES, { filters: waiting, sort: { field: 'created_at', direction: 'asc' }, limit: 1 });
    return { count: await this.store.count(DELIVERIES, waiting), oldestCreatedAt: oldest?.created_at ?? null };
  }

  /** PENDING deliveries, the soonest due first: what is due, then when the next one is, in one read. */
  async upcoming(limit: number): Promise<DeliveryDoc[]> {
    await this.ensure();
    return this.store.find(DELIVERIES, { filters: [{ field: 'status', op: 'eq', value: 'PENDING' }], sort: { field: 'nextAttemptAt', direction: 'asc' }, limit });
  }

  async list(accountId: string, limit: number, after: FindQuery['after'], filter: NotificationFilter): Promise<DeliveryDoc[]> {
    await this.ensure();
    const filters: Filter[] = [{ field: 'accountId', op: 'eq', value: accountId }];
    for (const field of ['checkId', 'alertChannelId', 'status'] as const) if (filter[field]) filters.push({ field, op: 'eq', value: filter[field] });
    if (filter.from) filters.push({ field: 'created_at', op: 'gte', value: filter.from });
    if (filter.to) filters.push({ field: 'created_at', op: 'lte', value: filter.to });
    return this.store.find(DELIVERIES, { filters, sort: { field: 'created_at', direction: 'desc' }, limit: limit + 1, after });
  }

  /** The operator's view (CLI): newest first across accounts, or one account's. */
  async listByStatus(status: DeliveryStatus, accountId: string | null, limit: number): Promise<DeliveryDoc[]> {
    await this.ensure();
    const filters: Filter[] = [{ field: 'status', op: 'eq', value: status }];
    if (accountId) filters.push({ field: 'accountId', op: 'eq', value: accountId });
    return this.store.find(DELIVERIES, { filters, sort: { field: 'created_at', direction: 'desc' }, limit });
  }

  /** Finished deliveries created before `before`, oldest first. */
  async finishedBefore(before: string, limit: number): Promise<VersionedRecord<DeliveryDoc>[]> {
    await this.ensure();
    const docs = await this.store.find(DELIVERIES, {
      filters: [
        { field: 'status', op: 'in', value: ['SENT', 'FAILED'] },
        { field: 'created_at', op: 'lt', value: before },
      ],
      sort: { field: 'created_at', direction: 'asc' },
      limit,
    });
    return this.records.getMany(docs.map((d) => d.id));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { PENDING_EXPIRY_MS, SubscriptionStatus, SubscriptionType } from '../domain/subscriptions.decider';
import { SubscriptionDoc, subscriptionsProjection } from './subscriptions.projection';

export interface SubscriptionView {
  id: string;
  type: SubscriptionType;
  address: string;
  status: SubscriptionStatus;
  created_at: string;
  updated_at: string;
}

const BATCH = 500;

/** A page's subscribers, from the subscriptions read model. */
@Injectable()
export class SubscriptionDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  /** Every subscription of the page, oldest first (the order they signed up in), but PENDING ones expired at `now`. */
  async list(accountId: string, statusPageId: string, now: Date): Promise<SubscriptionView[]> {
    const expiredBefore = new Date(now.getTime() - PENDING_EXPIRY_MS).toISOString();
    const collection = this.engine.collection(subscriptionsProjection);
    const out: SubscriptionView[] = [];
    let after: { value: string; id: string } | undefined;
    for (;;) {
      const docs = await this.store.find(collection, {
        filters: [{ field: 'statusPageId', op: 'eq', value: statusPageId }],
        sort: { field: 'created_at', direction: 'asc' },
        limit: BATCH,
        after,
      });
      for (const doc of docs) {
        if (doc.accountId === accountId && !(doc.status === 'PENDING' && doc.updated_at <= expiredBefore)) out.push(present(doc));
      }
      if (docs.length < BATCH) return out;
      const last = docs[docs.length - 1];
      after = { value: last.created_at, id: last.id };
    }
  }
}

function present(doc: SubscriptionDoc): SubscriptionView {
  return { id: doc.id, type: doc.type, address: doc.address, status: doc.status, created_at: doc.created_at, updated_at: doc.updated_at };
}

import { randomBytes } from 'node:crypto';
import { collectionOf } from '../../core/src/projection';
import { ReadStore } from '../../read-store/src/read-store.port';
import { VersionedRecords } from '../../read-store/src/versioned-records';

/** How long a key is remembered, as Stripe does. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an attempt holds its key; past it, a retry may take over (the attempt's process may be gone). */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
const PRUNE_BATCH = 500;

/**
 * One Idempotency-Key's record, in the shared read store so that every instance sees it. `pending`: an
 * attempt holds the key; `answered`: its 2xx answer is kept; `released`: attempts ended without an
 * answer (each may have written: `requestIds` lets a retry find what they appended); `pruned`: expired,
 * its answer dropped. Every change is a compare-and-set on the record's version, so of racing writers one wins.
 */
export interface IdempotencyRecord {
  id: string;
  state: 'pending' | 'answered' | 'released' | 'pruned';
  bodyHash: string;
  requestIds: string[];
  /** Secret from which every attempt makes the same ids. */
  seed: string;
  createdAt: number;
  leaseUntil: number;
  expiresAt: number;
  /** When the pruner may drop the answer: expiresAt, or never once pruned. */
  pruneAt: number;
  answer: { statusCode: number; headers: Record<string, string>; payload: string } | null;
  [field: string]: unknown;
}

export const IDEMPOTENCY_KEYS = collectionOf<IdempotencyRecord>('idempotency_keys');

export type Claim =
  | { outcome: 'claimed'; record: IdempotencyRecord; version: bigint; priorRequestIds: string[] }
  | { outcome: 'answered'; answer: NonNullable<IdempotencyRecord['answer']> }
  | { outcome: 'other-body' }
  | { outcome: 'in-progress' };

/** The records' store: claim, finish and prune, each a compare-and-set on the version. */
export class IdempotencyRecords {
  private ready: Promise<void> | null = null;
  private readonly records: VersionedRecords<IdempotencyRecord>;

  constructor(private readonly store: ReadStore) {
    this.records = new VersionedRecords(store, IDEMPOTENCY_KEYS);
  }

  ensure(): Promise<void> {
    this.ready ??= this.store.ensureCollection({ name: IDEMPOTENCY_KEYS, indexes: [{ field: 'pruneAt' }] }).catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /** Takes the key for `requestId` unless it is answered, held by a live attempt, or was used with another body. */
  async claim(scope: string, bodyHash: string, requestId: string, now: number): Promise<Claim> {
    await this.ensure();
    // A key used for the first time (nearly every one) is claimed by its insert alone: no read before it.
    const fresh = this.pending(scope, bodyHash, requestId, now, null);
    if (await this.records.insert(fresh)) return { outcome: 'claimed', record: fresh, version: 1n, priorRequestIds: [] };
    for (let tries = 0; tries < 3; tries++) {
      const stored = await this.records.get(scope);
      const doc = stored?.doc;
      // A key whose attempts were all refused (4xx) wrote nothing: it is free, for any body.
      const used = doc !== undefined && doc.state !== 'pruned' && doc.expiresAt > now && !(doc.state === 'released' && doc.requestIds.length === 0);
      const live = used ? doc : null;
      if (live) {
        if (live.bodyHash !== bodyHash) return { outcome: 'other-body' };
        if (live.state === 'answered' && live.answer) return { outcome: 'answered', answer: live.answer };
        const legacy = live as unknown as { state?: string; statusCode?: number; headers: Record<string, string>; payload: string };
        if (legacy.state === undefined && typeof legacy.statusCode === 'number') return { outcome: 'answered', answer: { statusCode: legacy.statusCode, headers: legacy.headers, payload: legacy.payload } };
        if (live.state === 'pending' && live.leaseUntil > now) return { outcome: 'in-progress' };
      }
      const prior = live ? live.requestIds : [];
      const record = this.pending(scope, bodyHash, requestId, now, live);
      const written = stored ? await this.records.compareAndSet(record, stored.version) : await this.records.insert(record);
      if (written) return { outcome: 'claimed', record, version: stored ? stored.version + 1n : 1n, priorRequestIds: prior };
    }
    return { outcome: 'in-progress' };
  }

  /** The record of an attempt holding the key, continuing `live` (the key's record while in use) if any. */
  private pending(scope: string, bodyHash: string, requestId: string, now: number, live: IdempotencyRecord | null): IdempotencyRecord {
    return {
      id: scope,
      state: 'pending',
      bodyHash,
      requestIds: [...(live ? live.requestIds : []), requestId],
      seed: live?.seed ?? randomBytes(16).toString('hex'),
      createdAt: live?.createdAt ?? now,
      leaseUntil: now + IDEMPOTENCY_LEASE_MS,
      expiresAt: live?.expiresAt ?? now + IDEMPOTENCY_TTL_MS,
      pruneAt: live?.expiresAt ?? now + IDEMPOTENCY_TTL_MS,
      answer: null,
    };
  }

  /**
   * Keeps the attempt's 2xx answer, or releases the key for a retry: an attempt refused with a 4xx is
   * forgotten, one that failed otherwise may have written and stays known. False when another attempt
   * took the key over.
   */
  finish(claimed: { record: IdempotencyRecord; version: bigint }, answer: IdempotencyRecord['answer'], statusCode: number): Promise<boolean> {
    const refused = answer === null && statusCode >= 400 && statusCode < 500;
    const requestIds = refused ? claimed.record.requestIds.slice(0, -1) : claimed.record.requestIds;
    const record: IdempotencyRecord = { ...claimed.record, state: answer ? 'answered' : 'released', requestIds, answer, leaseUntil: 0 };
    return this.records.compareAndSet(record, claimed.version);
  }

  /** Drops the answers of expired records, a batch at a time; returns how many. */
  async prune(now: number): Promise<number> {
    await this.ensure();
    let pruned = 0;
    for (;;) {
      const expired = await this.store.find(IDEMPOTENCY_KEYS, { filters: [{ field: 'pruneAt', op: 'lt', value: now }], limit: PRUNE_BATCH });
      const stored = await this.records.getMany(expired.map((record) => record.id));
      let batch = 0;
      for (const { doc, version } of stored) {
        const compact: IdempotencyRecord = { ...doc, state: 'pruned', requestIds: [], answer: null, pruneAt: Number.MAX_SAFE_INTEGER };
        if (await this.records.compareAndSet(compact, version)) batch++;
      }
      pruned += batch;
      if (expired.length < PRUNE_BATCH || batch === 0) return pruned;
    }
  }
}

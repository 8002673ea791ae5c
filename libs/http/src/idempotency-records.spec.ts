import { InMemoryReadStore } from '../../read-store/src/in-memory.read-store';
import { IDEMPOTENCY_KEYS, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, IdempotencyRecords } from './idempotency-records';

const answer = { statusCode: 201, headers: {}, payload: '{}' };

describe('IdempotencyRecords', () => {
  let store: InMemoryReadStore;
  let records: IdempotencyRecords;

  beforeEach(() => {
    store = new InMemoryReadStore();
    records = new IdempotencyRecords(store);
  });

  it('claims a key once, keeps its answer, and answers a retry with it', async () => {
    const claim = await records.claim('k', 'h', 'r1', 0);
    if (claim.outcome !== 'claimed') throw new Error(claim.outcome);
    expect(await records.claim('k', 'h', 'r2', 1)).toEqual({ outcome: 'in-progress' });
    expect(await records.finish(claim, answer, 201)).toBe(true);
    expect(await records.claim('k', 'h', 'r3', 2)).toEqual({ outcome: 'answered', answer });
    expect(await records.claim('k', 'other', 'r4', 3)).toEqual({ outcome: 'other-body' });
  });

  it('lets a finish lose to a retry that took over the key after the lease', async () => {
    const first = await records.claim('k', 'h', 'r1', 0);
    const second = await records.claim('k', 'h', 'r2', IDEMPOTENCY_LEASE_MS + 1);
    if (first.outcome !== 'claimed' || second.outcome !== 'claimed') throw new Error('not claimed');
    expect(second.priorRequestIds).toEqual(['r1']);
    expect(await records.finish(first, answer, 201)).toBe(false);
    expect(await records.finish(second, answer, 201)).toBe(true);
  });

  it('goes on from a record stored at any version, and prunes expired answers', async () => {
    await records.ensure();
    const stored = { id: 'k', state: 'answered' as const, bodyHash: 'h', requestIds: ['r0'], seed: 's', createdAt: 0, leaseUntil: 0, expiresAt: IDEMPOTENCY_TTL_MS, pruneAt: IDEMPOTENCY_TTL_MS, answer };
    await store.put(IDEMPOTENCY_KEYS, stored, 1_700_000_000_000n);
    expect(await records.claim('k', 'h', 'r1', 1)).toEqual({ outcome: 'answered', answer });
    expect(await records.prune(IDEMPOTENCY_TTL_MS + 1)).toBe(1);
    expect((await store.get(IDEMPOTENCY_KEYS, 'k'))?.doc).toMatchObject({ state: 'pruned', answer: null });
    expect((await records.claim('k', 'h', 'r2', IDEMPOTENCY_TTL_MS + 2)).outcome).toBe('claimed');
  });
});

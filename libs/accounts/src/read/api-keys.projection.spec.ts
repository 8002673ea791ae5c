import { HARNESS_ADAPTERS, ProjectionHarness } from '../../../testing/src/projection-harness';
import { project, recorded } from '../../../testing/src/given-when-then';
import { ApiKeyCreatedData, ApiKeyEvent, apiKeyStream } from '../domain/api-key.decider';
import { ApiKeyDoc, apiKeysProjection } from './api-keys.projection';

const KEY_ID = '01900000-0000-7000-8000-0000000000aa';
const A = '01900000-0000-7000-8000-000000000001';
const B = '01900000-0000-7000-8000-000000000002';
const key: ApiKeyCreatedData = { id: KEY_ID, accountIds: [A, B], role: 'READ_ONLY', name: 'ci', hash: 'f'.repeat(64), prefix: 'vgl_abcd' };
const created: ApiKeyEvent = { type: 'ApiKeyCreated', data: key };
const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { id: KEY_ID } };
const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T11:00:00.000Z'];

describe('api_keys projection', () => {
  it('given ApiKeyCreated, then an active key with its hash, accounts and role', () => {
    const docs = project(apiKeysProjection, recorded(apiKeyStream(KEY_ID), [created], { at: (i) => times[i] }));
    expect(docs.get(KEY_ID)).toEqual({ ...key, revoked: false, created_at: times[0], revoked_at: null });
  });

  it('given ApiKeyCreated and ApiKeyRevoked, then a revoked key with the revocation time', () => {
    const docs = project(apiKeysProjection, recorded(apiKeyStream(KEY_ID), [created, revoked], { at: (i) => times[i] }));
    expect(docs.get(KEY_ID)).toEqual({ ...key, revoked: true, created_at: times[0], revoked_at: times[1] });
  });

  it('given only ApiKeyRevoked (its creation pruned or missing), then no document', () => {
    const [event] = recorded(apiKeyStream(KEY_ID), [revoked]);
    expect(apiKeysProjection.evolve(null, event, KEY_ID)).toBeNull();
  });

  it('declares the indexes its queries use: hash, accounts (array) and created_at', () => {
    expect(apiKeysProjection.indexes).toEqual(expect.arrayContaining([{ field: 'hash' }, { field: 'accountIds', array: true }, { field: 'created_at' }]));
  });

  describe.each(HARNESS_ADAPTERS)('through the engine on %s stores', (adapter) => {
    let harness: ProjectionHarness;
    beforeEach(async () => {
      harness = await ProjectionHarness.start(adapter, [apiKeysProjection]);
    });
    afterEach(() => harness.close());

    it('finds a key by hash and by account', async () => {
      await harness.append(apiKeyStream(KEY_ID), [created], times[0]);
      const byHash = await harness.find<ApiKeyDoc>('api_keys', { filters: [{ field: 'hash', op: 'eq', value: key.hash }], limit: 1 });
      expect(byHash.map((k) => k.id)).toEqual([KEY_ID]);
      for (const account of [A, B]) {
        const byAccount = await harness.find<ApiKeyDoc>('api_keys', { filters: [{ field: 'accountIds', op: 'contains', value: account }], limit: 10 });
        expect(byAccount.map((k) => k.id)).toEqual([KEY_ID]);
      }
    });

    it('a replay of ApiKeyCreated (stale) after the revocation does not bring the key back to life', async () => {
      await harness.append(apiKeyStream(KEY_ID), [created], times[0]);
      await harness.append(apiKeyStream(KEY_ID), [revoked], times[1]);
      const before = await harness.get<ApiKeyDoc>('api_keys', KEY_ID);
      expect(before?.revision).toBe(1n);
      expect(before?.doc.revoked).toBe(true);

      await harness.replayAll();
      expect(await harness.get('api_keys', KEY_ID)).toEqual(before);
    });

    it('a duplicate of the revocation changes nothing', async () => {
      await harness.append(apiKeyStream(KEY_ID), [created, revoked], times[0]);
      const before = await harness.get<ApiKeyDoc>('api_keys', KEY_ID);
      await harness.replayAll();
      await harness.replayAll();
      expect(await harness.get('api_keys', KEY_ID)).toEqual(before);
    });
  });
});

import { Inject, Injectable } from '@nestjs/common';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { ApiKeyDoc, apiKeysProjection } from './api-keys.projection';

/**
 * Key by hash for every authenticated request. Found keys are cached for one second: a revocation
 * (even by the CLI in another process) takes effect within that second; unknown hashes are never
 * cached, so a key created a moment ago works at once.
 */
@Injectable()
export class ApiKeyLookup {
  private static readonly TTL_MS = 1000;
  private static readonly MAX_ENTRIES = 10_000;
  private readonly cache = new Map<string, { key: ApiKeyDoc; until: number }>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  /** The key when it was found within the last second, without a promise; undefined means "ask byHash". */
  cached(hash: string): ApiKeyDoc | undefined {
    const hit = this.cache.get(hash);
    return hit && hit.until > Date.now() ? hit.key : undefined;
  }

  async byHash(hash: string): Promise<ApiKeyDoc | null> {
    const hit = this.cached(hash);
    if (hit) return hit;
    const [key] = await this.store.find(this.engine.collection(apiKeysProjection), {
      filters: [{ field: 'hash', op: 'eq', value: hash }],
      limit: 1,
    });
    if (!key) {
      this.cache.delete(hash);
      return null;
    }
    if (this.cache.size >= ApiKeyLookup.MAX_ENTRIES) this.cache.clear();
    this.cache.set(hash, { key, until: Date.now() + ApiKeyLookup.TTL_MS });
    return key;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Collection } from '../../../core/src/projection';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { PING_KEY_PATTERN } from '../domain/account.decider';
import { accountPingKeysProjection, PingKeyDoc } from './account-ping-keys.projection';

/** A fresh key: 128 random bits as 22 base64url characters. */
export const newPingKey = (): string => randomBytes(16).toString('base64url');

/** The account ping key of slug URLs (`/ping/{pingKey}/{slug}`), resolved back to its account through an indexed read model. */
@Injectable()
export class PingKeys {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  /** The account a ping key belongs to, or null (unknown, rotated away, or not a key's shape). */
  async resolvePingKey(pingKey: string): Promise<string | null> {
    if (!PING_KEY_PATTERN.test(pingKey)) return null;
    const [doc] = await this.store.find(this.collection(), { filters: [{ field: 'pingKey', op: 'eq', value: pingKey }], limit: 1 });
    return doc?.id ?? null;
  }

  async current(accountId: string): Promise<PingKeyDoc | null> {
    return (await this.store.get(this.collection(), accountId))?.doc ?? null;
  }

  private collection(): Collection<PingKeyDoc> {
    return this.engine.collection(accountPingKeysProjection);
  }
}

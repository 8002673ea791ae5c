import { StoreUnavailableError } from '../../../core/src/errors';
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { accountDecider, accountStream, PING_KEY_PATTERN } from '../domain/account.decider';
import { PingKeyDoc } from './account-ping-keys.projection';

/** A fresh key: 128 random bits as 22 base64url characters. */
export const newPingKey = (): string => randomBytes(16).toString('base64url');

/**
 * The account ping key of slug URLs (`/ping/{pingKey}/{slug}`, contract §4.1): shown (issued on first
 * use), rotated, and resolved back to its account through an indexed read model.
 */
@Injectable()
export class PingKeys {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
  ) {}

  /** The account's key, issuing one on first use (two concurrent first uses agree on one key). */
  async show(accountId: string, actor: Actor): Promise<PingKeyDoc> {
    const stored = await this.current(accountId);
    if (stored) return stored;
    await this.runner.run(accountStream(accountId), accountDecider, { type: 'IssuePingKey', id: accountId, pingKey: newPingKey() }, actor);
    return this.written(accountId);
  }

  /** Replaces the key; the old one resolves to nothing from now on. */
  async rotate(accountId: string, actor: Actor): Promise<PingKeyDoc> {
    await this.runner.run(accountStream(accountId), accountDecider, { type: 'RotatePingKey', id: accountId, pingKey: newPingKey() }, actor);
    return this.written(accountId);
  }

  /** The account a ping key belongs to, or null (unknown, rotated away, or not a key's shape). */
  async resolvePingKey(pingKey: string): Promise<string | null> {
    if (!PING_KEY_PATTERN.test(pingKey)) return null;
    const [doc] = await this.store.find<PingKeyDoc>(this.collection(), { filters: [{ field: 'pingKey', op: 'eq', value: pingKey }], limit: 1 });
    return doc?.id ?? null;
  }

  /** The key a command just wrote; a read model that has not followed yet is a 503 to retry, not a crash. */
  private async written(accountId: string): Promise<PingKeyDoc> {
    const doc = await this.current(accountId);
    if (!doc) throw new StoreUnavailableError('The ping key is being written; try again');
    return doc;
  }

  private async current(accountId: string): Promise<PingKeyDoc | null> {
    return (await this.store.get<PingKeyDoc>(this.collection(), accountId))?.doc ?? null;
  }

  private collection(): string {
    return this.engine.collection('account_ping_keys');
  }
}

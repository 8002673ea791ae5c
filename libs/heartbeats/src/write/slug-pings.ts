import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ConflictError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { sleep } from '../../../core/src/sleep';
import { Actor } from '../../../event-store/src/command-runner';
import { PingKeys } from '../../../accounts/src/accounts.api';
import { SLUG_PATTERN } from '../domain/heartbeat-check.decider';
import { CheckDirectory } from '../read/check-directory';
import { CheckInput } from '../domain/heartbeat-check.decider';
import { RunHeartbeatCheckCommand } from './heartbeat-check.handler';

const RACE_WAITS = 10;
const RACE_WAIT_MS = 100;

/** What `/ping/{pingKey}/{slug}` names. */
export type SlugTarget =
  | { found: true; checkId: string; created: boolean }
  | { found: false; reason: 'unknown-key' | 'unknown-slug' | 'invalid-slug' }
  | { found: false; reason: 'rate-limited'; retryAfter: number };

/** Contract §4.1: a check created by its first ping (`?create=1`) has period 1 day and grace 1 hour. */
export function autoCreatedCheck(slug: string): CheckInput {
  return {
    name: slug,
    activated: true,
    muted: false,
    tags: [],
    description: null,
    slug,
    heartbeat: { period: 1, periodUnit: 'days', schedule: null, timezone: null, grace: 1, graceUnit: 'hours', pingToken: null },
    triggerIncident: null,
    alertSettings: null,
    alertChannelSubscriptions: [],
  };
}

/**
 * Resolves slug URLs to the check (and its ping token) the ping routes then record against, creating
 * it on `?create=1`. Kept apart from the routes: `/ping/{token}/{exitCode}` and `/ping/{pingKey}/{slug}`
 * share one path shape, so the ping routes dispatch (UUID → token route, else slug) and call this.
 */
@Injectable()
export class SlugPings {
  /** Creates in flight in this process, so concurrent first pings of one slug share one create. */
  private readonly creating = new Map<string, Promise<SlugTarget>>();

  constructor(
    private readonly keys: PingKeys,
    private readonly checks: CheckDirectory,
    private readonly commands: CommandBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** `createLimit`: asked (with the account) before a create starts; a refusal comes back as `rate-limited`. */
  async resolve(
    pingKey: string,
    slug: string,
    options: { create: boolean; createLimit?: (accountId: string) => { allowed: boolean; retryAfter: number }; requestId?: string },
  ): Promise<SlugTarget> {
    const accountId = await this.keys.resolvePingKey(pingKey);
    if (!accountId) return { found: false, reason: 'unknown-key' };
    if (!SLUG_PATTERN.test(slug)) return { found: false, reason: 'invalid-slug' };
    const existing = await this.checks.checkBySlug(accountId, slug);
    if (existing) return { found: true, checkId: existing.id, created: false };
    if (!options.create) return { found: false, reason: 'unknown-slug' };
    const key = `${accountId}:${slug}`;
    let pending = this.creating.get(key);
    if (!pending) {
      const rate = options.createLimit?.(accountId) ?? { allowed: true, retryAfter: 0 };
      if (!rate.allowed) return { found: false, reason: 'rate-limited', retryAfter: rate.retryAfter };
      pending = this.create(accountId, slug, options.requestId).finally(() => this.creating.delete(key));
      this.creating.set(key, pending);
    }
    return pending;
  }

  private async create(accountId: string, slug: string, requestId: string | undefined): Promise<SlugTarget> {
    const actor: Actor = { accountId, keyId: null, keyName: 'ping ?create=1', requestId: requestId ?? null };
    try {
      const id = this.ids.next();
      await this.commands.execute(new RunHeartbeatCheckCommand({ type: 'CreateHeartbeatCheck', id, accountId, config: autoCreatedCheck(slug) }, actor));
      return { found: true, checkId: id, created: true };
    } catch (error) {
      // Another instance's first ping holds the slug: its check appears once that create commits.
      if (!(error instanceof ConflictError)) throw error;
      for (let attempt = 0; attempt < RACE_WAITS; attempt++) {
        const winner = await this.checks.checkBySlug(accountId, slug);
        if (winner) return { found: true, checkId: winner.id, created: false };
        await sleep(RACE_WAIT_MS);
      }
      throw error;
    }
  }
}

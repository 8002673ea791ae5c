import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConcurrencyError, ConflictError } from '../../../core/src/errors';
import { handledEvent, RecordedEvent } from '../../../core/src/event';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';

/** A claim younger than this whose check does not exist yet belongs to a create still in flight. */
const IN_FLIGHT_MS = 60_000;
const MAX_ATTEMPTS = 20;

export const checkSlugStream = (accountId: string, slug: string) => `checkslug-${accountId}-${slug}`;

type SlugClaimed = { type: 'CheckSlugClaimed'; data: { checkId: string; slug: string } };

/** The check holding the slug after `last`, the stream's last event: a claim's check, else none. */
const holderAfter = (last: RecordedEvent | undefined): string | null => (last ? (handledEvent<SlugClaimed>(['CheckSlugClaimed'], last)?.data.checkId ?? null) : null);

/**
 * Slugs are unique per account, the way ping tokens are unique overall (see PingTokenClaims): a
 * stream per (account, slug) whose last event names the holder, claimed with the expected revision,
 * so two concurrent writers never both win one slug. A claim left by a crash is taken over.
 */
@Injectable()
export class CheckSlugClaims {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async claim(accountId: string, slug: string, checkId: string, actor: Actor): Promise<void> {
    const stream = checkSlugStream(accountId, slug);
    for (let attempt = 1; ; attempt++) {
      const history = await this.events.readStream(stream);
      const last = history[history.length - 1];
      const holder = holderAfter(last);
      if (holder === checkId) return;
      if (holder && (await this.stillHeld(slug, holder, last.metadata.occurredAt))) {
        throw new ConflictError('slug is already used by another check of this account');
      }
      try {
        await this.events.appendToStream(stream, [{ type: 'CheckSlugClaimed', data: { checkId, slug }, metadata: this.metadata(actor) }], {
          expectedRevision: last ? last.revision : 'no_stream',
        });
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  async release(accountId: string, slug: string, checkId: string, actor: Actor): Promise<void> {
    const stream = checkSlugStream(accountId, slug);
    const history = await this.events.readStream(stream);
    const last = history[history.length - 1];
    if (!last || holderAfter(last) !== checkId) return;
    try {
      await this.events.appendToStream(stream, [{ type: 'CheckSlugReleased', data: { checkId, slug }, metadata: this.metadata(actor) }], {
        expectedRevision: last.revision,
      });
    } catch (error) {
      // Someone else took the slug over meanwhile: nothing left to release.
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }

  private async stillHeld(slug: string, checkId: string, claimedAt: string): Promise<boolean> {
    const { state, revision } = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
    if (revision === null) return this.clock.now().getTime() - Date.parse(claimedAt) < IN_FLIGHT_MS;
    return state.status === 'active' && state.config?.slug === slug;
  }

  private metadata(actor: Actor) {
    return {
      accountId: actor.accountId,
      keyId: actor.keyId ?? null,
      keyName: actor.keyName ?? null,
      requestId: actor.requestId ?? null,
      occurredAt: this.clock.now().toISOString(),
    };
  }
}

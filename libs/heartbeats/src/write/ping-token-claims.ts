import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { ConcurrencyError, ConflictError } from '../../../core/src/errors';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { pingTokenStream } from '../domain/heartbeat-timer';

/** A claim younger than this whose check does not exist yet belongs to a create still in flight. */
const IN_FLIGHT_MS = 60_000;
const MAX_ATTEMPTS = 20;

/**
 * Ping tokens are unique across all accounts: each has a stream `pingtoken-<token>` whose last
 * event says who holds it, and claims append with the expected revision, so two instances can never
 * both win one token. A claim left behind by a crash (its check never written, or no longer using
 * the token) is taken over.
 */
@Injectable()
export class PingTokenClaims {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async claim(token: string, checkId: string, actor: Actor): Promise<void> {
    const stream = pingTokenStream(token);
    for (let attempt = 1; ; attempt++) {
      const history = await this.events.readStream(stream);
      const last = history[history.length - 1];
      const holder = last?.type === 'PingTokenClaimed' ? (last.data as { checkId: string }).checkId : null;
      if (holder === checkId) return;
      if (holder && (await this.stillHeld(token, holder, last.metadata.occurredAt))) {
        throw new ConflictError('pingToken is already used by another check');
      }
      try {
        await this.events.appendToStream(stream, [{ type: 'PingTokenClaimed', data: { checkId }, metadata: this.metadata(actor) }], {
          expectedRevision: last ? last.revision : 'no_stream',
        });
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  async release(token: string, checkId: string, actor: Actor): Promise<void> {
    const stream = pingTokenStream(token);
    const history = await this.events.readStream(stream);
    const last = history[history.length - 1];
    if (last?.type !== 'PingTokenClaimed' || (last.data as { checkId: string }).checkId !== checkId) return;
    try {
      await this.events.appendToStream(stream, [{ type: 'PingTokenReleased', data: { checkId }, metadata: this.metadata(actor) }], {
        expectedRevision: last.revision,
      });
    } catch (error) {
      // Someone else took the token over meanwhile: nothing left to release.
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }

  private async stillHeld(token: string, checkId: string, claimedAt: string): Promise<boolean> {
    const { state, revision } = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
    if (revision === null) return this.clock.now().getTime() - Date.parse(claimedAt) < IN_FLIGHT_MS;
    return state.status === 'active' && state.config?.heartbeat.pingToken === token;
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

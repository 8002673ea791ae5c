import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { pingTokenStream } from '../domain/heartbeat.decider';
import { pingTokenDecider } from '../domain/ping-token.decider';

/** A claim younger than this whose check does not exist yet belongs to a create still in flight. */
const IN_FLIGHT_MS = 60_000;

/**
 * Ping tokens are unique across all accounts: each has a stream `pingtoken-<token>` whose last
 * event says who holds it, written through the command runner with the expected revision, so two
 * instances can never both win one token. A claim left behind by a crash (its check never written, or no longer using
 * the token) is taken over.
 */
@Injectable()
export class PingTokenClaims {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async claim(token: string, checkId: string, actor: Actor): Promise<void> {
    const stream = pingTokenStream(token);
    const { state, events } = await this.runner.load(stream, pingTokenDecider);
    const holder = state.holder;
    const stale = holder !== null && holder !== checkId && !(await this.stillHeld(token, holder, events[events.length - 1].metadata.occurredAt));
    await this.runner.run(stream, pingTokenDecider, { type: 'Claim', checkId, staleHolder: stale ? holder : null }, actor);
  }

  async release(token: string, checkId: string, actor: Actor): Promise<void> {
    await this.runner.run(pingTokenStream(token), pingTokenDecider, { type: 'Release', checkId }, actor);
  }

  private async stillHeld(token: string, checkId: string, claimedAt: string): Promise<boolean> {
    const { state, revision } = await this.runner.load(checkStream(checkId), heartbeatCheckDecider);
    if (revision === null) return this.clock.now().getTime() - Date.parse(claimedAt) < IN_FLIGHT_MS;
    return state.status === 'active' && state.config?.heartbeat.pingToken === token;
  }
}

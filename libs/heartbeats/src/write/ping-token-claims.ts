import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Decider } from '../../../core/src/decider';
import { DomainEvent } from '../../../core/src/event';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { ClaimCommand, pingTokenDecider } from '../domain/claim.decider';
import { CheckConfig, checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';
import { pingTokenStream } from '../domain/heartbeat.decider';

/** A claim younger than this whose check does not exist yet belongs to a create still in flight. */
const IN_FLIGHT_MS = 60_000;

/**
 * Claims a name's stream for `checkId` through the command runner, so two instances never both win
 * it; a claim left behind by a crash (its check never written, or no longer `using` the name) is
 * taken over.
 */
export async function claimName<Event extends DomainEvent>(
  runner: CommandRunner,
  clock: Clock,
  stream: string,
  decider: Decider<{ holder: string | null }, ClaimCommand, Event>,
  checkId: string,
  actor: Actor,
  using: (config: CheckConfig) => boolean,
): Promise<void> {
  const { state, events } = await runner.load(stream, decider);
  const holder = state.holder;
  let stale = false;
  if (holder !== null && holder !== checkId) {
    const check = await runner.load(checkStream(holder), heartbeatCheckDecider);
    const claimedAt = Date.parse(events[events.length - 1].metadata.occurredAt);
    const held = check.revision === null ? clock.now().getTime() - claimedAt < IN_FLIGHT_MS : check.state.status === 'active' && check.state.config !== null && using(check.state.config);
    stale = !held;
  }
  await runner.run(stream, decider, { type: 'Claim', checkId, staleHolder: stale ? holder : null }, actor);
}

/** Ping tokens are unique across all accounts: each has a stream `pingtoken-<token>` (see claimDecider). */
@Injectable()
export class PingTokenClaims {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  claim(token: string, checkId: string, actor: Actor): Promise<void> {
    return claimName(this.runner, this.clock, pingTokenStream(token), pingTokenDecider, checkId, actor, (config) => config.heartbeat.pingToken === token);
  }

  async release(token: string, checkId: string, actor: Actor): Promise<void> {
    await this.runner.run(pingTokenStream(token), pingTokenDecider, { type: 'Release', checkId }, actor);
  }
}

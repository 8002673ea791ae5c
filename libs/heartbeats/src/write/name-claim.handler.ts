import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Decider } from '../../../core/src/decider';
import { DomainEvent } from '../../../core/src/event';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { checkSlugDecider, checkSlugStream, ClaimCommand, pingTokenDecider, pingTokenStream } from '../domain/claim.decider';
import { CheckConfig, checkStream, heartbeatCheckDecider } from '../domain/heartbeat-check.decider';

type ClaimState = { holder: string | null };

/** A claim younger than this whose check does not exist yet belongs to a create still in flight. */
const IN_FLIGHT_MS = 60_000;

/** A name that must be unique: a ping token (across all accounts) or a check slug (within its account). */
export type ClaimedName = { kind: 'pingToken'; token: string } | { kind: 'slug'; accountId: string; slug: string };

export class RunNameClaimCommand extends AggregateCommand<ClaimCommand, void> {
  constructor(
    readonly name: ClaimedName,
    command: ClaimCommand,
    actor: Actor,
  ) {
    super(command, actor);
  }
}

/**
 * Claims and releases a name's stream (`pingtoken-<token>`, `checkslug-<account>-<slug>`), so two instances
 * never both win it; a claim left behind by a crash (its check never written, or no longer using the name)
 * is taken over.
 */
@CommandHandler(RunNameClaimCommand)
export class NameClaimCommandHandler implements ICommandHandler<RunNameClaimCommand, void> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ name, command, actor }: RunNameClaimCommand): Promise<void> {
    if (name.kind === 'pingToken') return this.run(pingTokenStream(name.token), pingTokenDecider, command, actor, (c) => c.heartbeat.pingToken === name.token);
    return this.run(checkSlugStream(name.accountId, name.slug), checkSlugDecider(name.slug), command, actor, (c) => c.slug === name.slug);
  }

  private async run<E extends DomainEvent>(stream: string, decider: Decider<ClaimState, ClaimCommand, E>, command: ClaimCommand, actor: Actor, using: (config: CheckConfig) => boolean): Promise<void> {
    if (command.type === 'Claim') command = { ...command, staleHolder: await this.staleHolder(stream, decider, command.checkId, using) };
    await this.runner.run(stream, decider, command, actor);
  }

  private async staleHolder<E extends DomainEvent>(stream: string, decider: Decider<ClaimState, ClaimCommand, E>, checkId: string, using: (config: CheckConfig) => boolean): Promise<string | null> {
    const { state, events } = await this.runner.load(stream, decider);
    const holder = state.holder;
    if (holder === null || holder === checkId) return null;
    const check = await this.runner.load(checkStream(holder), heartbeatCheckDecider);
    const claimedAt = Date.parse(events[events.length - 1].metadata.occurredAt);
    const held =
      check.revision === null
        ? this.clock.now().getTime() - claimedAt < IN_FLIGHT_MS
        : check.state.status === 'active' && check.state.config !== null && using(check.state.config);
    return held ? null : holder;
  }
}

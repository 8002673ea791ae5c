import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { checkSlugDecider } from '../domain/claim.decider';
import { claimName } from './ping-token-claims';

export const checkSlugStream = (accountId: string, slug: string) => `checkslug-${accountId}-${slug}`;

/** Slugs are unique per account, the way ping tokens are unique overall: a stream per (account, slug). */
@Injectable()
export class CheckSlugClaims {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  claim(accountId: string, slug: string, checkId: string, actor: Actor): Promise<void> {
    return claimName(this.runner, this.clock, checkSlugStream(accountId, slug), checkSlugDecider(slug), checkId, actor, (config) => config.slug === slug);
  }

  async release(accountId: string, slug: string, checkId: string, actor: Actor): Promise<void> {
    await this.runner.run(checkSlugStream(accountId, slug), checkSlugDecider(slug), { type: 'Release', checkId }, actor);
  }
}

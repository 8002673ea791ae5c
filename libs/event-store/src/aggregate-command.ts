import { Command } from '@nestjs/cqrs';
import { Actor } from './command-runner';

/**
 * What every write hands to its aggregate's one command handler: the decider's own command (a typed union),
 * who acts, and the client's If-Match. One subclass per aggregate (`RunIncidentCommand`), one handler each.
 */
export abstract class AggregateCommand<C, R> extends Command<R> {
  constructor(
    readonly command: C,
    readonly actor: Actor,
    readonly ifMatch?: bigint,
  ) {
    super();
  }
}

import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { Actor, CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { OutageCommand, outageDecider, OutageEvent, OutageState, outageStream } from '../domain/outage.decider';

export type OutageRun = RunResult<OutageState, OutageEvent>;

/** A command of one outage's incident record; `outageKey` is the eventId of the outage's first FAILING. */
export class RunOutageCommand extends AggregateCommand<OutageCommand, OutageRun> {
  constructor(
    readonly outageKey: string,
    command: OutageCommand,
    actor: Actor,
  ) {
    super(command, actor);
  }
}

@CommandHandler(RunOutageCommand)
export class OutageCommandHandler implements ICommandHandler<RunOutageCommand, OutageRun> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ outageKey, command, actor }: RunOutageCommand): Promise<OutageRun> {
    return this.runner.run(outageStream(outageKey), outageDecider, command, actor);
  }
}

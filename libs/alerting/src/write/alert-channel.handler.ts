import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { AlertChannelCommand, alertChannelDecider, AlertChannelEvent, AlertChannelState, alertChannelStream } from '../domain/alert-channel.decider';

export type AlertChannelRun = RunResult<AlertChannelState, AlertChannelEvent>;

export class RunAlertChannelCommand extends AggregateCommand<AlertChannelCommand, AlertChannelRun> {}

/** Every write to `alertchannel-<id>`. */
@CommandHandler(RunAlertChannelCommand)
export class AlertChannelCommandHandler implements ICommandHandler<RunAlertChannelCommand, AlertChannelRun> {
  constructor(@Inject(COMMAND_RUNNER) private readonly runner: CommandRunner) {}

  execute({ command, actor, ifMatch }: RunAlertChannelCommand): Promise<AlertChannelRun> {
    return this.runner.run(alertChannelStream(command.id), alertChannelDecider, command, actor, { ifMatch });
  }
}

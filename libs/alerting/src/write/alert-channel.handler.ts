import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { CLOCK, Clock } from '../../../core/src/clock';
import { NotFoundError } from '../../../core/src/errors';
import { AlertChannelCommand, alertChannelDecider, AlertChannelEvent, AlertChannelState, alertChannelStream } from '../domain/alert-channel.decider';
import { retryDelivery } from './delivery-retry';
import { Outbox } from './outbox';

export type AlertChannelRun = RunResult<AlertChannelState, AlertChannelEvent>;

export class RunAlertChannelCommand extends AggregateCommand<AlertChannelCommand, AlertChannelRun> {}

/** Every write to `alertchannel-<id>`; a retry, once recorded, makes its delivery due again in the outbox. */
@CommandHandler(RunAlertChannelCommand)
export class AlertChannelCommandHandler implements ICommandHandler<RunAlertChannelCommand, AlertChannelRun> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  async execute({ command, actor, ifMatch }: RunAlertChannelCommand): Promise<AlertChannelRun> {
    if (command.type !== 'RetryAlertDelivery') return this.runner.run(alertChannelStream(command.id), alertChannelDecider, command, actor, { ifMatch });
    const stored = await this.outbox.get(command.notificationId);
    // Another channel's or account's delivery is indistinguishable from a missing one.
    if (!stored || stored.doc.accountId !== command.accountId || stored.doc.alertChannelId !== command.id) throw new NotFoundError('Notification not found');
    const result = await this.runner.run(alertChannelStream(command.id), alertChannelDecider, { ...command, failed: stored.doc.status === 'FAILED' }, actor, { ifMatch });
    if (result.appended.length > 0) await retryDelivery(this.outbox, command.accountId, command.notificationId, this.clock.now());
    return result;
  }
}

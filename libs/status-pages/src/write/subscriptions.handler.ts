import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { outboundUrlProblem } from '../../../core/src/outbound-address';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult } from '../../../event-store/src/command-runner';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { requireOwned, statusPageDecider, statusPageStream } from '../domain/status-page.decider';
import { isDeliverableAddress } from '../domain/subscriber-address';
import { SubscriptionData, SubscriptionsCommand, subscriptionsDecider, SubscriptionsEvent, SubscriptionsState, subscriptionsStream } from '../domain/subscriptions.decider';

export class RunSubscriptionsCommand extends AggregateCommand<SubscriptionsCommand, RunResult<SubscriptionsState, SubscriptionsEvent>> {}

/**
 * The one entry of a page's subscription writes. Adding and removing need the page to be the account's;
 * candidates that could never be delivered to are dropped (the caller counts them as skipped).
 */
@CommandHandler(RunSubscriptionsCommand)
export class SubscriptionsCommandHandler implements ICommandHandler<RunSubscriptionsCommand, RunResult<SubscriptionsState, SubscriptionsEvent>> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async execute({ command, actor, ifMatch }: RunSubscriptionsCommand): Promise<RunResult<SubscriptionsState, SubscriptionsEvent>> {
    if (command.type === 'AddSubscriptions' || command.type === 'RemoveSubscription') {
      const { state } = await this.runner.load(statusPageStream(command.statusPageId), statusPageDecider);
      requireOwned(state, command.accountId);
    }
    const decided: SubscriptionsCommand = command.type === 'AddSubscriptions' ? { ...command, candidates: command.candidates.filter((c) => this.deliverable(c)) } : command;
    return this.runner.run(subscriptionsStream(command.statusPageId), subscriptionsDecider, decided, actor, { ifMatch });
  }

  private deliverable({ type, address }: SubscriptionData): boolean {
    return type === 'EMAIL' ? isDeliverableAddress(address) : this.isWebhookTarget(address);
  }

  /** https (http too where private targets are allowed: closed networks, tests), at most 2,048 characters. */
  private isWebhookTarget(url: string): boolean {
    if (url.length > 2048 || outboundUrlProblem(url, { allowPrivate: this.config.outboundAllowPrivate }) !== null) return false;
    return url.startsWith('https://') || this.config.outboundAllowPrivate;
  }
}

/** Subscriptions a command added (the bulk API's `created`). */
export function addedCount(result: RunResult<SubscriptionsState, SubscriptionsEvent>): number {
  return result.decided.reduce((sum, event) => sum + (event.type === 'StatusPageSubscriptionsAdded' ? event.data.subscriptions.length : 0), 0);
}

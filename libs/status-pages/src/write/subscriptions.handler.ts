import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { outboundUrlProblem } from '../../../core/src/outbound-address';
import { AggregateCommand } from '../../../event-store/src/aggregate-command';
import { CommandRunner, RunResult, SnapshotLoader } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { requireOwned, statusPageDecider, statusPageStream } from '../domain/status-page.decider';
import { isDeliverableAddress } from '../domain/subscriber-address';
import { SubscriptionData, SubscriptionsCommand, subscriptionsDecider, SubscriptionsEvent, SubscriptionsState, subscriptionsStream } from '../domain/subscriptions.decider';
import { subscriptionStatesProjection, toSubscriptionsState } from '../read/subscription-states.projection';
import { EmailQuota } from './email-quota';

export class RunSubscriptionsCommand extends AggregateCommand<SubscriptionsCommand, RunResult<SubscriptionsState, SubscriptionsEvent>> {}

/**
 * The one entry of a page's subscription writes. Adding and removing need the page to be the account's;
 * candidates that could never be delivered to are dropped (the caller counts them as skipped). A write
 * starts from the page's subscriptions state document and folds only what came after it, so its cost does
 * not grow with the page's subscription history.
 */
@CommandHandler(RunSubscriptionsCommand)
export class SubscriptionsCommandHandler implements ICommandHandler<RunSubscriptionsCommand, RunResult<SubscriptionsState, SubscriptionsEvent>> {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async execute({ command, actor, ifMatch }: RunSubscriptionsCommand): Promise<RunResult<SubscriptionsState, SubscriptionsEvent>> {
    if (command.type === 'AddSubscriptions' || command.type === 'RemoveSubscription') {
      const { state } = await this.runner.load(statusPageStream(command.statusPageId), statusPageDecider);
      requireOwned(state, command.accountId);
    }
    const decided: SubscriptionsCommand = command.type === 'AddSubscriptions' ? { ...command, candidates: command.candidates.filter((c) => this.deliverable(c)) } : command;
    if (decided.type === 'AddSubscriptions') {
      // Each new unverified address may cost a confirmation email: counted (at most) before any is written.
      const confirmations = decided.candidates.filter((c) => c.type === 'EMAIL' && c.status === 'PENDING').length;
      await new EmailQuota(this.store, { confirmationsPerHour: this.config.emailConfirmationsPerHour, emailsPerHour: this.config.emailsPerHour }).take(decided.accountId, new Date(decided.requestedAt), confirmations);
    }
    return this.runner.run(subscriptionsStream(command.statusPageId), subscriptionsDecider, decided, actor, { ifMatch, snapshot: this.snapshot(command.statusPageId) });
  }

  private snapshot(statusPageId: string): SnapshotLoader<SubscriptionsState> {
    return async () => {
      const stored = await this.store.get(this.engine.collection(subscriptionStatesProjection), statusPageId);
      return stored && { state: toSubscriptionsState(stored.doc), revision: stored.revision };
    };
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

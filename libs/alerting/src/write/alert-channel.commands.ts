import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { NotFoundError, ValidationError } from '../../../core/src/errors';
import { ID_GENERATOR, IdGenerator } from '../../../core/src/ids';
import { Actor, CommandRunner } from '../../../event-store/src/command-runner';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { COMMAND_RUNNER } from '../../../platform/src/tokens';
import { CheckDirectory } from '../../../heartbeats/src/read/check-directory';
import { SetAlertChannelSubscriptionCommand } from '../../../heartbeats/src/write/check.commands';
import { parseChannelBody } from '../domain/alert-channel';
import { resolvedTargetProblems } from '../send/target-check';
import { alertChannelDecider, alertChannelStream, requireChannel } from '../domain/alert-channel.decider';
import { ChannelDirectory } from '../read/channel-directory';

/**
 * Writes of the alert channel API. A subscription is stored on its check (the one source of truth),
 * so the channel's side of it is a command on the check's stream.
 */
@Injectable()
export class AlertChannelCommands {
  constructor(
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    private readonly commands: CommandBus,
    private readonly checks: CheckDirectory,
    private readonly channels: ChannelDirectory,
  ) {}

  async create(accountId: string, body: unknown, actor: Actor): Promise<string> {
    const parsed = parseChannelBody(body, { allowPrivate: this.config.outboundAllowPrivate });
    if (!parsed.settings) throw ValidationError.of(parsed.details);
    await this.requirePublicTarget(parsed.settings.config);
    if (parsed.subscriptions) await this.requireChecks(accountId, parsed.subscriptions.map((s) => s.checkId));
    const id = this.ids.next();
    await this.runner.run(alertChannelStream(id), alertChannelDecider, { type: 'CreateAlertChannel', id, accountId, settings: parsed.settings }, actor);
    for (const s of parsed.subscriptions ?? []) await this.subscribe(accountId, id, s.checkId, s.activated, actor);
    return id;
  }

  async update(accountId: string, id: string, body: unknown, actor: Actor, ifMatch?: bigint): Promise<void> {
    const { state } = await this.runner.load(alertChannelStream(id), alertChannelDecider);
    const stored = requireChannel(state, accountId);
    const parsed = parseChannelBody(body, { allowPrivate: this.config.outboundAllowPrivate }, stored);
    if (!parsed.settings) throw ValidationError.of(parsed.details);
    await this.requirePublicTarget(parsed.settings.config);
    if (parsed.subscriptions) await this.requireChecks(accountId, parsed.subscriptions.map((s) => s.checkId));
    await this.runner.run(alertChannelStream(id), alertChannelDecider, { type: 'UpdateAlertChannel', id, accountId, settings: parsed.settings }, actor, { ifMatch });
    if (!parsed.subscriptions) return;
    const wanted = new Map(parsed.subscriptions.map((s) => [s.checkId, s.activated]));
    for (const current of await this.channels.subscriptionsOf(accountId, id)) {
      if (!wanted.has(current.checkId)) await this.subscribe(accountId, id, current.checkId, null, actor);
    }
    for (const [checkId, activated] of wanted) await this.subscribe(accountId, id, checkId, activated, actor);
  }

  async delete(accountId: string, id: string, actor: Actor, ifMatch?: bigint): Promise<void> {
    await this.runner.run(alertChannelStream(id), alertChannelDecider, { type: 'DeleteAlertChannel', id, accountId }, actor, { ifMatch });
    // Deleting a channel removes its subscriptions from every check.
    for (const s of await this.channels.subscriptionsOf(accountId, id)) {
      await this.subscribe(accountId, id, s.checkId, null, actor).catch((error) => {
        if (!(error instanceof NotFoundError)) throw error;
      });
    }
  }

  /** PUT /v1/alert-channels/{id}/subscriptions. */
  async setSubscription(accountId: string, id: string, checkId: string, activated: boolean, actor: Actor): Promise<void> {
    const { state } = await this.runner.load(alertChannelStream(id), alertChannelDecider);
    requireChannel(state, accountId);
    if (!(await this.checks.owns(accountId, checkId))) throw new NotFoundError('Check not found');
    await this.subscribe(accountId, id, checkId, activated, actor);
  }

  async requestTest(accountId: string, id: string, actor: Actor): Promise<string> {
    const notificationId = this.ids.next();
    await this.runner.run(alertChannelStream(id), alertChannelDecider, { type: 'RequestAlertChannelTest', id, accountId, notificationId }, actor);
    return notificationId;
  }

  /** A URL whose name resolves to a private address is refused as its address would be. */
  private async requirePublicTarget(config: unknown): Promise<void> {
    const problems = await resolvedTargetProblems(config, { allowPrivate: this.config.outboundAllowPrivate });
    if (problems.length > 0) throw ValidationError.of(problems);
  }

  private subscribe(accountId: string, channelId: string, checkId: string, activated: boolean | null, actor: Actor): Promise<void> {
    return this.commands.execute(new SetAlertChannelSubscriptionCommand(accountId, checkId, channelId, activated, actor));
  }

  private async requireChecks(accountId: string, checkIds: string[]): Promise<void> {
    const details = [];
    for (const [i, checkId] of checkIds.entries()) {
      if (!(await this.checks.owns(accountId, checkId))) details.push({ path: `subscriptions[${i}].checkId`, message: 'must name an existing check of this account' });
    }
    if (details.length > 0) throw ValidationError.of(details);
  }
}

import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import { unlessNotFound } from '../../../core/src/unless-not-found';
import { Actor } from '../../../event-store/src/command-runner';
import { HeartbeatsQuery, RunHeartbeatCheckCommand } from '../../../heartbeats/src/heartbeats.api';
import { ChannelDirectory } from '../read/channel-directory';

/**
 * The channel's side of its subscriptions. A subscription is stored on its check (the one source of truth),
 * so each change is a command of the heartbeats context on the check.
 */
@Injectable()
export class ChannelSubscriptions {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly channels: ChannelDirectory,
  ) {}

  /** True when the check exists and belongs to the account. */
  async checkExists(accountId: string, checkId: string): Promise<boolean> {
    return (await this.queries.execute(new HeartbeatsQuery({ type: 'GetCheck', accountId, id: checkId }))) !== null;
  }

  /** Refuses subscriptions naming checks that are not the account's. */
  async requireChecks(accountId: string, checkIds: string[]): Promise<void> {
    const details: ViolationDetail[] = [];
    for (const [i, checkId] of checkIds.entries()) {
      if (!(await this.checkExists(accountId, checkId))) details.push({ path: `subscriptions[${i}].checkId`, message: 'must name an existing check of this account' });
    }
    if (details.length > 0) throw ValidationError.of(details);
  }

  /** `activated` null removes the subscription. */
  set(accountId: string, channelId: string, checkId: string, activated: boolean | null, actor: Actor): Promise<unknown> {
    const command = { type: 'SetAlertChannelSubscription' as const, id: checkId, accountId, alertChannelId: channelId, activated };
    return this.commands.execute(new RunHeartbeatCheckCommand(command, actor));
  }

  /** Makes the channel's subscriptions exactly `wanted`. */
  async replace(accountId: string, channelId: string, wanted: { checkId: string; activated: boolean }[], actor: Actor): Promise<void> {
    const kept = new Set(wanted.map((s) => s.checkId));
    for (const current of await this.channels.subscriptionsOf(accountId, channelId)) {
      if (!kept.has(current.checkId)) await this.set(accountId, channelId, current.checkId, null, actor);
    }
    for (const s of wanted) await this.set(accountId, channelId, s.checkId, s.activated, actor);
  }

  /** A deleted channel leaves every check; a check deleted meanwhile has nothing to leave. */
  async removeAll(accountId: string, channelId: string, actor: Actor): Promise<void> {
    for (const s of await this.channels.subscriptionsOf(accountId, channelId)) await unlessNotFound(this.set(accountId, channelId, s.checkId, null, actor));
  }
}

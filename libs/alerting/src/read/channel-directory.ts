import { Inject, Injectable } from '@nestjs/common';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { alertChannelDecider, alertChannelStream } from '../domain/alert-channel.decider';
import { ChannelSettings, maskedConfig } from '../domain/alert-channel';
import { alertChannelsProjection, ChannelDoc } from './alert-channels.projection';
import { checkSubscriptionsProjection } from './check-subscriptions.projection';
import { getOwn } from '../../../read-store/src/account-docs';
import { newestOfAccount } from '../../../http/src/account-pages';

export interface ChannelView extends ChannelSettings {
  id: string;
  subscriptions: { checkId: string; activated: boolean }[];
  created_at: string;
  updated_at: string;
}

/** Alert channels as the API shows them (secrets masked), and their subscriptions from the checks' side. */
@Injectable()
export class ChannelDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
  ) {}

  /**
   * Any account's channel, for the notifier and the worker, which act for the account of their event:
   * from the read model, or folded from its stream when this process's read model has not caught up yet.
   */
  async anyDoc(id: string): Promise<ChannelDoc | null> {
    const stored = await this.store.get(this.engine.collection(alertChannelsProjection), id);
    if (stored) return stored.doc;
    const { state, events } = await this.runner.load(alertChannelStream(id), alertChannelDecider);
    if (state.status !== 'active' || !state.accountId || !state.settings) return null;
    const at = events[0].metadata.occurredAt;
    return { id, accountId: state.accountId, ...state.settings, created_at: at, updated_at: events[events.length - 1].metadata.occurredAt };
  }

  async get(accountId: string, id: string): Promise<{ channel: ChannelView; revision: bigint } | null> {
    const stored = await getOwn(this.store, this.engine.collection(alertChannelsProjection), accountId, id);
    if (!stored) return null;
    const [channel] = await this.present([stored.doc]);
    return { channel, revision: stored.revision };
  }

  /** One page, newest first, one row more than `limit`. */
  list(accountId: string, limit: number, after: FindQuery['after']): Promise<ChannelDoc[]> {
    return newestOfAccount(this.store, this.engine.collection(alertChannelsProjection), accountId, limit, after);
  }

  /** Which of these ids name channels of the account. */
  async existing(accountId: string, ids: string[]): Promise<Set<string>> {
    const found = await this.store.getMany(this.engine.collection(alertChannelsProjection), ids);
    return new Set(found.filter((s) => s.doc.accountId === accountId).map((s) => s.doc.id));
  }

  /** Checks subscribed to the channel, with their `activated`. */
  async subscriptionsOf(accountId: string, channelId: string): Promise<{ checkId: string; activated: boolean }[]> {
    const docs = await this.store.find(this.engine.collection(checkSubscriptionsProjection), {
      filters: [
        { field: 'channelIds', op: 'contains', value: channelId },
        { field: 'accountId', op: 'eq', value: accountId },
      ],
      limit: 10_000,
    });
    return docs.map((doc) => ({ checkId: doc.id, activated: doc.subscriptions.find((s) => s.alertChannelId === channelId)?.activated ?? true }));
  }

  async present(docs: ChannelDoc[]): Promise<ChannelView[]> {
    return Promise.all(docs.map(async (doc) => ({ ...this.settingsOf(doc), subscriptions: await this.subscriptionsOf(doc.accountId, doc.id) })));
  }

  /** A channel as shown (secrets masked), without the subscriptions that cost a scan of the checks each. */
  settingsOf(doc: ChannelDoc): Omit<ChannelView, 'subscriptions'> {
    return {
      id: doc.id,
      type: doc.type,
      config: maskedConfig(doc.type, doc.config),
      sendRecovery: doc.sendRecovery,
      sendFailure: doc.sendFailure,
      sendDegraded: doc.sendDegraded,
      sslExpiry: doc.sslExpiry,
      sslExpiryThreshold: doc.sslExpiryThreshold,
      created_at: doc.created_at,
      updated_at: doc.updated_at,
    };
  }
}

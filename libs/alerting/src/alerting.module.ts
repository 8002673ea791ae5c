import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyInstance } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { CommandRunner } from '../../event-store/src/command-runner';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { ProcessorRunner } from '../../read-store/src/processor-runner';
import { COMMAND_RUNNER, PROCESSOR_RUNNER, PROJECTION_ENGINE } from '../../platform/src/tokens';
import { CheckAlertLinks, HeartbeatsModule } from '../../heartbeats/src/heartbeats.api';
import { MaintenanceModule } from '../../maintenance/src/maintenance.module';
import { StatusPagesModule } from '../../status-pages/src/status-pages.module';
import { PublicWebModule } from '../../public-web/src/public-web.module';
import { PublicRenderer } from '../../public-web/src/render/public-renderer';
import { alertSettingsProblems } from './domain/alert-settings';
import { AlertChannelsController } from './http/alert-channels.controller';
import { AlertNotificationsController } from './http/alert-notifications.controller';
import { registerSubscriberLinkRoutes } from './http/subscriber-links.routes';
import { alertChannelsProjection } from './read/alert-channels.projection';
import { ChannelDirectory } from './read/channel-directory';
import { checkSubscriptionsProjection } from './read/check-subscriptions.projection';
import { EmailSender } from './send/email-sender';
import { AlertingQueryHandler } from './read/alerting.queries';
import { AlertChannelCommandHandler } from './write/alert-channel.handler';
import { ChannelSubscriptions } from './write/channel-subscriptions';
import { DeliveryLogRetention } from './write/delivery-log-retention';
import { DeliveryWorker } from './write/delivery-worker';
import { Notifier } from './write/notifier.processor';
import { Outbox } from './write/outbox';
import { SubscriberNotices } from './write/subscriber-notices';
import { SubscriberTokens } from './write/subscriber-tokens';

/**
 * Alert channels, check alerts and subscriber emails (docs/alerting.md): the channel API, the
 * notifier (a processor of the event log) filling a durable outbox, and the worker sending it.
 */
@Module({
  imports: [HeartbeatsModule, StatusPagesModule, MaintenanceModule, PublicWebModule],
  controllers: [AlertChannelsController, AlertNotificationsController],
  providers: [ChannelDirectory, AlertingQueryHandler, AlertChannelCommandHandler, ChannelSubscriptions, Outbox, Notifier, SubscriberNotices, SubscriberTokens, EmailSender, DeliveryWorker, DeliveryLogRetention],
  exports: [Outbox, DeliveryWorker],
})
export class AlertingModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    @Inject(PROCESSOR_RUNNER) processors: ProcessorRunner,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    notifier: Notifier,
    links: CheckAlertLinks,
    channels: ChannelDirectory,
    private readonly tokens: SubscriberTokens,
    private readonly commands: CommandBus,
    private readonly adapterHost: HttpAdapterHost,
    private readonly renderer: PublicRenderer,
  ) {
    engine.register(alertChannelsProjection);
    engine.register(checkSubscriptionsProjection);
    processors.register(notifier);
    // A check may only subscribe to channels of its own account; its alertSettings are Checkly's shape.
    links.register(async (accountId, config) => {
      const details = alertSettingsProblems(config.alertSettings);
      const ids = config.alertChannelSubscriptions.map((s) => s.alertChannelId);
      const existing = ids.length > 0 ? await channels.existing(accountId, ids) : new Set<string>();
      ids.forEach((id, i) => {
        if (!existing.has(id)) details.push({ path: `alertChannelSubscriptions[${i}].alertChannelId`, message: 'must name an alert channel of this account' });
      });
      return details;
    });
  }

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    registerSubscriberLinkRoutes(adapter.getInstance() as FastifyInstance, {
      tokens: this.tokens,
      runner: this.runner,
      execute: (command) => this.commands.execute(command),
      clock: this.clock,
      render: (heading, paragraphs, options) => this.renderer.message(null, null, heading, paragraphs, options),
    });
  }
}

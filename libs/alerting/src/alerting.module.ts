import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyInstance } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { ProcessorRunner } from '../../read-store/src/processor-runner';
import { PROCESSOR_RUNNER, PROJECTION_ENGINE } from '../../platform/src/tokens';
import { HeartbeatsModule, CheckAlertLinks } from '../../heartbeats/src/heartbeats.api';
import { MaintenanceModule } from '../../maintenance/src/maintenance.api';
import { StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { PublicRenderer, PublicWebModule } from '../../public-web/src/public-web.api';
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
import { DeliverySender } from './write/delivery-sender';
import { DeliveryWorker } from './write/delivery-worker';
import { Notifier } from './write/notifier.processor';
import { LocationAlerts } from './write/location-alerts.processor';
import { Outbox } from './write/outbox';
import { SubscriberNotices } from './write/subscriber-notices';
import { SubscriberTokens } from './write/subscriber-tokens';
import { MonitorLinks, MonitorsModule } from '../../monitors/src/monitors.api';
import { MonitorNotifier } from './write/monitor-notifier.processor';
import { AlertFanOut } from './write/alert-fan-out';

/**
 * Alert channels, check alerts and subscriber emails (docs/alerting.md): the channel API, the
 * notifier (a processor of the event log) filling a durable outbox, and the worker sending it.
 */
@Module({
  imports: [HeartbeatsModule, MonitorsModule, StatusPagesModule, MaintenanceModule, PublicWebModule],
  controllers: [AlertChannelsController, AlertNotificationsController],
  providers: [ChannelDirectory, AlertingQueryHandler, AlertChannelCommandHandler, ChannelSubscriptions, Outbox, Notifier, LocationAlerts, SubscriberNotices, SubscriberTokens, EmailSender, DeliverySender, DeliveryWorker, DeliveryLogRetention, MonitorNotifier, AlertFanOut],
  exports: [Outbox, DeliveryWorker],
})
export class AlertingModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    @Inject(PROCESSOR_RUNNER) processors: ProcessorRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    notifier: Notifier,
    links: CheckAlertLinks,
    monitorNotifier: MonitorNotifier,
    locationAlerts: LocationAlerts,
    monitorLinks: MonitorLinks,
    channels: ChannelDirectory,
    private readonly tokens: SubscriberTokens,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly adapterHost: HttpAdapterHost,
    private readonly renderer: PublicRenderer,
  ) {
    engine.register(alertChannelsProjection);
    engine.register(checkSubscriptionsProjection);
    processors.register(notifier);
    processors.register(monitorNotifier);
    processors.register(locationAlerts);
    // A check or monitor may only subscribe to channels of its own account; its alertSettings are Checkly's shape.
    const validate = async (accountId: string, config: { alertSettings: unknown; alertChannelSubscriptions?: { alertChannelId: string }[] }) => {
      const details = alertSettingsProblems(config.alertSettings);
      const ids = (config.alertChannelSubscriptions ?? []).map((s) => s.alertChannelId);
      const existing = ids.length > 0 ? await channels.existing(accountId, ids) : new Set<string>();
      ids.forEach((id, i) => {
        if (!existing.has(id)) details.push({ path: `alertChannelSubscriptions[${i}].alertChannelId`, message: 'must name an alert channel of this account' });
      });
      return details;
    };
    links.register(validate);
    monitorLinks.register(validate);
  }

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    const { tokens, commands, queries, clock, renderer } = this;
    registerSubscriberLinkRoutes(adapter.getInstance() as FastifyInstance, { tokens, commands, queries, clock, renderer });
  }
}

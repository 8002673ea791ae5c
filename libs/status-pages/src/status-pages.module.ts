import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ServicesController } from './http/services.controller';
import { StatusPagesController } from './http/status-pages.controller';
import { SubscriptionsController } from './http/subscriptions.controller';
import { PageIncidents } from './read/page-incidents';
import { ServiceDirectory } from './read/service-directory';
import { StatusPageListCache } from './read/page-list-cache';
import { ServiceLinks } from './read/service-links';
import { servicesProjection } from './read/services.projection';
import { StatusPageDirectory } from './read/status-page-directory';
import { statusPagesProjection } from './read/status-pages.projection';
import { SubscriptionDirectory } from './read/subscription-directory';
import { subscriptionsProjection } from './read/subscriptions.projection';
import { AddressReservations } from './write/address-reservations';
import { CreateServiceHandler, DeleteServiceHandler, UpdateServiceHandler } from './write/service.commands';
import { CreateStatusPageHandler, DeleteStatusPageHandler, UpdateStatusPageHandler } from './write/status-page.commands';
import { AddSubscriptionsHandler, RemoveSubscriptionHandler, VerifySubscriptionHandler } from './write/subscription.commands';

/**
 * Services, status pages and their subscribers. Other contexts use the exported queries and
 * registries: ServiceDirectory and StatusPageDirectory to read, ServiceLinks to tell which checks
 * and what else use a service, PageIncidents to give pages their incidents.
 */
@Module({
  // Static routes (/services) are registered before /:statusPageId; Fastify prefers them either way.
  controllers: [ServicesController, StatusPagesController, SubscriptionsController],
  providers: [
    ServiceLinks,
    ServiceDirectory,
    PageIncidents,
    StatusPageDirectory,
    StatusPageListCache,
    SubscriptionDirectory,
    AddressReservations,
    CreateServiceHandler,
    UpdateServiceHandler,
    DeleteServiceHandler,
    CreateStatusPageHandler,
    UpdateStatusPageHandler,
    DeleteStatusPageHandler,
    AddSubscriptionsHandler,
    RemoveSubscriptionHandler,
    VerifySubscriptionHandler,
  ],
  exports: [ServiceLinks, ServiceDirectory, StatusPageDirectory, PageIncidents, SubscriptionDirectory],
})
export class StatusPagesModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine, links: ServiceLinks, pages: StatusPageDirectory) {
    engine.register(servicesProjection);
    engine.register(statusPagesProjection);
    engine.register(subscriptionsProjection);
    // A service on a card cannot be deleted (409) until no card shows it.
    links.addUsageSource(async (accountId, serviceId) => {
      const page = await pages.pageUsingService(accountId, serviceId);
      return page === null ? null : `status page "${page}"`;
    });
  }
}

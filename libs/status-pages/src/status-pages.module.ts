import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ServicesController } from './http/services.controller';
import { StatusPagesController } from './http/status-pages.controller';
import { SubscriptionsController } from './http/subscriptions.controller';
import { PageIncidents } from './read/page-incidents';
import { ServiceDirectory } from './read/service-directory';
import { ServiceLinks } from './read/service-links';
import { servicesProjection } from './read/services.projection';
import { StatusPageDirectory } from './read/status-page-directory';
import { statusPagesProjection } from './read/status-pages.projection';
import { subscriptionsProjection } from './read/subscriptions.projection';
import { subscriptionStatesProjection } from './read/subscription-states.projection';
import { StatusPagesQueryHandler } from './read/status-pages.queries';
import { AddressClaimCommandHandler } from './write/address-claim.handler';
import { CustomDomainChecks } from './write/custom-domain-checks';
import { ServiceCommandHandler } from './write/service.handler';
import { StatusPageCommandHandler } from './write/status-page.handler';
import { SubscriptionsCommandHandler } from './write/subscriptions.handler';

/**
 * Services, status pages and their subscribers. Other contexts use its face (status-pages.api.ts): the
 * Run…Command classes and StatusPagesQuery, ServiceDirectory and StatusPageDirectory to read, ServiceLinks
 * to tell which checks and what else use a service, PageIncidents to give pages their incidents.
 */
@Module({
  // Static routes (/services) are registered before /:statusPageId; Fastify prefers them either way.
  controllers: [ServicesController, StatusPagesController, SubscriptionsController],
  providers: [
    ServiceLinks,
    ServiceDirectory,
    PageIncidents,
    StatusPageDirectory,
    StatusPagesQueryHandler,
    AddressClaimCommandHandler,
    CustomDomainChecks,
    ServiceCommandHandler,
    StatusPageCommandHandler,
    SubscriptionsCommandHandler,
  ],
  exports: [ServiceLinks, ServiceDirectory, StatusPageDirectory, PageIncidents, CustomDomainChecks],
})
export class StatusPagesModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine, links: ServiceLinks, pages: StatusPageDirectory) {
    for (const projection of [servicesProjection, statusPagesProjection, subscriptionsProjection, subscriptionStatesProjection]) engine.register(projection);
    // A service on a card cannot be deleted (409) until no card shows it.
    links.addUsageSource(async (accountId, serviceId) => {
      const page = await pages.pageUsingService(accountId, serviceId);
      return page === null ? null : `status page "${page}"`;
    });
  }
}

import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { PageIncidents, ServiceLinks, StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { IncidentBodies } from './http/incident-bodies';
import { IncidentUpdatesController } from './http/incident-updates.controller';
import { IncidentsController } from './http/incidents.controller';
import { IncidentTemplatesController } from './http/incident-templates.controller';
import { IncidentDirectory } from './read/incident-directory';
import { IncidentTemplateDirectory } from './read/incident-template-directory';
import { incidentTemplatesProjection } from './read/incident-templates.projection';
import { IncidentsQueryHandler } from './read/incidents.queries';
import { incidentsProjection } from './read/incidents.projection';
import { IncidentCommandHandler } from './write/incident.handler';
import { IncidentTemplateCommandHandler } from './write/incident-template.handler';

@Module({
  imports: [StatusPagesModule],
  controllers: [IncidentsController, IncidentUpdatesController, IncidentTemplatesController],
  providers: [IncidentDirectory, IncidentTemplateDirectory, IncidentBodies, IncidentsQueryHandler, IncidentCommandHandler, IncidentTemplateCommandHandler],
  exports: [IncidentDirectory],
})
export class IncidentsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine, links: ServiceLinks, pages: PageIncidents, incidents: IncidentDirectory) {
    engine.register(incidentsProjection);
    // Templates do not hold their services: a service deleted since a template was saved is dropped when it is read.
    engine.register(incidentTemplatesProjection);
    // A service named by an open incident cannot be deleted (409).
    links.addUsageSource((accountId, serviceId) => incidents.openIncidentUsing(accountId, serviceId));
    // Status pages show the open and recently resolved incidents of their services.
    pages.register(
      async (accountId, serviceIds, since) => (await incidents.touching(accountId, serviceIds, since)).map((incident) => ({ ...incident })),
      () => [engine.collection(incidentsProjection)],
    );
  }
}

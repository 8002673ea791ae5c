import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ServiceLinks } from '../../status-pages/src/read/service-links';
import { StatusPagesModule } from '../../status-pages/src/status-pages.module';
import { IncidentBodies } from './http/incident-bodies';
import { IncidentUpdatesController } from './http/incident-updates.controller';
import { IncidentsController } from './http/incidents.controller';
import { IncidentDirectory } from './read/incident-directory';
import { GetIncidentHistoryHandler } from './read/incident-history.query';
import { incidentsProjection } from './read/incidents.projection';
import { StatusPageLinksModule } from './status-page-links.module';
import {
  ChangeIncidentHandler,
  CreateIncidentHandler,
  DeleteIncidentHandler,
  DeleteIncidentUpdateHandler,
  EditIncidentUpdateHandler,
  PostIncidentUpdateHandler,
} from './write/incident.commands';

@Module({
  imports: [StatusPagesModule, StatusPageLinksModule],
  controllers: [IncidentsController, IncidentUpdatesController],
  providers: [
    IncidentDirectory,
    IncidentBodies,
    GetIncidentHistoryHandler,
    CreateIncidentHandler,
    ChangeIncidentHandler,
    DeleteIncidentHandler,
    PostIncidentUpdateHandler,
    EditIncidentUpdateHandler,
    DeleteIncidentUpdateHandler,
  ],
  exports: [IncidentDirectory],
})
export class IncidentsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine, links: ServiceLinks, incidents: IncidentDirectory) {
    engine.register(incidentsProjection);
    // A service named by an open incident cannot be deleted (409).
    links.addUsageSource((accountId, serviceId) => incidents.openIncidentUsing(accountId, serviceId));
  }
}

import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/src/audit.api';
import { PeopleModule } from '../../people/src/people.api';
import { PublicWebModule } from '../../public-web/src/public-web.api';
import { StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { ConsoleAlertChannelsController } from './http/alert-channels.controller';
import { ConsoleApiKeysController } from './http/api-keys.controller';
import { ConsoleAccess } from './http/console-access';
import { ConsoleAuditController } from './http/audit.controller';
import { ConsoleChecksController } from './http/checks.controller';
import { ConsoleIncidentsController } from './http/incidents.controller';
import { ConsoleIncidentTemplatesController } from './http/incident-templates.controller';
import { ConsoleMaintenanceController } from './http/maintenance.controller';
import { ConsoleServicesController } from './http/services.controller';
import { ConsoleStatusPagesController } from './http/status-pages.controller';
import { ConsoleSubscribersController } from './http/subscribers.controller';
import { IncidentActions } from './http/incident-actions';
import { ConsoleIncidentUpdatesController } from './http/incident-updates.controller';
import { IncidentList } from './read/incident-list';
import { OverviewController } from './http/overview.controller';
import { AuditReads } from './read/audit-reads';
import { ConsoleReads } from './read/console-reads';
import { ConsolePages } from './render/console-pages';
import { ConsoleMonitorsController } from './http/monitors-console.controller';
import { MonitorPages } from './render/monitors-pages';

/**
 * The operator console (docs/guide/console.md): server-rendered pages over the other contexts' faces. It sends
 * their Run…Commands and asks their …Queries; sessions and roles come from people. No store of its own.
 */
@Module({
  imports: [PeopleModule, StatusPagesModule, AuditModule, PublicWebModule],
  controllers: [OverviewController, ConsoleIncidentsController, ConsoleIncidentUpdatesController, ConsoleChecksController,
    ConsoleStatusPagesController, ConsoleSubscribersController, ConsoleServicesController, ConsoleMaintenanceController,
    ConsoleAlertChannelsController, ConsoleApiKeysController, ConsoleAuditController, ConsoleMonitorsController, ConsoleIncidentTemplatesController],
  providers: [ConsoleAccess, ConsoleReads, ConsolePages, AuditReads, IncidentActions, IncidentList, MonitorPages],
})
export class ConsoleModule {}

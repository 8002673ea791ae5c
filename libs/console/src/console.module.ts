import { Module } from '@nestjs/common';
import { PeopleModule } from '../../people/src/people.api';
import { ConsoleAccess } from './http/console-access';
import { ConsoleChecksController } from './http/checks.controller';
import { ConsoleIncidentsController } from './http/incidents.controller';
import { IncidentActions } from './http/incident-actions';
import { ConsoleIncidentUpdatesController } from './http/incident-updates.controller';
import { IncidentList } from './read/incident-list';
import { PublicWebModule } from '../../public-web/src/public-web.api';
import { OverviewController } from './http/overview.controller';
import { ConsoleReads } from './read/console-reads';
import { ConsolePages } from './render/console-pages';

/**
 * The operator console (docs/guide/console.md): server-rendered pages over the other contexts' faces. It sends
 * their Run…Commands and asks their …Queries; sessions and roles come from people. No store of its own.
 */
@Module({
  imports: [PeopleModule, PublicWebModule],
  controllers: [OverviewController, ConsoleIncidentsController, ConsoleChecksController,
    ConsoleIncidentUpdatesController],
  providers: [ConsoleAccess, ConsoleReads, ConsolePages,
    IncidentActions, IncidentList],
})
export class ConsoleModule {}

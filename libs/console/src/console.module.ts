import { Module } from '@nestjs/common';
import { PeopleModule } from '../../people/src/people.api';
import { ConsoleAccess } from './http/console-access';
import { ConsoleChecksController } from './http/checks.controller';
import { ConsoleIncidentsController } from './http/incidents.controller';
import { OverviewController } from './http/overview.controller';
import { ConsoleReads } from './read/console-reads';
import { ConsolePages } from './render/console-pages';
import { ConsoleMonitorsController } from './http/monitors-console.controller';
import { MonitorPages } from './render/monitors-pages';

/**
 * The operator console (docs/guide/console.md): server-rendered pages over the other contexts' faces. It sends
 * their Run…Commands and asks their …Queries; sessions and roles come from people. No store of its own.
 */
@Module({
  imports: [PeopleModule],
  controllers: [OverviewController, ConsoleIncidentsController, ConsoleChecksController, ConsoleMonitorsController],
  providers: [ConsoleAccess, ConsoleReads, ConsolePages, MonitorPages],
})
export class ConsoleModule {}

import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../../../libs/accounts/src/accounts.api';
import { StatusPagesModule } from '../../../libs/status-pages/src/status-pages.api';
import { HeartbeatsModule } from '../../../libs/heartbeats/src/heartbeats.api';
import { IncidentsModule } from '../../../libs/incidents/src/incidents.api';
import { AgentModule } from '../../../libs/agent/src/agent.api';
import { MaintenanceModule } from '../../../libs/maintenance/src/maintenance.api';
import { PublicWebModule } from '../../../libs/public-web/src/public-web.api';
import { AlertingModule } from '../../../libs/alerting/src/alerting.api';
import { PeopleModule } from '../../../libs/people/src/people.api';
import { MonitorsModule } from '../../../libs/monitors/src/monitors.api';
import { ConsoleModule } from '../../../libs/console/src/console.api';
import { AuditModule } from '../../../libs/audit/src/audit.api';
import { PlatformModule } from '../../../libs/platform/src/platform.module';
import { PlatformOptions } from '../../../libs/platform/src/platform.options';

/** Every bounded context; the API, the worker and the CLI load the same set so they share projections. */
export const CONTEXT_MODULES = [
  AccountsModule,
  StatusPagesModule,
  IncidentsModule,
  HeartbeatsModule,
  MaintenanceModule,
  AgentModule,
  PublicWebModule,
  AlertingModule,
  PeopleModule,
  ConsoleModule,
  MonitorsModule,
  AuditModule,
];

/** The contexts without HTTP: the worker's background work (`daemon`), or the CLI's commands and queries alone. */
@Module({})
export class HeadlessModule {
  static forRoot(options: PlatformOptions, daemon: boolean): DynamicModule {
    return { module: HeadlessModule, imports: [PlatformModule.forRoot({ ...options, daemon }), ...CONTEXT_MODULES] };
  }
}

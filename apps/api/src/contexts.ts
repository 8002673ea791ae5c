import { AccountsModule } from '../../../libs/accounts/src/accounts.module';
import { StatusPagesModule } from '../../../libs/status-pages/src/status-pages.module';
import { HeartbeatsModule } from '../../../libs/heartbeats/src/heartbeats.module';
import { IncidentsModule } from '../../../libs/incidents/src/incidents.module';
import { AgentModule } from '../../../libs/agent/src/agent.module';
import { MaintenanceModule } from '../../../libs/maintenance/src/maintenance.module';
import { PublicWebModule } from '../../../libs/public-web/src/public-web.module';
import { AlertingModule } from '../../../libs/alerting/src/alerting.module';
import { MonitorsModule } from '../../../libs/monitors/src/monitors.api';

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
  MonitorsModule,
];

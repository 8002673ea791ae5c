import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ServiceLinks, StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { MaintenanceWindowsController } from './http/maintenance-windows.controller';
import { MaintenanceDirectory } from './read/maintenance-directory';
import { maintenanceWindowsProjection } from './read/maintenance-windows.projection';
import { MaintenanceQueryHandler } from './read/maintenance.queries';
import { MaintenanceWindowCommandHandler } from './write/maintenance-window.handler';

/** Maintenance windows: their API, and the queries the watchdog, alerts and public pages will ask. */
@Module({
  imports: [StatusPagesModule],
  controllers: [MaintenanceWindowsController],
  providers: [MaintenanceDirectory, MaintenanceQueryHandler, MaintenanceWindowCommandHandler],
  exports: [MaintenanceDirectory],
})
export class MaintenanceModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine, links: ServiceLinks, windows: MaintenanceDirectory) {
    engine.register(maintenanceWindowsProjection);
    // A service a maintenance window names cannot be deleted (409) until no window names it.
    links.addUsageSource(async (accountId, serviceId) => {
      const window = await windows.usingService(accountId, serviceId);
      return window === null ? null : `maintenance window "${window.name}"`;
    });
  }
}

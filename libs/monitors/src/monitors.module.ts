import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { CheckResultsController } from './http/check-results.controller';
import { MonitorsController } from './http/monitors.controller';
import { monitorRollupsProjection } from './read/monitor-rollups.projection';
import { monitorsProjection } from './read/monitors.projection';
import { MonitorsQueryHandler } from './read/monitors.queries';
import { MonitorCommandHandler } from './write/monitor.handler';
import { MonitorScheduler } from './write/monitor-scheduler';

/** Uptime monitors: URL, API, TCP, DNS and SSL probes run by Vigil itself (docs/guide/monitors.md). */
@Module({
  controllers: [MonitorsController, CheckResultsController],
  providers: [MonitorCommandHandler, MonitorsQueryHandler, MonitorScheduler],
  exports: [MonitorScheduler],
})
export class MonitorsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    for (const projection of [monitorsProjection, monitorRollupsProjection]) engine.register(projection);
  }
}

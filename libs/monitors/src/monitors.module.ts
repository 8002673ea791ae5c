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
import { RunnerKeysController } from './http/runner-keys.controller';
import { RunnersController } from './http/runners.controller';
import { runnerKeysProjection, runnerLocationsProjection } from './read/runner-keys.projection';
import { LocationCommandHandler } from './write/location.handler';
import { LocationWatch } from './write/location-watch';
import { RunnerKeyCommandHandler } from './write/runner-key.handler';
import { RunnerLeases } from './write/runner-leases';
import { RunnerPresence } from './write/runner-presence';
import { RollupHistoryCommandHandler } from './write/rollup-history.handler';
import { RunRetention } from './write/run-retention';

/** Uptime monitors: URL, API, TCP, DNS and SSL probes run by Vigil itself or its runners (docs/guide/monitors.md). */
@Module({
  controllers: [MonitorsController, CheckResultsController, RunnerKeysController, RunnersController],
  providers: [MonitorCommandHandler, RunnerKeyCommandHandler, LocationCommandHandler, MonitorsQueryHandler, MonitorScheduler, RunnerPresence, RunnerLeases, LocationWatch, RollupHistoryCommandHandler, RunRetention],
  exports: [MonitorScheduler],
})
export class MonitorsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine) {
    for (const projection of [monitorsProjection, monitorRollupsProjection, runnerKeysProjection, runnerLocationsProjection]) engine.register(projection);
  }
}

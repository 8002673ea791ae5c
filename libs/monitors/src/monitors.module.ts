import { Inject, Module } from '@nestjs/common';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROCESSOR_RUNNER, PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ProcessorRunner } from '../../read-store/src/processor-runner';
import { MonitorIncidents } from './write/monitor-incidents';
import { HeartbeatsModule, OtherChecks } from '../../heartbeats/src/heartbeats.api';
import { MonitorCatalog } from './read/monitor-catalog';
import { CheckResultsController } from './http/check-results.controller';
import { AnalyticsController } from './http/analytics.controller';
import { MonitorsController } from './http/monitors.controller';
import { monitorRollupsProjection } from './read/monitor-rollups.projection';
import { monitorsProjection } from './read/monitors.projection';
import { monitorStatesProjection } from './read/monitor-states.projection';
import { serviceMonitorsProjection } from './read/service-monitors.projection';
import { MonitorsQueryHandler } from './read/monitors.queries';
import { MonitorCommandHandler } from './write/monitor.handler';
import { MonitorScheduler } from './write/monitor-scheduler';
import { MonitorLinks } from './write/monitor-links';
import { ServiceLinks, StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { READ_STORE, ReadStore } from '../../read-store/src/read-store.port';
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
  imports: [StatusPagesModule, HeartbeatsModule],
  controllers: [MonitorsController, CheckResultsController, AnalyticsController, RunnerKeysController, RunnersController],
  providers: [MonitorCommandHandler, RunnerKeyCommandHandler, LocationCommandHandler, MonitorsQueryHandler, MonitorScheduler, MonitorLinks, MonitorIncidents, MonitorCatalog,
    RunnerPresence, RunnerLeases, LocationWatch, RollupHistoryCommandHandler, RunRetention],
  exports: [MonitorScheduler, MonitorLinks, MonitorIncidents, MonitorCatalog],
})
export class MonitorsModule {
  constructor(@Inject(PROJECTION_ENGINE) engine: ProjectionEngine, @Inject(PROCESSOR_RUNNER) processors: ProcessorRunner, incidents: MonitorIncidents, others: OtherChecks, catalog: MonitorCatalog, links: ServiceLinks, @Inject(READ_STORE) store: ReadStore) {
    others.register(catalog);
    // A service lists the monitors whose triggerIncident names it, beside its heartbeat checks.
    const collection = () => engine.collection(serviceMonitorsProjection);
    links.addChecksSource(async (accountId, serviceIds) => {
      const docs = await store.find(collection(), { filters: [{ field: 'serviceId', op: 'in', value: serviceIds }], limit: 1000 });
      const out = new Map<string, { id: string; name: string }[]>();
      for (const d of docs.filter((doc) => doc.accountId === accountId)) out.set(d.serviceId, [...(out.get(d.serviceId) ?? []), { id: d.id, name: d.name }]);
      return out;
    }, () => [collection()]);
    for (const projection of [monitorsProjection, monitorStatesProjection, monitorRollupsProjection, serviceMonitorsProjection, runnerKeysProjection, runnerLocationsProjection]) engine.register(projection);
    processors.register(incidents);
  }
}

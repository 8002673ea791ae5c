import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyInstance } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { VIGIL_CONFIG, VigilConfig } from '../../platform/src/config';
import { PROCESSOR_RUNNER, PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ProcessorRunner } from '../../read-store/src/processor-runner';
import { RequestMetrics } from '../../platform/src/request-metrics';
import { ServiceLinks, StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { AccountsModule } from '../../accounts/src/accounts.api';
import { MaintenanceModule } from '../../maintenance/src/maintenance.api';
import { CheckStatusesController } from './http/check-statuses.controller';
import { ChecksController } from './http/checks.controller';
import { PingRateLimiter } from './http/ping-rate-limiter';
import { PING_PATHS, registerPingRoutes, SLUG_CREATE_BURST, SLUG_CREATES_PER_SECOND } from './http/ping.routes';
import { CheckDirectory } from './read/check-directory';
import { CheckIndex } from './read/check-index';
import { HeartbeatsQueryHandler } from './read/heartbeats.queries';
import { PingTargets } from './read/ping-targets';
import { heartbeatChecksProjection } from './read/heartbeat-checks.projection';
import { HeartbeatStats } from './read/heartbeat-stats';
import { heartbeatRollupsProjection, heartbeatTimersProjection } from './read/heartbeat.projections';
import { CheckAlertLinks } from './write/check-alert-links';
import { SlugPings } from './write/slug-pings';
import { EventRetention } from './write/event-retention';
import { RollupHistory } from './write/rollup-history';
import { RollupHistoryCommandHandler } from './write/rollup-history.handler';
import { HeartbeatCheckCommandHandler } from './write/heartbeat-check.handler';
import { HeartbeatCommandHandler } from './write/heartbeat.handler';
import { HeartbeatWatchdog } from './write/heartbeat-watchdog';
import { NameClaimCommandHandler } from './write/name-claim.handler';
import { IncidentReactor } from './write/incident-reactor';
import { OutageIncidents } from './write/outage-incidents';
import { OtherChecks } from './read/other-checks';

@Module({
  imports: [StatusPagesModule, AccountsModule, MaintenanceModule],
  controllers: [ChecksController, CheckStatusesController],
  providers: [
    OtherChecks,
    CheckDirectory,
    CheckIndex,
    HeartbeatStats,
    HeartbeatsQueryHandler,
    HeartbeatCheckCommandHandler,
    HeartbeatCommandHandler,
    NameClaimCommandHandler,
    PingTargets,
    SlugPings,
    CheckAlertLinks,
    HeartbeatWatchdog,
    EventRetention,
    OutageIncidents,
    RollupHistory,
    RollupHistoryCommandHandler,
    IncidentReactor,
    {
      provide: PingRateLimiter,
      useFactory: (config: VigilConfig) => new PingRateLimiter(config.pingRateBurst, config.pingRatePerSecond),
      inject: [VIGIL_CONFIG],
    },
  ],
  exports: [CheckDirectory, CheckAlertLinks, OtherChecks, SlugPings, HeartbeatStats, HeartbeatWatchdog, EventRetention],
})
export class HeartbeatsModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    links: ServiceLinks,
    checks: CheckDirectory,
    private readonly adapterHost: HttpAdapterHost,
    private readonly targets: PingTargets,
    private readonly commands: CommandBus,
    private readonly limiter: PingRateLimiter,
    private readonly slugs: SlugPings,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROCESSOR_RUNNER) processors: ProcessorRunner,
    reactor: IncidentReactor,
    private readonly requestMetrics: RequestMetrics,
  ) {
    processors.register(reactor);
    for (const projection of [heartbeatChecksProjection, heartbeatTimersProjection, heartbeatRollupsProjection]) {
      engine.register(projection);
    }
    links.addChecksSource(
      (accountId, serviceIds) => checks.checksOfServices(accountId, serviceIds),
      () => [checks.collection()],
    );
  }

  /** The ping routes live on Fastify itself (see ping.routes.ts); the worker and the CLI have no HTTP. */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    const createLimiter = new PingRateLimiter(SLUG_CREATE_BURST, SLUG_CREATES_PER_SECOND);
    registerPingRoutes(adapter.getInstance() as FastifyInstance, { targets: this.targets, commands: this.commands, limiter: this.limiter, createLimiter, clock: this.clock, slugs: this.slugs });
    this.requestMetrics.countAsPings(PING_PATHS);
  }
}

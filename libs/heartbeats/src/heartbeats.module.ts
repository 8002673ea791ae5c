import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { VIGIL_CONFIG, VigilConfig } from '../../platform/src/config';
import { PROCESSOR_RUNNER, PROJECTION_ENGINE } from '../../platform/src/tokens';
import { ProcessorRunner } from '../../read-store/src/processor-runner';
import { RequestMetrics } from '../../platform/src/request-metrics';
import { ServiceLinks } from '../../status-pages/src/read/service-links';
import { StatusPagesModule } from '../../status-pages/src/status-pages.module';
import { AccountsModule } from '../../accounts/src/accounts.module';
import { MaintenanceModule } from '../../maintenance/src/maintenance.module';
import { ChecksController } from './http/checks.controller';
import { PING_PATHS, PingIntake, PingRateLimiter, registerPingRoutes, SLUG_CREATE_BURST, SLUG_CREATES_PER_SECOND } from './http/ping.routes';
import { CheckDirectory } from './read/check-directory';
import { heartbeatChecksProjection } from './read/heartbeat-checks.projection';
import { HeartbeatStats } from './read/heartbeat-stats';
import { heartbeatRollupsProjection, heartbeatTimersProjection } from './read/heartbeat.projections';
import { CreateHeartbeatCheckHandler, DeleteHeartbeatCheckHandler, SetAlertChannelSubscriptionHandler, UpdateHeartbeatCheckHandler } from './write/check.commands';
import { CheckAlertLinks } from './write/check-alert-links';
import { CheckSlugClaims } from './write/check-slug-claims';
import { SlugPings } from './write/slug-pings';
import { EventRetention } from './write/event-retention';
import { HeartbeatBackground } from './write/heartbeat-background';
import { HeartbeatCommands } from './write/heartbeat.commands';
import { HeartbeatWatchdog } from './write/heartbeat-watchdog';
import { HeartbeatIncidentTriggers } from './write/incident-trigger';
import { IncidentReactor } from './write/incident-reactor';
import { IncidentsBridge } from './write/incidents-bridge';
import { RecentCheckIncidents } from './write/recent-check-incidents';
import { PingTokenClaims } from './write/ping-token-claims';

@Module({
  imports: [StatusPagesModule, AccountsModule, MaintenanceModule],
  controllers: [ChecksController],
  providers: [
    CheckDirectory,
    HeartbeatStats,
    HeartbeatCommands,
    PingIntake,
    PingTokenClaims,
    CheckSlugClaims,
    SlugPings,
    CreateHeartbeatCheckHandler,
    UpdateHeartbeatCheckHandler,
    DeleteHeartbeatCheckHandler,
    SetAlertChannelSubscriptionHandler,
    CheckAlertLinks,
    HeartbeatWatchdog,
    EventRetention,
    HeartbeatIncidentTriggers,
    IncidentsBridge,
    RecentCheckIncidents,
    IncidentReactor,
    HeartbeatBackground,
    {
      provide: PingRateLimiter,
      useFactory: (config: VigilConfig) => new PingRateLimiter(config.pingRateBurst, config.pingRatePerSecond),
      inject: [VIGIL_CONFIG],
    },
  ],
  exports: [CheckDirectory, CheckAlertLinks, SlugPings, HeartbeatStats, HeartbeatIncidentTriggers, HeartbeatWatchdog, EventRetention],
})
export class HeartbeatsModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    links: ServiceLinks,
    checks: CheckDirectory,
    private readonly adapterHost: HttpAdapterHost,
    private readonly intake: PingIntake,
    private readonly limiter: PingRateLimiter,
    private readonly slugs: SlugPings,
    @Inject(CLOCK) private readonly clock: Clock,
    triggers: HeartbeatIncidentTriggers,
    incidents: IncidentsBridge,
    @Inject(PROCESSOR_RUNNER) processors: ProcessorRunner,
    reactor: IncidentReactor,
    private readonly requestMetrics: RequestMetrics,
  ) {
    // Outages open and resolve incidents through the incidents context's own commands.
    triggers.register(incidents);
    processors.register(reactor);
    for (const projection of [heartbeatChecksProjection, heartbeatTimersProjection, heartbeatRollupsProjection]) {
      engine.register(projection);
    }
    links.addChecksSource(
      (accountId, serviceIds) => checks.checksOfServices(accountId, serviceIds),
      () => [checks.collectionName()],
    );
  }

  /** The ping routes live on Fastify itself (see ping.routes.ts); the worker and the CLI have no HTTP. */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    const createLimiter = new PingRateLimiter(SLUG_CREATE_BURST, SLUG_CREATES_PER_SECOND);
    registerPingRoutes(adapter.getInstance() as FastifyInstance, { intake: this.intake, limiter: this.limiter, createLimiter, clock: this.clock, slugs: this.slugs });
    this.requestMetrics.countAsPings(PING_PATHS);
  }
}

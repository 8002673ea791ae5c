import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';
import { CLOCK, Clock } from '../../core/src/clock';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { VIGIL_CONFIG, VigilConfig } from '../../platform/src/config';
import { EARLY_REQUESTS, PROJECTION_ENGINE } from '../../platform/src/tokens';
import { RequestMetrics } from '../../platform/src/request-metrics';
import { LOGGER, VigilLogger } from '../../platform/src/logger';
import { EarlyRequests } from '../../http/src/early-requests';
import { ServiceLinks } from '../../status-pages/src/read/service-links';
import { StatusPagesModule } from '../../status-pages/src/status-pages.module';
import { ChecksController } from './http/checks.controller';
import { PING_PATHS, registerPingRoutes } from './http/ping.routes';
import { pingFastPath } from './http/ping-fast-path';
import { CheckDirectory } from './read/check-directory';
import { heartbeatChecksProjection } from './read/heartbeat-checks.projection';
import { heartbeatEventsProjection } from './read/heartbeat-events.projection';
import { heartbeatRollupsProjection } from './read/heartbeat-rollups.projection';
import { HeartbeatStats } from './read/heartbeat-stats';
import { heartbeatTimersProjection } from './read/heartbeat-timers.projection';
import { CreateHeartbeatCheckHandler, DeleteHeartbeatCheckHandler, UpdateHeartbeatCheckHandler } from './write/check.commands';
import { CheckRegistry } from './write/check-registry';
import { EventRetention } from './write/event-retention';
import { HeartbeatBackground } from './write/heartbeat-background';
import { HeartbeatWatchdog } from './write/heartbeat-watchdog';
import { HeartbeatIncidentTriggers } from './write/incident-trigger';
import { IncidentReactor } from './write/incident-reactor';
import { IncidentsBridge } from './write/incidents-bridge';
import { PingIntake } from './write/ping-intake';
import { PingRateLimiter } from './write/ping-rate-limiter';
import { PingTokenClaims } from './write/ping-token-claims';
import { ScheduleSync } from './write/schedule-sync';
import { TimerLoader } from './write/timer-loader';

@Module({
  imports: [StatusPagesModule],
  controllers: [ChecksController],
  providers: [
    CheckDirectory,
    HeartbeatStats,
    TimerLoader,
    CheckRegistry,
    PingIntake,
    PingTokenClaims,
    ScheduleSync,
    CreateHeartbeatCheckHandler,
    UpdateHeartbeatCheckHandler,
    DeleteHeartbeatCheckHandler,
    HeartbeatWatchdog,
    EventRetention,
    HeartbeatIncidentTriggers,
    IncidentsBridge,
    IncidentReactor,
    HeartbeatBackground,
    {
      provide: PingRateLimiter,
      useFactory: (config: VigilConfig) => new PingRateLimiter(config.pingRateBurst, config.pingRatePerSecond),
      inject: [VIGIL_CONFIG],
    },
  ],
  exports: [CheckDirectory, HeartbeatStats, HeartbeatIncidentTriggers, HeartbeatWatchdog, EventRetention],
})
export class HeartbeatsModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    links: ServiceLinks,
    checks: CheckDirectory,
    private readonly adapterHost: HttpAdapterHost,
    private readonly intake: PingIntake,
    private readonly limiter: PingRateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    triggers: HeartbeatIncidentTriggers,
    incidents: IncidentsBridge,
    @Inject(EARLY_REQUESTS) private readonly earlyRequests: EarlyRequests | null,
    @Inject(LOGGER) private readonly logger: VigilLogger,
    private readonly requestMetrics: RequestMetrics,
  ) {
    // Outages open and resolve incidents through the incidents context's own commands.
    triggers.register(incidents);
    for (const projection of [heartbeatChecksProjection, heartbeatTimersProjection, heartbeatEventsProjection, heartbeatRollupsProjection]) {
      engine.register(projection);
    }
    links.addChecksSource(
      (accountId, serviceIds) => checks.checksOfServices(accountId, serviceIds),
      () => [checks.collectionName()],
    );
  }

  /**
   * The ping routes live on Fastify itself (see ping.routes.ts), their common case ahead of it
   * (ping-fast-path.ts); the worker and the CLI have no HTTP.
   */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return;
    const deps = { intake: this.intake, limiter: this.limiter, clock: this.clock };
    registerPingRoutes(adapter.getInstance() as FastifyInstance, deps);
    this.requestMetrics.countAsPings(PING_PATHS);
    this.earlyRequests?.add(
      pingFastPath(deps, this.logger, (method, route, status, seconds) => this.requestMetrics.record(method, route, status, seconds)),
    );
  }
}

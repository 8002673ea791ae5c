import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { Public } from '../../../libs/http/src/account-context';
import { withDeadline } from '../../../libs/core/src/deadline';
import { EVENT_STORE, EventStore } from '../../../libs/event-store/src/event-store.port';
import { ProjectionEngine } from '../../../libs/read-store/src/projection-engine';
import { DAEMON_ENABLED, PROJECTION_ENGINE } from '../../../libs/platform/src/tokens';
import { READ_STORE, ReadStore } from '../../../libs/read-store/src/read-store.port';
import { VIGIL_CONFIG, VigilConfig } from '../../../libs/platform/src/config';

const DEADLINE_MS = 2000;
const late = () => new Error('deadline exceeded');

const READINESS_PROBLEM = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['catching-up', 'unavailable'] },
    message: { type: 'string' },
    lagging: { type: 'array', items: { type: 'object', required: ['name', 'lag'], properties: { name: { type: 'string' }, lag: { type: 'integer' } } } },
  },
};

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(DAEMON_ENABLED) private readonly daemon: boolean,
  ) {}

  /** Alive: the process answers. */
  @Get('healthz')
  @Public()
  @ApiOperation({ summary: 'Alive: the process answers' })
  @ApiOkResponse({ schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } })
  healthz() {
    return { status: 'ok' };
  }

  /**
   * Ready: both stores answer within the deadline (one call each). Where this process applies the read
   * models itself (the daemon runs here: embedded), also that none is more than VIGIL_READY_MAX_LAG events
   * behind the log. An API instance beside a worker brings what it writes up to date itself, so a lagging
   * worker never takes it out of the load balancer.
   */
  @Get('readyz')
  @Public()
  @ApiOperation({ summary: 'Ready: the stores answer, and where this process runs the projections, none is more than VIGIL_READY_MAX_LAG events behind the log' })
  @ApiOkResponse({ schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ready'] } } } })
  @ApiServiceUnavailableResponse({ description: 'A store did not answer in time, or a read model is catching up (Retry-After)', schema: READINESS_PROBLEM })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    try {
      await withDeadline(Promise.all([this.events.headPosition(), this.reads.getMeta('readiness')]), DEADLINE_MS, late);
      if (this.daemon) {
        const projections = await withDeadline(this.engine.status(), DEADLINE_MS, late);
        const lagging = projections.filter((p) => p.lag > this.config.readyMaxLag).map((p) => ({ name: p.name, lag: p.lag }));
        if (lagging.length > 0) {
          void reply.status(503).header('retry-after', '1');
          return { status: 'catching-up', lagging };
        }
      }
      return { status: 'ready' };
    } catch {
      void reply.status(503).header('retry-after', '5');
      return { status: 'unavailable', message: 'a backing store did not answer' };
    }
  }
}

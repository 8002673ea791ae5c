import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { IncidentsModule } from '../../incidents/src/incidents.api';
import { MaintenanceModule } from '../../maintenance/src/maintenance.api';
import { StatusPagesModule } from '../../status-pages/src/status-pages.api';
import { PublicPagesController, SUBSCRIBE_ROUTES } from './http/public-pages.controller';
import { PayloadTooLargeError } from '../../core/src/errors';
import { incidentOutagesProjection } from './read/incident-outages.projection';
import { pageAddressesProjection } from './read/page-addresses.projection';
import { PublicMaintenanceWindows } from './read/public-maintenance';
import { PublicPages } from './read/public-pages.query';
import { PublicPagesQueryHandler } from './read/public-pages.queries';
import { PublicRenderer } from './render/public-renderer';

/** The subscribe form's body is a few dozen bytes; anything much larger is not a person. */
const SUBSCRIBE_BODY_LIMIT = 4 * 1024;
/** A console form (a status page with its cards and colours is the largest) for signed-in people. */
const CONSOLE_BODY_LIMIT = 64 * 1024;

/**
 * Public status pages (contract §6): server-rendered HTML, feeds, Statuspage v2 JSON and badges,
 * read from read models only (PublicPagesQuery).
 */
@Module({
  imports: [StatusPagesModule, IncidentsModule, MaintenanceModule],
  controllers: [PublicPagesController],
  providers: [PublicPages, PublicPagesQueryHandler, PublicRenderer, PublicMaintenanceWindows],
  exports: [PublicRenderer],
})
export class PublicWebModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    engine.register(pageAddressesProjection);
    engine.register(incidentOutagesProjection);
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (!fastify?.addContentTypeParser) return;
    // HTML forms post urlencoded bodies; every other route keeps answering them 415.
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: CONSOLE_BODY_LIMIT },
      (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
        // The console's forms (libs/people) post here too: Fastify allows one parser per type.
        const route = request.routeOptions.url ?? '';
        const console = route.startsWith('/console/');
        if (!SUBSCRIBE_ROUTES.has(route) && !console) {
          return done(Object.assign(new Error('Content-Type must be application/json'), { statusCode: 415 }));
        }
        if (!console && Buffer.byteLength(body) > SUBSCRIBE_BODY_LIMIT) return done(new PayloadTooLargeError('The form is larger than 4 KB'));
        const fields: Record<string, string> = Object.create(null);
        for (const [name, value] of new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))) {
          if (!(name in fields)) fields[name] = value;
        }
        done(null, fields);
      },
    );
  }
}

import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { ProjectionEngine } from '../../read-store/src/projection-engine';
import { PROJECTION_ENGINE } from '../../platform/src/tokens';
import { IncidentsModule } from '../../incidents/src/incidents.module';
import { MaintenanceDirectory } from '../../maintenance/src/read/maintenance-directory';
import { MaintenanceModule } from '../../maintenance/src/maintenance.module';
import { maintenanceWindowsProjection } from '../../maintenance/src/read/maintenance-windows.projection';
import { READ_STORE, ReadStore } from '../../read-store/src/read-store.port';
import { StatusPagesModule } from '../../status-pages/src/status-pages.module';
import { KEPT_ROUTES, PublicPagesController, SUBSCRIBE_ROUTES } from './http/public-pages.controller';
import { PublicAnswerCache, sendAnswer } from './http/public-answers';
import { incidentOutagesProjection } from './read/incident-outages.projection';
import { pageAddressesProjection } from './read/page-addresses.projection';
import { PublicMaintenanceWindows } from './read/public-maintenance';
import { PublicPages } from './read/public-pages.query';
import { PublicRenderer } from './render/public-renderer';

/** The subscribe form's body is a few dozen bytes; anything much larger is not a person. */
const FORM_BODY_LIMIT = 4 * 1024;
/** How far ahead pages list scheduled maintenance. */
const UPCOMING_MS = 30 * 24 * 3_600_000;

/**
 * Public status pages (contract §6): server-rendered HTML, feeds, Statuspage v2 JSON and badges,
 * read from read models only. Other contexts plug in through PublicMaintenanceWindows.
 */
@Module({
  imports: [StatusPagesModule, IncidentsModule, MaintenanceModule],
  controllers: [PublicPagesController],
  providers: [PublicPages, PublicRenderer, PublicMaintenanceWindows, PublicAnswerCache],
  exports: [PublicMaintenanceWindows, PublicRenderer],
})
export class PublicWebModule implements OnModuleInit {
  constructor(
    @Inject(PROJECTION_ENGINE) engine: ProjectionEngine,
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: PublicPages,
    private readonly answers: PublicAnswerCache,
    maintenance: PublicMaintenanceWindows,
    windows: MaintenanceDirectory,
    @Inject(READ_STORE) store: ReadStore,
  ) {
    engine.register(pageAddressesProjection);
    engine.register(incidentOutagesProjection);
    maintenance.register(
      async (accountId, serviceIds, now) => {
        const occurrences = await windows.upcoming(accountId, now, new Date(now.getTime() + UPCOMING_MS), { serviceIds });
        // A repeating window shows its current or next occurrence only.
        const seen = new Set<string>();
        return occurrences
          .filter(({ window }) => !seen.has(window.id) && seen.add(window.id))
          .map(({ window, start, end }) => ({
            id: window.id,
            name: window.name,
            startsAt: start.toISOString(),
            endsAt: end.toISOString(),
            serviceIds: window.serviceIds.filter((id) => serviceIds.includes(id)),
            created_at: window.created_at,
            updated_at: window.updated_at,
          }));
      },
      () => store.changeToken([engine.collection(maintenanceWindowsProjection)]),
    );
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (!fastify?.addContentTypeParser) return;
    // Kept answers go out before Nest routes the request (its guards have nothing to do on public routes).
    fastify.addHook('preHandler', (request, reply, done) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !KEPT_ROUTES.has(request.routeOptions.url ?? '')) return done();
      const kept = this.answers.get(this.answers.keyOf(request), this.pages.changeToken());
      if (!kept) return done();
      sendAnswer(request, reply, kept);
    });
    // HTML forms post urlencoded bodies; every other route keeps answering them 415.
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
        // The console's forms (libs/people) post here too: Fastify allows one parser per type.
        const route = request.routeOptions.url ?? '';
        if (!SUBSCRIBE_ROUTES.has(route) && !route.startsWith('/console/')) {
          return done(Object.assign(new Error('Content-Type must be application/json'), { statusCode: 415 }));
        }
        const fields: Record<string, string> = Object.create(null);
        for (const [name, value] of new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))) {
          if (!(name in fields)) fields[name] = value;
        }
        done(null, fields);
      },
    );
  }
}

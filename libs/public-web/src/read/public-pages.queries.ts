import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContextQuery } from '../../../read-store/src/context-query';
import { IncidentView } from '../../../incidents/src/incidents.api';
import { PageRef, PublicPageModel, PublicPages } from './public-pages.query';

/** What the public routes ask: a page by its address, then its model, an incident, a history page, the latest incidents. */
export type PublicPagesQuestion =
  | { type: 'PageByUrl'; url: string }
  | { type: 'PageByHost'; host: string | undefined }
  | { type: 'PageModel'; ref: PageRef }
  | { type: 'PageIncident'; ref: PageRef; incidentId: string; serviceIds: string[] }
  | { type: 'PageHistory'; ref: PageRef; serviceIds: string[]; n: number }
  | { type: 'LatestIncidents'; ref: PageRef; serviceIds: string[] };

export interface PublicPagesAnswers {
  PageByUrl: PageRef | null;
  PageByHost: PageRef | null;
  PageModel: PublicPageModel | null;
  PageIncident: IncidentView | null;
  PageHistory: { incidents: IncidentView[]; from: Date; to: Date; more: boolean };
  LatestIncidents: IncidentView[];
}

export class PublicPagesQuery<T extends PublicPagesQuestion['type']> extends ContextQuery<PublicPagesQuestion, PublicPagesAnswers, T> {}

/** The one read entry of the public pages, served from read models (PublicPages is its helper). */
@QueryHandler(PublicPagesQuery)
export class PublicPagesQueryHandler implements IQueryHandler<PublicPagesQuery<PublicPagesQuestion['type']>> {
  constructor(private readonly pages: PublicPages) {}

  execute({ query }: PublicPagesQuery<PublicPagesQuestion['type']>): Promise<PublicPagesAnswers[PublicPagesQuestion['type']]> {
    switch (query.type) {
      case 'PageByUrl':
        return this.pages.byUrl(query.url);
      case 'PageByHost':
        return this.pages.byHost(query.host);
      case 'PageModel':
        return this.pages.model(query.ref);
      case 'PageIncident':
        return this.pages.incident(query.ref, query.incidentId, query.serviceIds);
      case 'PageHistory':
        return this.pages.history(query.ref, query.serviceIds, query.n);
      case 'LatestIncidents':
        return this.pages.latest(query.ref, query.serviceIds);
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../../core/src/clock';
import { Collection } from '../../../core/src/projection';
import { EVENT_STORE, EventStore } from '../../../event-store/src/event-store.port';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { getOwn } from '../../../read-store/src/account-docs';
import { VIGIL_CONFIG, VigilConfig } from '../../../platform/src/config';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { DefaultTheme, themeColorsOrDefault, ThemeColors } from '../domain/theme';
import { incidentsOfPage, PageIncident, PageIncidents, RESOLVED_INCIDENT_WINDOW_MS } from './page-incidents';
import { newestOfAccount } from './by-creation';
import { ServiceDirectory, ServiceView } from './service-directory';
import { StatusPageDoc, statusPagesProjection } from './status-pages.projection';

export interface CardView {
  id: string;
  name: string;
  services: ServiceView[];
  created_at: string;
  updated_at: string;
}

/** A page as endpoint 8 lists it: exactly the fields of api.md. */
export interface StatusPageView {
  id: string;
  accountId: string;
  name: string;
  url: string;
  /** Where the public page answers: its custom domain once proven, else {VIGIL_PUBLIC_URL}/status/{url}. */
  publicUrl: string;
  customDomain: string | null;
  logo: string | null;
  favicon: string | null;
  redirectTo: string | null;
  defaultTheme: DefaultTheme;
  themeColors: ThemeColors;
  cards: CardView[];
  incidents: PageIncident[];
  created_at: string;
  updated_at: string;
}

/** A single page (create, get, update): the list entry plus the fields only the contract adds, and whether its custom domain is proven. */
export type StatusPageDetailView = StatusPageView & { description: string | null; logoDark: string | null; customDomainVerified?: boolean };

/** The status pages read model, for this context's queries and for other contexts (incidents). */
@Injectable()
export class StatusPageDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly services: ServiceDirectory,
    private readonly incidents: PageIncidents,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  getDoc(accountId: string, id: string): Promise<{ doc: StatusPageDoc; revision: bigint } | null> {
    return getOwn(this.store, this.collection(), accountId, id);
  }

  async get(accountId: string, id: string): Promise<{ page: StatusPageDetailView; revision: bigint } | null> {
    const stored = await this.getDoc(accountId, id);
    if (!stored) return null;
    return { page: await this.detail(accountId, stored.doc), revision: stored.revision };
  }

  /** A page's document as the single-page answers show it. */
  async detail(accountId: string, doc: StatusPageDoc): Promise<StatusPageDetailView> {
    const [page] = await this.views(accountId, [doc], true);
    return page as StatusPageDetailView;
  }

  /** One page of the account's documents, newest first, one more than `limit` so the caller knows whether more follow. */
  listDocs(accountId: string, limit: number, after: FindQuery['after']): Promise<StatusPageDoc[]> {
    return newestOfAccount(this.store, this.collection(), accountId, limit, after);
  }

  /** The list entries of these documents. */
  present(accountId: string, docs: StatusPageDoc[]): Promise<StatusPageView[]> {
    return this.views(accountId, docs, false);
  }

  /**
   * Builds the views from three batched reads whatever the number of pages and cards: the pages, every
   * service they name (with their checks), and every incident touching any of those services. `detail`
   * adds the fields only single-page answers show, where api.md places them.
   */
  private async views(accountId: string, docs: StatusPageDoc[], detail: boolean): Promise<StatusPageView[]> {
    const serviceIds = [...new Set(docs.flatMap((doc) => doc.serviceIds))];
    const since = new Date(this.clock.now().getTime() - RESOLVED_INCIDENT_WINDOW_MS);
    const [services, incidents] = await Promise.all([
      this.services.getMany(accountId, serviceIds),
      this.incidents.touching(accountId, serviceIds, since),
    ]);
    return docs.map((doc) => ({
      id: doc.id,
      accountId: doc.accountId,
      name: doc.name,
      ...(detail ? { description: doc.description } : {}),
      url: doc.url,
      publicUrl: this.publicUrlOf(doc),
      customDomain: doc.customDomain,
      logo: doc.logo,
      ...(detail ? { logoDark: doc.logoDark } : {}),
      favicon: doc.favicon,
      redirectTo: doc.redirectTo,
      defaultTheme: doc.defaultTheme,
      themeColors: themeColorsOrDefault(doc.themeColors),
      cards: doc.cards.map((card) => ({
        id: card.id,
        name: card.name,
        // A service deleted while a write that named it was in flight is left out rather than shown half.
        services: card.serviceIds.flatMap((id) => services.get(id) ?? []),
        created_at: card.created_at,
        updated_at: card.updated_at,
      })),
      incidents: incidentsOfPage(incidents, doc.serviceIds),
      created_at: doc.created_at,
      updated_at: doc.updated_at,
      ...(detail && doc.customDomain ? { customDomainVerified: doc.customDomainVerified === true } : {}),
    }));
  }

  /** A custom domain is served (over https) only once proven; until then the page answers under Vigil's own address. */
  private publicUrlOf(doc: StatusPageDoc): string {
    if (doc.customDomain && doc.customDomainVerified === true) return `https://${doc.customDomain.toLowerCase()}`;
    return `${this.config.publicUrl}/status/${encodeURIComponent(doc.url)}`;
  }

  /** The services on a page's cards (each once, in card order), or null when the account has no such page. */
  async serviceIdsOf(accountId: string, statusPageId: string): Promise<string[] | null> {
    const stored = await this.getDoc(accountId, statusPageId);
    return stored ? [...stored.doc.serviceIds] : null;
  }

  /** Name of a page of the account whose cards show the service, or null. */
  async pageUsingService(accountId: string, serviceId: string): Promise<string | null> {
    const [doc] = await this.showing(accountId, serviceId, 1);
    return doc ? doc.name : null;
  }

  /** Pages of the account whose cards show any of the services (subscriber notices of an incident). */
  async pagesShowing(accountId: string, serviceIds: string[]): Promise<{ id: string; name: string; url: string }[]> {
    const found = new Map<string, { id: string; name: string; url: string }>();
    for (const serviceId of serviceIds) {
      for (const doc of await this.showing(accountId, serviceId, 1000)) found.set(doc.id, { id: doc.id, name: doc.name, url: doc.url });
    }
    return [...found.values()];
  }

  private showing(accountId: string, serviceId: string, limit: number): Promise<StatusPageDoc[]> {
    const filters: FindQuery['filters'] = [
      { field: 'accountId', op: 'eq', value: accountId },
      { field: 'serviceIds', op: 'contains', value: serviceId },
    ];
    return this.store.find(this.collection(), { filters, limit });
  }

  /** The collection serviceIdsOf reads now: for change tokens of answers filtered by a page. */
  readFrom(): string[] {
    return [this.collection()];
  }

  /**
   * Changes whenever a listed page may have (its document, services, checks, incidents); null: the store cannot
   * tell. With the log's head in it, another process's write shows on the very next list, not a poll later.
   */
  async changeToken(): Promise<string | null> {
    const token = this.store.changeToken([this.collection(), ...this.services.readFrom(), ...this.incidents.readFrom()]);
    return token === null ? null : `${token}|${await this.events.headPosition()}`;
  }

  private collection(): Collection<StatusPageDoc> {
    return this.engine.collection(statusPagesProjection);
  }
}

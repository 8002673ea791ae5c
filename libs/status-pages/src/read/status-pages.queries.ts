import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../core/src/clock';
import { CommandRunner } from '../../../event-store/src/command-runner';
import { FindQuery, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { ContextQuery } from '../../../read-store/src/context-query';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { RecordedEvent } from '../../../core/src/event';
import { ownedPage, statusPageDecider, StatusPageEvent, statusPageStream } from '../domain/status-page.decider';
import { PENDING_EXPIRY_MS } from '../domain/subscriptions.decider';
import { ServiceDirectory, ServiceView } from './service-directory';
import { StatusPageDetailView, StatusPageDirectory, StatusPageView } from './status-page-directory';
import { oldestFirst } from './by-creation';
import { subscriptionsProjection, SubscriptionView, subscriptionView } from './subscriptions.projection';
import { StatusPageDoc, statusPagesProjection } from './status-pages.projection';

type After = FindQuery['after'];

/** What other contexts and this context's GETs ask of status pages, services and subscriptions. */
export type StatusPagesQuestion =
  | { type: 'GetStatusPage'; accountId: string; id: string }
  /** The page as it stood at `at`, folded from its stream (services and incidents joined as they are now); null when not the account's then. */
  | { type: 'GetStatusPageAsOf'; accountId: string; id: string; at: Date }
  /** One page newest first, one more than `limit` so the caller knows whether more follow. */
  | { type: 'ListStatusPages'; accountId: string; limit: number; after: After }
  | { type: 'GetService'; accountId: string; id: string }
  | { type: 'ListServices'; accountId: string; limit: number; after: After }
  /** Null when the account has no such page. */
  | { type: 'ListSubscriptions'; accountId: string; statusPageId: string }
  /** A subscription by its page and id, whichever account (subscriber links carry no key). */
  | { type: 'GetSubscription'; statusPageId: string; id: string }
  /** The page's name from the read model, else folded from its stream (a lagging read model); null when not the account's. */
  | { type: 'GetPageName'; accountId: string; statusPageId: string }
  /** Pages of the account whose cards show any of the services. */
  | { type: 'PagesShowing'; accountId: string; serviceIds: string[] };

export interface StatusPagesAnswers {
  GetStatusPage: { page: StatusPageDetailView; revision: bigint } | null;
  GetStatusPageAsOf: { page: StatusPageDetailView; revision: bigint } | null;
  ListStatusPages: StatusPageView[];
  GetService: { service: ServiceView; revision: bigint } | null;
  ListServices: ServiceView[];
  ListSubscriptions: SubscriptionView[] | null;
  GetSubscription: (SubscriptionView & { accountId: string }) | null;
  GetPageName: string | null;
  PagesShowing: { id: string; name: string; url: string }[];
}

export class StatusPagesQuery<T extends StatusPagesQuestion['type']> extends ContextQuery<StatusPagesQuestion, StatusPagesAnswers, T> {}

/** The one read entry of status pages: every answer comes from the read models (directories are its helpers). */
@QueryHandler(StatusPagesQuery)
export class StatusPagesQueryHandler implements IQueryHandler<StatusPagesQuery<StatusPagesQuestion['type']>> {
  constructor(
    private readonly pages: StatusPageDirectory,
    private readonly services: ServiceDirectory,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ query }: StatusPagesQuery<StatusPagesQuestion['type']>): Promise<StatusPagesAnswers[StatusPagesQuestion['type']]> {
    switch (query.type) {
      case 'GetStatusPage':
        return this.pages.get(query.accountId, query.id);
      case 'GetStatusPageAsOf': {
        const { state, revision } = await this.runner.load<StatusPageDoc | null, RecordedEvent<StatusPageEvent>>(
          statusPageStream(query.id),
          { initialState: () => null, evolve: (doc, event) => statusPagesProjection.evolve(doc, event, query.id) },
          query.at,
        );
        if (!state || state.accountId !== query.accountId || revision === null) return null;
        return { page: await this.pages.detail(query.accountId, state), revision };
      }
      case 'ListStatusPages':
        return this.pages.present(query.accountId, await this.pages.listDocs(query.accountId, query.limit, query.after));
      case 'GetService':
        return this.services.get(query.accountId, query.id);
      case 'ListServices':
        return this.services.list(query.accountId, query.limit, query.after);
      case 'ListSubscriptions':
        if (!(await this.pages.getDoc(query.accountId, query.statusPageId))) return null;
        return this.subscriptionsOf(query.accountId, query.statusPageId);
      case 'GetSubscription': {
        const stored = await this.store.get(this.engine.collection(subscriptionsProjection), query.id);
        if (!stored || stored.doc.statusPageId !== query.statusPageId) return null;
        return { ...subscriptionView(stored.doc), accountId: stored.doc.accountId };
      }
      case 'GetPageName': {
        const page = await this.pages.getDoc(query.accountId, query.statusPageId);
        if (page) return page.doc.name;
        const { state } = await this.runner.load(statusPageStream(query.statusPageId), statusPageDecider);
        return ownedPage(state, query.accountId)?.name ?? null;
      }
      case 'PagesShowing':
        return this.pages.pagesShowing(query.accountId, query.serviceIds);
    }
  }

  /** Every subscription of the page, oldest first (the order they signed up in), but PENDING ones expired now. */
  private async subscriptionsOf(accountId: string, statusPageId: string): Promise<SubscriptionView[]> {
    const expiredBefore = new Date(this.clock.now().getTime() - PENDING_EXPIRY_MS).toISOString();
    const out: SubscriptionView[] = [];
    for await (const doc of oldestFirst(this.store, this.engine.collection(subscriptionsProjection), [{ field: 'statusPageId', op: 'eq', value: statusPageId }])) {
      if (doc.accountId === accountId && !(doc.status === 'PENDING' && doc.updated_at <= expiredBefore)) out.push(subscriptionView(doc));
    }
    return out;
  }
}

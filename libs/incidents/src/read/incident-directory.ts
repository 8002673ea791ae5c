import { Inject, Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../../core/src/event';
import { Collection } from '../../../core/src/projection';
import { CommandRunner, SnapshotLoader } from '../../../event-store/src/command-runner';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { Filter, PageAfter, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { COMMAND_RUNNER, PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { ServiceDirectory, ServiceView } from '../../../status-pages/src/status-pages.api';
import { IncidentEvent, IncidentState, incidentStream } from '../domain/incident.decider';
import { Severity, UpdateStatus } from '../domain/incident-timeline';
import { accountResolvedAt, accountState, evolveIncident, IncidentDoc, incidentsProjection, IncidentUpdateDoc, toIncidentState } from './incidents.projection';
import { getOwn } from '../../../read-store/src/account-docs';

/** An incident update as every response shows it: without its creation order. */
export type IncidentUpdateView = Omit<IncidentUpdateDoc, 'seq'>;

/** An incident as every response shows it: services expanded, updates chronological. */
export interface IncidentView {
  id: string;
  name: string;
  severity: Severity;
  lastUpdateStatus: UpdateStatus;
  services: ServiceView[];
  incidentUpdates: IncidentUpdateView[];
  created_at: string;
  updated_at: string;
}

export interface IncidentListFilter {
  status?: 'open' | 'resolved';
  /** Incidents touching any of these services; an empty list matches nothing. */
  serviceIds?: string[];
}

export function presentUpdate(update: IncidentUpdateDoc): IncidentUpdateView {
  const { id, description, status, publicIncidentUpdateDate, notifySubscribers, created_at } = update;
  return { id, description, status, publicIncidentUpdateDate, notifySubscribers, created_at };
}

/** Most open (and, apart, most recently resolved) incidents a status page is given. */
const PAGE_INCIDENTS_MAX = 500;

/** When an incident happened, the key lists sort on: its first update's public date (see IncidentDoc.startedAt). */
export function incidentDate(incident: Pick<IncidentView, 'incidentUpdates' | 'created_at'>): string {
  return incident.incidentUpdates[0]?.publicIncidentUpdateDate ?? incident.created_at;
}

/** An incident's document as every response shows it, with its services looked up in `services`. */
function incidentView(doc: IncidentDoc, services: ReadonlyMap<string, ServiceView>): IncidentView {
  return {
    id: doc.id,
    name: doc.name,
    severity: doc.severity,
    lastUpdateStatus: doc.lastUpdateStatus,
    // A service deleted after its incident was resolved is no longer shown.
    services: doc.serviceIds.flatMap((id) => services.get(id) ?? []),
    incidentUpdates: doc.incidentUpdates.map(presentUpdate),
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

/**
 * A new incident as GET will show it, folded from the events its creation appended with the projection's
 * own evolve (so reading it back costs nothing); null if they do not make one.
 */
export function createdIncidentView(appended: readonly RecordedEvent<IncidentEvent>[], services: ReadonlyMap<string, ServiceView>): IncidentView | null {
  const doc = appended.reduce<IncidentDoc | null>((folded, event) => evolveIncident(folded, event), null);
  return doc && incidentView(doc, services);
}

/** Newest first: startedAt descending, then id descending, as the read store sorts. */
function newestFirst(a: IncidentDoc, b: IncidentDoc): number {
  if (a.startedAt !== b.startedAt) return a.startedAt < b.startedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The incidents read model, for this context's routes and for other contexts. */
@Injectable()
export class IncidentDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
    @Inject(COMMAND_RUNNER) private readonly runner: CommandRunner,
    private readonly services: ServiceDirectory,
  ) {}

  async getDoc(accountId: string, id: string): Promise<{ doc: IncidentDoc; revision: bigint } | null> {
    return getOwn(this.store, this.collection(), accountId, id);
  }

  /** The incident's document as a command's snapshot: a write folds only what the document has not seen, instead of the whole stream. */
  snapshot(id: string): SnapshotLoader<IncidentState> {
    return async () => {
      const stored = await this.store.get(this.collection(), id);
      return stored && { state: toIncidentState(stored.doc), revision: stored.revision };
    };
  }

  async get(accountId: string, id: string): Promise<{ incident: IncidentView; revision: bigint } | null> {
    const stored = await this.getDoc(accountId, id);
    if (!stored) return null;
    const [incident] = await this.present(accountId, [stored.doc]);
    return { incident, revision: stored.revision };
  }

  /**
   * The incident as it stood at `at`, folded from its events with the projection's own evolve, so
   * it has exactly the shape of the live read model. A deleted incident stays gone; services are
   * shown as they are now.
   */
  async getAsOf(accountId: string, id: string, at: Date): Promise<{ incident: IncidentView; revision: bigint } | null> {
    if (!(await this.getDoc(accountId, id))) return null;
    const { state, revision } = await this.runner.load<IncidentDoc | null, RecordedEvent<IncidentEvent>>(
      incidentStream(id),
      { initialState: () => null, evolve: (doc, event) => evolveIncident(doc, event) },
      at,
    );
    if (!state || revision === null) return null;
    const [incident] = await this.present(accountId, [state]);
    return { incident, revision };
  }

  /** One page, newest first by incidentDate; asks for one row more than `limit` so the caller knows whether more follow. */
  async list(accountId: string, limit: number, after: PageAfter | undefined, filter: IncidentListFilter = {}): Promise<IncidentView[]> {
    return this.present(accountId, await this.listDocs(accountId, limit + 1, after, filter));
  }

  /**
   * For status pages: the account's incidents touching any of `serviceIds` that are open, or were
   * resolved (by the public date of the resolving update) at or after `since`. Two indexed reads of
   * the account, each bounded by PAGE_INCIDENTS_MAX, and one join.
   */
  async touching(accountId: string, serviceIds: string[], since: Date): Promise<IncidentView[]> {
    if (serviceIds.length === 0) return [];
    const wanted = new Set(serviceIds);
    const sort = { field: 'startedAt', direction: 'desc' } as const;
    const [open, resolved] = await Promise.all([
      this.store.find(this.collection(), {
        filters: [{ field: 'accountState', op: 'eq', value: accountState(accountId, true) }],
        sort,
        limit: PAGE_INCIDENTS_MAX,
      }),
      this.store.find(this.collection(), {
        filters: [
          { field: 'accountResolvedAt', op: 'gte', value: accountResolvedAt(accountId, since.toISOString()) },
          // ';' follows ':' in code point order: the upper bound of this account's keys.
          { field: 'accountResolvedAt', op: 'lt', value: `${accountId};` },
        ],
        sort,
        limit: PAGE_INCIDENTS_MAX,
      }),
    ]);
    const docs = [...open, ...resolved].filter((doc) => doc.serviceIds.some((id) => wanted.has(id)));
    return this.present(accountId, docs.sort(newestFirst));
  }

  /** What the service usage check asks: an open incident of the account that lists the service. */
  async openIncidentUsing(accountId: string, serviceId: string): Promise<string | null> {
    const [doc] = await this.store.find(this.collection(), {
      filters: [
        { field: 'accountState', op: 'eq', value: accountState(accountId, true) },
        { field: 'serviceIds', op: 'contains', value: serviceId },
      ],
      limit: 1,
    });
    return doc ? `open incident ${doc.id}` : null;
  }

  /** Joins the services of all docs with one lookup, keeping each incident's service order. */
  async present(accountId: string, docs: IncidentDoc[]): Promise<IncidentView[]> {
    const services = await this.services.getMany(accountId, docs.flatMap((doc) => doc.serviceIds));
    return docs.map((doc) => incidentView(doc, services));
  }

  private async listDocs(accountId: string, count: number, after: PageAfter | undefined, filter: IncidentListFilter): Promise<IncidentDoc[]> {
    const base: Filter = filter.status
      ? { field: 'accountState', op: 'eq', value: accountState(accountId, filter.status === 'open') }
      : { field: 'accountId', op: 'eq', value: accountId };
    const sort = { field: 'startedAt', direction: 'desc' } as const;
    if (filter.serviceIds === undefined) return this.store.find(this.collection(), { filters: [base], sort, limit: count, after });

    // One indexed query per service, merged: every one follows the same (startedAt, id) order.
    const serviceIds = [...new Set(filter.serviceIds)];
    const pages = await Promise.all(
      serviceIds.map((serviceId) =>
        this.store.find(this.collection(), {
          filters: [base, { field: 'serviceIds', op: 'contains', value: serviceId }],
          sort,
          limit: count,
          after,
        }),
      ),
    );
    const unique = new Map<string, IncidentDoc>();
    for (const doc of pages.flat()) unique.set(doc.id, doc);
    return [...unique.values()].sort(newestFirst).slice(0, count);
  }

  /**
   * Changes whenever an IncidentView may have: the incidents, their services and the services'
   * checks, plus `more` (say, the status pages a list filters by). Null: nothing may be cached.
   */
  changeToken(more: readonly string[] = []): string | null {
    return this.store.changeToken([this.collection(), ...this.services.readFrom(), ...more]);
  }

  private collection(): Collection<IncidentDoc> {
    return this.engine.collection(incidentsProjection);
  }
}

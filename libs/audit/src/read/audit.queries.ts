import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContextQuery } from '../../../read-store/src/context-query';
import { ProjectionEngine } from '../../../read-store/src/projection-engine';
import { Filter, PageAfter, READ_STORE, ReadStore } from '../../../read-store/src/read-store.port';
import { PROJECTION_ENGINE } from '../../../platform/src/tokens';
import { AuditActor, FieldChange } from './audit-changes';
import { AuditEntryDoc, auditEntriesProjection, auditResourcesProjection } from './audit.projections';

/** Which changes: of one resource (`type:id`) or type (`type`), by one actor (`person:<id>`, `key:<id>`, `system`), in [from, to). */
export interface AuditFilter {
  resource?: string;
  actor?: string;
  from?: string;
  to?: string;
}

/** One change as every reader shows it. */
export interface AuditEntryView {
  id: string;
  at: string;
  actor: AuditActor;
  resource: { type: string; id: string; name: string | null };
  eventType: string;
  action: string;
  /** Field by field; `before` is null when the field was not set, undefined when no longer kept. */
  changes: (Omit<FieldChange, 'before'> & { before: string | null | undefined })[];
}

export type AuditQuestion =
  /** One page, newest first, one row more than `limit` (the caller pages on with the last row's `at` and `id`). */
  { type: 'ListAuditEntries'; accountId: string; filter: AuditFilter; limit: number; after?: PageAfter };

export interface AuditAnswers {
  ListAuditEntries: AuditEntryView[];
}

export class AuditQuery<T extends AuditQuestion['type']> extends ContextQuery<AuditQuestion, AuditAnswers, T> {}

@QueryHandler(AuditQuery)
export class AuditQueryHandler implements IQueryHandler<AuditQuery<AuditQuestion['type']>> {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PROJECTION_ENGINE) private readonly engine: ProjectionEngine,
  ) {}

  async execute({ query }: AuditQuery<AuditQuestion['type']>): Promise<AuditAnswers[AuditQuestion['type']]> {
    switch (query.type) {
      case 'ListAuditEntries':
        return this.list(query.accountId, query.filter, query.limit, query.after);
    }
  }

  private async list(accountId: string, filter: AuditFilter, limit: number, after?: PageAfter): Promise<AuditEntryView[]> {
    const filters: Filter[] = [{ field: 'accountId', op: 'eq', value: accountId }];
    if (filter.resource) filters.push(filter.resource.includes(':') ? { field: 'resource', op: 'eq', value: filter.resource } : { field: 'resourceType', op: 'eq', value: filter.resource });
    if (filter.actor) filters.push({ field: 'actorKey', op: 'eq', value: filter.actor });
    if (filter.from) filters.push({ field: 'at', op: 'gte', value: filter.from });
    if (filter.to) filters.push({ field: 'at', op: 'lt', value: filter.to });
    const entries = await this.store.find(this.engine.collection(auditEntriesProjection), { filters, sort: { field: 'at', direction: 'desc' }, limit: limit + 1, after });
    const streams = [...new Set(entries.map((e) => e.stream))];
    const resources = new Map((await this.store.getMany(this.engine.collection(auditResourcesProjection), streams)).map(({ doc }) => [doc.id, doc]));
    return entries.map((entry) => view(entry, resources.get(entry.stream)));
  }
}

function view(entry: AuditEntryDoc, resource: { accountId: string; name: string | null; diffs: { revision: string; changes: FieldChange[] }[] } | undefined): AuditEntryView {
  // The snapshot document is the same account's by construction; checked all the same.
  const own = resource && resource.accountId === entry.accountId ? resource : undefined;
  const diff = own?.diffs.find((d) => d.revision === entry.revision);
  return {
    id: entry.id,
    at: entry.at,
    actor: entry.actor,
    resource: { type: entry.resourceType, id: entry.resourceId, name: own?.name ?? null },
    eventType: entry.eventType,
    action: entry.action,
    changes: diff ? diff.changes : entry.set.map((c) => ({ field: c.field, before: undefined, after: c.after })),
  };
}

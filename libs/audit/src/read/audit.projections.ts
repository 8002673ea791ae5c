import { RecordedEvent } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { accountOf, actionOf, actorKey, actorOf, applyPatch, AUDITED_EVENTS, AuditActor, FieldChange, patchOf, resourceOf } from './audit-changes';

/** How many of its latest changes a resource keeps with their before values (older ones show what they set). */
export const DIFFS_KEPT = 100;

/** One change: who, when, to what. One document per audited event, from the resource's stream. */
export interface AuditEntryDoc {
  id: string;
  accountId: string;
  at: string;
  actor: AuditActor;
  /** `person:<id>`, `key:<id>` or `system`: what the person filter matches. */
  actorKey: string;
  /** `<type>:<id>`: what the resource filter matches. */
  resource: string;
  resourceType: string;
  resourceId: string;
  stream: string;
  revision: string;
  eventType: string;
  action: string;
  /** What the event set, without the before values (those are in the resource's snapshot document). */
  set: FieldChange[];
  [field: string]: unknown;
}

/** A resource as the audit log last saw it: its fields (bounded), its name, and its latest changes with their before values. */
export interface AuditResourceDoc {
  id: string;
  accountId: string;
  resource: string;
  name: string | null;
  fields: Record<string, string | null>;
  diffs: { revision: string; changes: FieldChange[] }[];
  [field: string]: unknown;
}

/** Entry ids sort by revision within a stream. */
export const entryId = (stream: string, revision: bigint) => `${stream}@${revision.toString().padStart(12, '0')}`;

/** The account's changes, newest first, filterable by resource, resource type, actor and time. */
export const auditEntriesProjection: Projection<AuditEntryDoc> = {
  name: 'audit_entries',
  version: 1,
  handles: AUDITED_EVENTS,
  indexes: [{ field: 'accountId' }, { field: 'resource' }, { field: 'resourceType' }, { field: 'actorKey' }, { field: 'at' }],
  sortField: 'at',
  ids: (event) => (resourceOf(event.stream) && accountOf(event) ? [entryId(event.stream, event.revision)] : []),
  evolve(doc, event, id) {
    if (doc) return doc;
    const resource = resourceOf(event.stream)!;
    const actor = actorOf(event);
    const patch = patchOf(event, resource);
    return {
      id,
      accountId: accountOf(event)!,
      at: event.metadata.occurredAt,
      actor,
      actorKey: actorKey(actor),
      resource: `${resource.type}:${resource.id}`,
      resourceType: resource.type,
      resourceId: resource.id,
      stream: event.stream,
      revision: event.revision.toString(),
      eventType: event.type,
      action: actionOf(event.type),
      set: Object.entries(patch.set).map(([field, after]) => ({ field, before: null, after })),
    };
  },
};

/**
 * Per resource stream, the bounded snapshot the diffs need: folding each audited event gives its before → after,
 * kept for the resource's latest DIFFS_KEPT changes. Queries join these to the entries they list.
 */
export const auditResourcesProjection: Projection<AuditResourceDoc> = {
  name: 'audit_resources',
  version: 1,
  handles: AUDITED_EVENTS,
  indexes: [{ field: 'accountId' }],
  ids: (event) => (resourceOf(event.stream) && accountOf(event) ? [event.stream] : []),
  evolve(doc, event: RecordedEvent, id) {
    const resource = resourceOf(event.stream)!;
    const { next, changes } = applyPatch(doc?.fields ?? {}, patchOf(event, resource));
    const diffs = [...(doc?.diffs ?? []), { revision: event.revision.toString(), changes }].slice(-DIFFS_KEPT);
    return {
      id,
      accountId: doc?.accountId ?? accountOf(event)!,
      resource: `${resource.type}:${resource.id}`,
      name: next.name ?? next.email ?? doc?.name ?? null,
      fields: next,
      diffs,
    };
  },
};

import { RecordedEvent } from '../../../core/src/event';
import { Projection } from '../../../core/src/projection';
import { INCIDENT_EVENT_TYPES, IncidentEvent, IncidentState } from '../domain/incident.decider';
import { isOpen, placeInTimeline, Severity, UpdateStatus } from '../domain/incident-timeline';

export interface IncidentUpdateDoc {
  id: string;
  description: string;
  status: UpdateStatus;
  publicIncidentUpdateDate: string;
  notifySubscribers: boolean;
  created_at: string;
  seq: number;
}

/** One incident with its whole timeline: serves the details, the update routes and the list. */
export interface IncidentDoc {
  id: string;
  accountId: string;
  name: string;
  severity: Severity;
  serviceIds: string[];
  lastUpdateStatus: UpdateStatus;
  /** `<accountId>:open` or `<accountId>:resolved`, so the status filter is one indexed lookup. */
  accountState: string;
  /**
   * `<accountId>:<resolvedAt>` while resolved (resolvedAt: the publicIncidentUpdateDate of the
   * resolving update), else null: "resolved since T" is one indexed range of one account.
   */
  accountResolvedAt: string | null;
  /** In timeline order (publicIncidentUpdateDate, then creation order). */
  incidentUpdates: IncidentUpdateDoc[];
  posted: number;
  /** When it happened: its first update's public date (a backfilled incident sits where it happened); lists sort on it. */
  startedAt: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

export const accountState = (accountId: string, open: boolean) => `${accountId}:${open ? 'open' : 'resolved'}`;
export const accountResolvedAt = (accountId: string, at: string) => `${accountId}:${at}`;

/** What the events say of an incident; `settle` derives the rest of its document. */
type IncidentFacts = Pick<IncidentDoc, 'id' | 'accountId' | 'name' | 'severity' | 'serviceIds' | 'incidentUpdates' | 'posted' | 'created_at'>;

/** Re-derives what depends on the timeline, and stamps the change time. */
function settle(doc: IncidentFacts, at: string): IncidentDoc {
  const last = doc.incidentUpdates[doc.incidentUpdates.length - 1];
  // A document always has at least one update once its creation batch is applied; until then it is INVESTIGATING.
  const lastUpdateStatus = last?.status ?? 'INVESTIGATING';
  const open = isOpen(lastUpdateStatus);
  return {
    ...doc,
    lastUpdateStatus,
    startedAt: doc.incidentUpdates[0]?.publicIncidentUpdateDate ?? doc.created_at,
    accountState: accountState(doc.accountId, open),
    accountResolvedAt: open ? null : accountResolvedAt(doc.accountId, last.publicIncidentUpdateDate),
    updated_at: at,
  };
}

export function evolveIncident(doc: IncidentDoc | null, e: RecordedEvent<IncidentEvent>): IncidentDoc | null {
  const at = e.metadata.occurredAt;
  if (e.type === 'IncidentCreated') {
    const { incidentId, accountId, name, severity, serviceIds } = e.data;
    return settle({ id: incidentId, accountId, name, severity, serviceIds, incidentUpdates: [], posted: 0, created_at: at }, at);
  }
  if (!doc) return null;
  switch (e.type) {
    case 'IncidentUpdatePosted': {
      const { updateId, description, status, publicIncidentUpdateDate, notifySubscribers } = e.data;
      const update: IncidentUpdateDoc = { id: updateId, description, status, publicIncidentUpdateDate, notifySubscribers, created_at: at, seq: doc.posted };
      return settle({ ...doc, incidentUpdates: placeInTimeline(doc.incidentUpdates, update), posted: doc.posted + 1 }, at);
    }
    case 'IncidentDetailsChanged': {
      const { name, severity, serviceIds } = e.data;
      return settle({ ...doc, name: name ?? doc.name, severity: severity ?? doc.severity, serviceIds: serviceIds ?? doc.serviceIds }, at);
    }
    case 'IncidentUpdateEdited': {
      const current = doc.incidentUpdates.find((u) => u.id === e.data.updateId);
      if (!current) return doc;
      const { description, status, publicIncidentUpdateDate } = e.data;
      return settle({ ...doc, incidentUpdates: placeInTimeline(doc.incidentUpdates, { ...current, description, status, publicIncidentUpdateDate }) }, at);
    }
    case 'IncidentUpdateDeleted':
      return settle({ ...doc, incidentUpdates: doc.incidentUpdates.filter((u) => u.id !== e.data.updateId) }, at);
    case 'IncidentDeleted':
      return null;
    default:
      return doc;
  }
}

/**
 * The decider's state a document holds (its revision is the stream's): a write to the incident starts from it.
 * During a rebuild the previous version's documents serve, so a new version must keep these fields readable.
 */
export function toIncidentState(doc: IncidentDoc): IncidentState {
  return {
    status: 'active',
    accountId: doc.accountId,
    name: doc.name,
    severity: doc.severity,
    serviceIds: doc.serviceIds,
    updates: doc.incidentUpdates.map(({ id, description, status, publicIncidentUpdateDate, seq }) => ({ id, description, status, publicIncidentUpdateDate, seq })),
    posted: doc.posted,
  };
}

export const incidentsProjection: Projection<IncidentDoc, IncidentEvent> = {
  name: 'incidents',
  version: 3,
  handles: INCIDENT_EVENT_TYPES,
  indexes: [{ field: 'accountId' }, { field: 'accountState' }, { field: 'accountResolvedAt' }, { field: 'serviceIds', array: true }],
  sortField: 'startedAt',
  ids: (event) => [event.data.incidentId],
  evolve: (doc, event) => evolveIncident(doc, event),
};

export const SEVERITIES = ['CRITICAL', 'MAJOR', 'MEDIUM', 'MINOR'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const UPDATE_STATUSES = ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'] as const;
export type UpdateStatus = (typeof UPDATE_STATUSES)[number];

/** Status of a first update that names none. */
export const INITIAL_STATUS: UpdateStatus = 'INVESTIGATING';

/** What the timeline order needs of an update: its public date and its creation order. */
export interface TimelineEntry {
  status: UpdateStatus;
  publicIncidentUpdateDate: string;
  /** Creation order within the incident: 0 for the first update ever posted, never reused. */
  seq: number;
}

/**
 * Chronological order of updates: by publicIncidentUpdateDate, ties by creation order. Dates are
 * stored as normalised ISO strings (UTC, milliseconds, Z), so they compare as text.
 */
export function compareTimeline(a: TimelineEntry, b: TimelineEntry): number {
  if (a.publicIncidentUpdateDate !== b.publicIncidentUpdateDate) return a.publicIncidentUpdateDate < b.publicIncidentUpdateDate ? -1 : 1;
  return a.seq - b.seq;
}

/** Inserts or replaces by id, keeping timeline order; returns a new array. */
export function placeInTimeline<T extends TimelineEntry & { id: string }>(entries: readonly T[], entry: T): T[] {
  return [...entries.filter((e) => e.id !== entry.id), entry].sort(compareTimeline);
}

/** lastUpdateStatus: the status of the latest update in timeline order. */
export function latestStatus(entries: readonly TimelineEntry[]): UpdateStatus | null {
  return entries.length === 0 ? null : entries[entries.length - 1].status;
}

/** An incident is open until its latest update is RESOLVED; a later non-RESOLVED update re-opens it. */
export function isOpen(lastUpdateStatus: UpdateStatus | null): boolean {
  return lastUpdateStatus !== 'RESOLVED';
}

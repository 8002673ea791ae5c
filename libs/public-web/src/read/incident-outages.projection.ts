import { Projection } from '../../../core/src/projection';
import { compareTimeline, INCIDENT_EVENT_TYPES, IncidentEvent, Severity, UpdateStatus } from '../../../incidents/src/incidents.api';

interface TimelinePoint {
  id: string;
  status: UpdateStatus;
  publicIncidentUpdateDate: string;
  seq: number;
}

/** Seconds an incident covered on one UTC day (`YYYY-MM-DD`). */
export interface OutageDay {
  day: string;
  seconds: number;
}

/**
 * The daily rollup of one incident, for the public uptime bars: when it was down, split by day. Down
 * means from an update that is not RESOLVED to the next RESOLVED one, by public update date, so a
 * backfilled timeline counts where it says it happened.
 */
export interface IncidentOutageDoc {
  id: string;
  accountId: string;
  severity: Severity;
  serviceIds: string[];
  timeline: TimelinePoint[];
  posted: number;
  /** Closed down periods split by UTC day; a period still open is in `openSince`. */
  days: OutageDay[];
  /** Start of the period still open (the incident is unresolved), else null. */
  openSince: string | null;
  /** Days the incident shows on even when it covered no time (resolved by its first update). */
  touchedDays: string[];
  /** `<accountId>:<last day it covers>` (`9999-12-31` while open): "incidents of the last 90 days" is one indexed range. */
  accountLastDay: string;
  [field: string]: unknown;
}

export const INCIDENT_OUTAGES = 'public_incident_outages';
export const OPEN_LAST_DAY = '9999-12-31';
const DAY_MS = 86_400_000;

export const dayOf = (iso: string | number): string => new Date(iso).toISOString().slice(0, 10);

/** Adds the seconds of [from, to) to each UTC day it covers. */
export function splitByDay(from: number, to: number, into: Map<string, number>): void {
  let start = from;
  while (start < to) {
    const dayEnd = Math.floor(start / DAY_MS) * DAY_MS + DAY_MS;
    const end = Math.min(to, dayEnd);
    const day = dayOf(start);
    into.set(day, (into.get(day) ?? 0) + (end - start) / 1000);
    start = end;
  }
}

/** Re-derives the periods and days from the timeline. */
function settle(doc: IncidentOutageDoc): IncidentOutageDoc {
  const seconds = new Map<string, number>();
  const touched = new Set<string>();
  let downFrom: string | null = null;
  for (const point of doc.timeline) {
    touched.add(dayOf(point.publicIncidentUpdateDate));
    if (point.status !== 'RESOLVED') {
      downFrom ??= point.publicIncidentUpdateDate;
    } else if (downFrom !== null) {
      splitByDay(Date.parse(downFrom), Date.parse(point.publicIncidentUpdateDate), seconds);
      downFrom = null;
    }
  }
  const days = [...seconds].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, s]) => ({ day, seconds: s }));
  const touchedDays = [...touched].sort();
  const last = downFrom !== null ? OPEN_LAST_DAY : (touchedDays[touchedDays.length - 1] ?? OPEN_LAST_DAY);
  return { ...doc, days, touchedDays, openSince: downFrom, accountLastDay: `${doc.accountId}:${last}` };
}

function place(timeline: TimelinePoint[], point: TimelinePoint): TimelinePoint[] {
  return [...timeline.filter((p) => p.id !== point.id), point].sort(compareTimeline);
}

export const incidentOutagesProjection: Projection<IncidentOutageDoc, IncidentEvent> = {
  name: INCIDENT_OUTAGES,
  version: 1,
  handles: INCIDENT_EVENT_TYPES,
  indexes: [{ field: 'accountLastDay' }],
  ids: (event) => [event.data.incidentId],
  evolve(doc, e) {
    if (e.type === 'IncidentCreated') {
      const { incidentId, accountId, severity, serviceIds } = e.data;
      return settle({ id: incidentId, accountId, severity, serviceIds: [...serviceIds], timeline: [], posted: 0, days: [], openSince: null, touchedDays: [], accountLastDay: '' });
    }
    if (!doc) return null;
    switch (e.type) {
      case 'IncidentUpdatePosted': {
        const { updateId, status, publicIncidentUpdateDate } = e.data;
        return settle({ ...doc, timeline: place(doc.timeline, { id: updateId, status, publicIncidentUpdateDate, seq: doc.posted }), posted: doc.posted + 1 });
      }
      case 'IncidentUpdateEdited': {
        const current = doc.timeline.find((p) => p.id === e.data.updateId);
        if (!current) return doc;
        return settle({ ...doc, timeline: place(doc.timeline, { ...current, status: e.data.status, publicIncidentUpdateDate: e.data.publicIncidentUpdateDate }) });
      }
      case 'IncidentUpdateDeleted':
        return settle({ ...doc, timeline: doc.timeline.filter((p) => p.id !== e.data.updateId) });
      case 'IncidentDetailsChanged':
        return { ...doc, severity: e.data.severity ?? doc.severity, serviceIds: e.data.serviceIds ? [...e.data.serviceIds] : doc.serviceIds };
      case 'IncidentDeleted':
        return null;
      default:
        return doc;
    }
  },
};

import { AuditFilter, RESOURCE_TYPE_NAMES } from '../../../audit/src/audit.api';
import { PageAfter } from '../../../read-store/src/read-store.port';

/** What the audit page's filter form sent, kept to show again beside its errors. */
export interface AuditFilterValues {
  resource: string;
  actor: string;
  from: string;
  to: string;
}

export interface ParsedAuditFilter {
  values: AuditFilterValues;
  filter: AuditFilter;
  after?: PageAfter;
  errors: Record<string, string>;
}

const RESOURCE = new RegExp(`^(${RESOURCE_TYPE_NAMES.join('|')})(:[A-Za-z0-9._-]{1,100})?$`, 'i');
const ACTOR = /^(system|(person|key):[A-Za-z0-9._-]{1,100})$/;
/** A datetime-local value (minutes, optional seconds), read as UTC, or a full ISO date-time. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z)?$/;

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 200) : '');

/** A datetime-local value as an ISO instant (UTC), or null when it is no such value. */
export function instantOf(value: string): string | null {
  if (!LOCAL_TIME.test(value)) return null;
  const at = new Date(value.endsWith('Z') ? value : `${value}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** An ISO instant as a datetime-local value (UTC, to the minute). */
export const localOf = (iso: string) => iso.slice(0, 16);

/** The page cursor: the last row's time and id, opaque to the reader. */
export const cursorOf = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');

function afterOf(value: string): PageAfter | undefined | null {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string' && instantOf(parsed[0])) return { value: parsed[0], id: parsed[1] };
  } catch {
    // Not JSON: the same answer as any other bad cursor.
  }
  return null;
}

/** Reads and checks the filter of the audit page and its exports; every error is named by its field. */
export function parseAuditFilter(query: unknown): ParsedAuditFilter {
  const q = (query ?? {}) as Record<string, unknown>;
  const values: AuditFilterValues = { resource: text(q.resource), actor: text(q.actor), from: text(q.from), to: text(q.to) };
  const errors: Record<string, string> = {};
  const filter: AuditFilter = {};
  if (values.resource) {
    if (RESOURCE.test(values.resource)) filter.resource = values.resource.toLowerCase();
    else errors.resource = `Name a resource as type or type:id, the type one of ${RESOURCE_TYPE_NAMES.join(', ')}.`;
  }
  if (values.actor) {
    if (ACTOR.test(values.actor)) filter.actor = values.actor.toLowerCase();
    else errors.actor = 'Choose a person, a key or Vigil from the list.';
  }
  for (const field of ['from', 'to'] as const) {
    if (!values[field]) continue;
    const at = instantOf(values[field]);
    if (at) filter[field] = at;
    else errors[field] = 'Enter a date and time, such as 2026-11-28T09:30 (UTC).';
  }
  if (filter.from && filter.to && filter.from >= filter.to) errors.to = 'The end must be after the start.';
  const after = afterOf(text(q.after));
  if (after === null) errors.after = 'This page link is not valid: start again from the first page.';
  return { values, filter, after: after ?? undefined, errors };
}

/** The filter as query parameters (for the next page and the exports). */
export function filterQuery(values: AuditFilterValues): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  return params.toString();
}

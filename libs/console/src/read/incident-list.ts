import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { isUuid } from '../../../core/src/ids';
import { incidentDate, IncidentsQuery, IncidentView, SEVERITIES } from '../../../incidents/src/incidents.api';

/** Incidents on one page of the console's list. */
export const INCIDENTS_PER_PAGE = 50;
/** Rows read per question while a search or severity filter skips the ones that do not match. */
const SCAN_BATCH = 200;
/** Most rows one page of a search reads; past that it offers to search older incidents. */
const SCAN_MAX = 2_000;

/** The list's search and filters, as the page's query string gives them (validated). */
export interface IncidentListParams {
  search: string;
  status?: 'open' | 'resolved';
  severity?: string;
  serviceId?: string;
  /** Continue after this incident: `<its date>_<its id>`. */
  after?: { value: string; id: string };
}

export interface IncidentListPage {
  incidents: IncidentView[];
  /** The cursor of the next page, when there may be one. */
  next: string | null;
  /** True when a search stopped after SCAN_MAX rows without filling the page. */
  scanned: boolean;
}

/** Reads the query string; an unusable value is an error for the page to show. */
export function readListParams(query: Record<string, unknown>): { params: IncidentListParams; error: string | null } {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  const params: IncidentListParams = { search: text('search').slice(0, 255) };
  const status = text('status');
  const severity = text('severity');
  const service = text('service').toLowerCase();
  const after = text('after');
  if (status === 'open' || status === 'resolved') params.status = status;
  else if (status !== '') return { params, error: 'Filter by status open or resolved.' };
  if ((SEVERITIES as readonly string[]).includes(severity)) params.severity = severity;
  else if (severity !== '') return { params, error: `Filter by a severity: ${SEVERITIES.join(', ')}.` };
  if (isUuid(service)) params.serviceId = service;
  else if (service !== '') return { params, error: 'No such service.' };
  if (after !== '') {
    const cut = after.lastIndexOf('_');
    const value = after.slice(0, cut);
    const id = after.slice(cut + 1).toLowerCase();
    if (cut < 0 || !isUuid(id) || Number.isNaN(Date.parse(value))) return { params, error: 'This page of the list does not exist: start from the first.' };
    params.after = { value, id };
  }
  return { params, error: null };
}

/** The console's incident list: the API's list read page by page, the name search and severity applied on the way. */
@Injectable()
export class IncidentList {
  constructor(private readonly queries: QueryBus) {}

  async page(accountId: string, params: IncidentListParams): Promise<IncidentListPage> {
    const filter = { ...(params.status && { status: params.status }), ...(params.serviceId && { serviceIds: [params.serviceId] }) };
    const needle = params.search.toLowerCase();
    const matches = (i: IncidentView) => (needle === '' || i.name.toLowerCase().includes(needle)) && (!params.severity || i.severity === params.severity);
    const filtered = needle !== '' || params.severity !== undefined;
    const batch = filtered ? SCAN_BATCH : INCIDENTS_PER_PAGE;
    const found: IncidentView[] = [];
    let after = params.after;
    let read = 0;
    for (;;) {
      const rows: IncidentView[] = await this.queries.execute(new IncidentsQuery({ type: 'ListIncidents', accountId, limit: batch, after, filter }));
      const more = rows.length > batch;
      const page = rows.slice(0, batch);
      for (const row of page) {
        read++;
        after = { value: incidentDate(row), id: row.id };
        if (!matches(row)) continue;
        found.push(row);
        if (found.length === INCIDENTS_PER_PAGE) return { incidents: found, next: more || row !== page[page.length - 1] ? cursor(row) : null, scanned: false };
      }
      if (!more) return { incidents: found, next: null, scanned: false };
      if (read >= SCAN_MAX) return { incidents: found, next: cursor(after!), scanned: true };
    }
  }
}

const cursor = (at: { value: string; id: string } | IncidentView) => ('value' in at ? `${at.value}_${at.id}` : `${incidentDate(at)}_${at.id}`);

import { IncidentCommand, IncidentView, SEVERITIES, Severity, UPDATE_STATUSES, UpdateStatus } from '../../../incidents/src/incidents.api';
import { ServiceView } from '../../../status-pages/src/status-pages.api';
import { fieldOf } from './console-access';

/** One checkbox per service, named by its id (the shared form parser keeps one value per name). */
export const SERVICE_FIELD = 'service-';

/** The API's limits for an incident (its name, an update's text, services per incident, dates ahead of the clock). */
export const MAX_NAME = 255;
export const MAX_DESCRIPTION = 10_000;
export const MAX_SERVICES = 50;
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

export type FieldErrors = Record<string, string>;

/** What a form sent, kept to show again beside its errors. Dates are as typed: `YYYY-MM-DDTHH:MM`, UTC. */
export interface IncidentFormValues {
  name: string;
  severity: string;
  services: string[];
  status: string;
  description: string;
  notify: boolean;
  /** The (first) update's public date; empty: now. */
  at: string;
  /** Backfilling a past incident: when it was resolved, and what customers read then. */
  resolvedAt: string;
  resolution: string;
}

export function readIncidentForm(body: unknown): IncidentFormValues {
  return {
    name: fieldOf(body, 'name').trim(),
    severity: fieldOf(body, 'severity'),
    services: servicesOf(body),
    status: fieldOf(body, 'status'),
    description: fieldOf(body, 'description').trim(),
    notify: fieldOf(body, 'notify') === 'on',
    at: fieldOf(body, 'at').trim(),
    resolvedAt: fieldOf(body, 'resolvedAt').trim(),
    resolution: fieldOf(body, 'resolution').trim(),
  };
}

function servicesOf(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body as Record<string, unknown>)
    .filter(([name, value]) => name.startsWith(SERVICE_FIELD) && value === 'on')
    .map(([name]) => name.slice(SERVICE_FIELD.length).toLowerCase());
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A date typed in a datetime-local field, read as UTC; null when it is not one. */
export function parseUtc(text: string): Date | null {
  const m = LOCAL_TIME.exec(text);
  if (!m) return null;
  const date = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0)));
  // Date.UTC rolls 2026-02-30 over to March: such a day is not a date.
  return date.getUTCDate() === +m[3] && date.getUTCMonth() === +m[2] - 1 && date.getUTCHours() === +m[4] ? date : null;
}

/** The value a datetime-local field shows for a stored date. */
export const localValue = (iso: string) => iso.slice(0, 16);

function dateError(text: string, now: Date): string | null {
  const date = parseUtc(text);
  if (!date) return 'A date and time (UTC), like 2026-03-01T14:30.';
  if (date.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) return 'Not in the future: leave empty for now.';
  return null;
}

function textError(text: string, empty: string): string | null {
  if (text === '') return empty;
  if (text.length > MAX_DESCRIPTION) return `At most ${MAX_DESCRIPTION} characters (this has ${text.length}).`;
  return null;
}

/** The update's part of a form: status, text and optional date, checked as the API checks them. */
export function updateErrors(values: Pick<IncidentFormValues, 'status' | 'description' | 'at'>, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  if (!(UPDATE_STATUSES as readonly string[]).includes(values.status)) errors.status = `Choose a status: ${UPDATE_STATUSES.join(', ')}.`;
  const text = textError(values.description, 'Write what customers should read.');
  if (text) errors.description = text;
  const at = values.at === '' ? null : dateError(values.at, now);
  if (at) errors.at = at;
  return errors;
}

/** Name, severity and services, as the API's create and patch check them; `known` are the account's service ids. */
export function detailsErrors(values: Pick<IncidentFormValues, 'name' | 'severity' | 'services'>, known: Set<string>): FieldErrors {
  const errors: FieldErrors = {};
  if (values.name === '') errors.name = 'Name the incident, as customers will see it.';
  else if (values.name.length > MAX_NAME) errors.name = `At most ${MAX_NAME} characters (this has ${values.name.length}).`;
  if (!(SEVERITIES as readonly string[]).includes(values.severity)) errors.severity = `Choose a severity: ${SEVERITIES.join(', ')}.`;
  if (values.services.length === 0) errors.services = 'Choose at least one affected service.';
  else if (values.services.length > MAX_SERVICES) errors.services = `At most ${MAX_SERVICES} services.`;
  else if (values.services.some((id) => !known.has(id))) errors.services = 'Choose services of this account (one is no longer there: reload the page).';
  else if (new Set(values.services).size !== values.services.length) errors.services = 'Each service once.';
  return errors;
}

/** A declaration's errors, a backfilled resolution's included. */
export function declarationErrors(values: IncidentFormValues, known: Set<string>, now: Date): FieldErrors {
  const errors: FieldErrors = { ...updateErrors(values, now), ...detailsErrors(values, known) };
  if (values.resolvedAt === '' && values.resolution === '') return errors;
  if (values.resolvedAt === '') errors.resolvedAt = 'When was it resolved? Or leave the resolution empty.';
  else {
    const resolvedAt = dateError(values.resolvedAt, now);
    const started = parseUtc(values.at);
    if (resolvedAt) errors.resolvedAt = resolvedAt;
    else if (!started) errors.at ??= 'A past incident needs its start (UTC), like 2026-03-01T14:30.';
    else if (parseUtc(values.resolvedAt)!.getTime() < started.getTime()) errors.resolvedAt = 'Resolved after it started.';
  }
  const resolution = textError(values.resolution, 'Write what customers read when it was resolved.');
  if (resolution) errors.resolution = resolution;
  return errors;
}

const dateOf = (text: string, now: string) => (text === '' ? now : parseUtc(text)!.toISOString());

/** The first update, and a resolving one when a past incident is backfilled. */
function declaredUpdates(values: IncidentFormValues, ids: () => string, now: string) {
  const first = { id: ids(), description: values.description, status: values.status as UpdateStatus, publicIncidentUpdateDate: dateOf(values.at, now), notifySubscribers: values.notify };
  if (values.resolvedAt === '') return [first];
  return [first, { id: ids(), description: values.resolution, status: 'RESOLVED' as const, publicIncidentUpdateDate: dateOf(values.resolvedAt, now), notifySubscribers: values.notify }];
}

export function declareCommand(values: IncidentFormValues, accountId: string, id: string, ids: () => string, now: string): IncidentCommand {
  return { type: 'CreateIncident', id, accountId, name: values.name, severity: values.severity as Severity, serviceIds: values.services, updates: declaredUpdates(values, ids, now) };
}

export function updateCommand(values: IncidentFormValues, accountId: string, id: string, updateId: string, now: string): IncidentCommand {
  const update = { id: updateId, description: values.description, status: values.status as UpdateStatus, publicIncidentUpdateDate: dateOf(values.at, now), notifySubscribers: values.notify };
  return { type: 'PostIncidentUpdate', id, accountId, update };
}

export function changeCommand(values: IncidentFormValues, accountId: string, id: string): IncidentCommand {
  return { type: 'ChangeIncident', id, accountId, name: values.name, severity: values.severity as Severity, serviceIds: values.services };
}

/** An edit keeps the update's date when the field is left empty; notifying is never changed (edits never re-send). */
export function editCommand(values: IncidentFormValues, accountId: string, id: string, updateId: string): IncidentCommand {
  const date = values.at === '' ? null : parseUtc(values.at)!.toISOString();
  return { type: 'EditIncidentUpdate', id, accountId, updateId, description: values.description, status: values.status as UpdateStatus, publicIncidentUpdateDate: date };
}

/** The incident a valid declaration would create, for the preview of what customers will see. */
export function previewIncident(values: IncidentFormValues, services: ServiceView[], now: string): IncidentView {
  const byId = new Map(services.map((s) => [s.id, s]));
  let n = 0;
  const updates = declaredUpdates(values, () => `preview-${n++}`, now).map((u) => ({ ...u, created_at: now }));
  return {
    id: 'preview',
    name: values.name,
    severity: values.severity as Severity,
    lastUpdateStatus: updates[updates.length - 1].status,
    services: values.services.flatMap((id) => byId.get(id) ?? []),
    incidentUpdates: updates,
    created_at: now,
    updated_at: now,
  };
}

/** The choices of a select, the sent (or default) one selected. */
export const choices = (all: readonly string[], selected: string) => all.map((value) => ({ value, selected: value === selected }));

import { IncidentCommand, SEVERITIES, Severity, UPDATE_STATUSES, UpdateStatus } from '../../../incidents/src/incidents.api';
import { fieldOf } from './console-access';

/** One checkbox per service, named by its id (the shared form parser keeps one value per name). */
export const SERVICE_FIELD = 'service-';

/** The API's limits for an incident (its name, an update's text, services per incident). */
export const MAX_NAME = 255;
export const MAX_DESCRIPTION = 10_000;
export const MAX_SERVICES = 50;

export type FieldErrors = Record<string, string>;

/** What a form sent, kept to show again beside its errors. */
export interface IncidentFormValues {
  name: string;
  severity: string;
  services: string[];
  status: string;
  description: string;
  notify: boolean;
}

export function readIncidentForm(body: unknown): IncidentFormValues {
  return {
    name: fieldOf(body, 'name').trim(),
    severity: fieldOf(body, 'severity'),
    services: servicesOf(body),
    status: fieldOf(body, 'status'),
    description: fieldOf(body, 'description').trim(),
    notify: fieldOf(body, 'notify') === 'on',
  };
}

function servicesOf(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body as Record<string, unknown>)
    .filter(([name, value]) => name.startsWith(SERVICE_FIELD) && value === 'on')
    .map(([name]) => name.slice(SERVICE_FIELD.length).toLowerCase());
}

/** The update's part of a form: status and text, checked as the API checks them. */
export function updateErrors(values: Pick<IncidentFormValues, 'status' | 'description'>): FieldErrors {
  const errors: FieldErrors = {};
  if (!(UPDATE_STATUSES as readonly string[]).includes(values.status)) errors.status = `Choose a status: ${UPDATE_STATUSES.join(', ')}.`;
  if (values.description === '') errors.description = 'Write what customers should read.';
  else if (values.description.length > MAX_DESCRIPTION) errors.description = `At most ${MAX_DESCRIPTION} characters (this has ${values.description.length}).`;
  return errors;
}

/** A declaration's errors; `known` are the ids of the account's services. */
export function declarationErrors(values: IncidentFormValues, known: Set<string>): FieldErrors {
  const errors: FieldErrors = updateErrors(values);
  if (values.name === '') errors.name = 'Name the incident, as customers will see it.';
  else if (values.name.length > MAX_NAME) errors.name = `At most ${MAX_NAME} characters (this has ${values.name.length}).`;
  if (!(SEVERITIES as readonly string[]).includes(values.severity)) errors.severity = `Choose a severity: ${SEVERITIES.join(', ')}.`;
  if (values.services.length > MAX_SERVICES) errors.services = `At most ${MAX_SERVICES} services.`;
  else if (values.services.some((id) => !known.has(id))) errors.services = 'Choose services of this account (one is no longer there: reload the page).';
  else if (new Set(values.services).size !== values.services.length) errors.services = 'Each service once.';
  return errors;
}

export function declareCommand(values: IncidentFormValues, accountId: string, id: string, updateId: string, now: string): IncidentCommand {
  return {
    type: 'CreateIncident',
    id,
    accountId,
    name: values.name,
    severity: values.severity as Severity,
    serviceIds: values.services,
    updates: [{ id: updateId, description: values.description, status: values.status as UpdateStatus, publicIncidentUpdateDate: now, notifySubscribers: values.notify }],
  };
}

export function updateCommand(values: IncidentFormValues, accountId: string, id: string, updateId: string, now: string): IncidentCommand {
  return { type: 'PostIncidentUpdate', id, accountId, update: { id: updateId, description: values.description, status: values.status as UpdateStatus, publicIncidentUpdateDate: now, notifySubscribers: values.notify } };
}

/** The choices of a select, the sent (or default) one selected. */
export const choices = (all: readonly string[], selected: string) => all.map((value) => ({ value, selected: value === selected }));

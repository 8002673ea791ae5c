import { IncidentTemplateView } from '../../../incidents/src/incidents.api';
import { fieldOf } from './console-access';
import { FieldErrors } from './form-check';
import { IncidentFormValues, SERVICE_FIELD } from './incident-form';

/** What a template form sent, as typed (shown again beside its errors). */
export interface TemplateFormValues {
  name: string;
  title: string;
  severity: string;
  status: string;
  body: string;
  services: string[];
  notify: boolean;
}

export const BLANK_TEMPLATE: TemplateFormValues = { name: '', title: '', severity: 'MAJOR', status: 'INVESTIGATING', body: '', services: [], notify: false };

export function readTemplateForm(body: unknown): TemplateFormValues {
  const services = body && typeof body === 'object'
    ? Object.entries(body as Record<string, unknown>).filter(([name, value]) => name.startsWith(SERVICE_FIELD) && value === 'on').map(([name]) => name.slice(SERVICE_FIELD.length).toLowerCase())
    : [];
  return {
    name: fieldOf(body, 'name'),
    title: fieldOf(body, 'title'),
    severity: fieldOf(body, 'severity'),
    status: fieldOf(body, 'status'),
    body: fieldOf(body, 'body'),
    services,
    notify: fieldOf(body, 'notify') === 'on',
  };
}

/** The form as the API's body: what the API's DTO, then its command handler, check. */
export const templateBody = (values: TemplateFormValues): Record<string, unknown> => ({
  name: values.name,
  title: values.title,
  severity: values.severity,
  status: values.status,
  body: values.body,
  services: values.services.map((id) => ({ id })),
  notifySubscribers: values.notify,
});

export const templateValues = (t: IncidentTemplateView): TemplateFormValues => ({
  name: t.name,
  title: t.title,
  severity: t.severity,
  status: t.status,
  body: t.body,
  services: t.services.map((s) => s.id),
  notify: t.notifySubscribers,
});

/** The API names a service's error by its index (`services[2].id`); the form has one place for them all. */
export function formErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = path.startsWith('services') ? 'services' : path === 'notifySubscribers' ? 'notify' : path;
    out[field] ??= field === 'services' && path !== 'services' ? 'Choose services of this account, each once (one may have been deleted: reload the page).' : message;
  }
  return out;
}

/** The declare form's values from a template: the incident's name, severity, services and first update. */
export const declaredFrom = (t: IncidentTemplateView, blank: IncidentFormValues): IncidentFormValues => ({
  ...blank,
  name: t.title,
  severity: t.severity,
  services: t.services.map((s) => s.id),
  status: t.status,
  description: t.body,
  notify: t.notifySubscribers,
});

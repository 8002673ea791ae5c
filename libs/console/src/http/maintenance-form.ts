import { MaintenanceWindowView, REPEAT_UNITS } from '../../../maintenance/src/maintenance.api';
import { fieldOf } from './console-access';
import { FieldErrors } from './form-check';

/** One checkbox per service, named by its id. */
export const SERVICE_FIELD = 'service-';

/** What a maintenance form sent, as typed (shown again beside its errors). */
export interface WindowValues {
  name: string;
  startsAt: string;
  endsAt: string;
  timezone: string;
  repeatInterval: string;
  repeatUnit: string;
  repeatEndsAt: string;
  tags: string;
  services: string[];
}

export function readWindowForm(body: unknown): WindowValues {
  const services = body && typeof body === 'object'
    ? Object.entries(body as Record<string, unknown>).filter(([name, value]) => name.startsWith(SERVICE_FIELD) && value === 'on').map(([name]) => name.slice(SERVICE_FIELD.length).toLowerCase())
    : [];
  const text = (name: string) => fieldOf(body, name).trim();
  return {
    name: text('name'), startsAt: text('startsAt'), endsAt: text('endsAt'), timezone: text('timezone'), repeatInterval: text('repeatInterval'),
    repeatUnit: text('repeatUnit'), repeatEndsAt: text('repeatEndsAt'), tags: text('tags'), services,
  };
}

/** A date-time field's `YYYY-MM-DDTHH:MM` (what a browser sends) is UTC; anything else goes to the API's rule as typed. */
const instant = (value: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value}Z` : value);

/** The form as the API's body: what the API's DTO then checks. */
export function windowBody(values: WindowValues): Record<string, unknown> {
  return {
    name: values.name,
    startsAt: instant(values.startsAt),
    endsAt: instant(values.endsAt),
    timezone: values.timezone || null,
    repeatInterval: values.repeatInterval === '' ? null : /^\d{1,9}$/.test(values.repeatInterval) ? Number(values.repeatInterval) : values.repeatInterval,
    repeatUnit: values.repeatUnit || null,
    repeatEndsAt: values.repeatEndsAt ? instant(values.repeatEndsAt) : null,
    tags: values.tags.split(',').map((tag) => tag.trim()).filter((tag) => tag !== ''),
    serviceIds: values.services,
  };
}

/** Errors on services the account does not have (the API's rule: its own services only). */
export function serviceErrors(values: WindowValues, known: Set<string>): FieldErrors {
  return values.services.some((id) => !known.has(id)) ? { serviceIds: 'Choose services of this account (one is no longer there: reload the page).' } : {};
}

const local = (iso: string | null) => (iso ? iso.slice(0, 16) : '');

export function windowValues(w: MaintenanceWindowView): WindowValues {
  return {
    name: w.name, startsAt: local(w.startsAt), endsAt: local(w.endsAt), timezone: w.timezone, repeatInterval: w.repeatInterval === null ? '' : String(w.repeatInterval),
    repeatUnit: w.repeatUnit ?? '', repeatEndsAt: local(w.repeatEndsAt), tags: w.tags.join(', '), services: w.serviceIds,
  };
}

export const BLANK_WINDOW: WindowValues = { name: '', startsAt: '', endsAt: '', timezone: 'UTC', repeatInterval: '', repeatUnit: '', repeatEndsAt: '', tags: '', services: [] };

export const repeatChoices = (selected: string) => [{ value: '', text: 'Does not repeat', selected: selected === '' }, ...REPEAT_UNITS.map((value) => ({ value, selected: value === selected }))];

export type WindowPhase = 'active' | 'upcoming' | 'repeating' | 'past';

/** Where a window stands at `now` (ISO); `active`: it is in an occurrence now. A repeating window is "repeating" until its repeats end. */
export function phaseOf(w: MaintenanceWindowView, now: string, active: boolean): WindowPhase {
  if (active) return 'active';
  if (w.repeatInterval && w.repeatUnit) return w.repeatEndsAt !== null && w.repeatEndsAt <= now && w.endsAt <= now ? 'past' : 'repeating';
  if (w.endsAt <= now) return 'past';
  return w.startsAt <= now ? 'active' : 'upcoming';
}

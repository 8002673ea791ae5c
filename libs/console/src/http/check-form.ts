import { ViolationDetail } from '../../../core/src/errors';
import { CheckInput, CheckView } from '../../../heartbeats/src/heartbeats.api';
import { fieldOf } from './console-access';
import { choices, FieldErrors } from './incident-form';

/** One checkbox per alert channel, named by the channel's id. */
export const CHANNEL_FIELD = 'channel-';
export const UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
type Unit = (typeof UNITS)[number];

/** What a check form sent (or what a stored check shows): every field as typed. */
export interface CheckFormValues {
  name: string;
  tags: string;
  description: string;
  /** `period`: every so often; `schedule`: a cron expression in a time zone. */
  timing: 'period' | 'schedule';
  period: string;
  periodUnit: string;
  schedule: string;
  timezone: string;
  grace: string;
  graceUnit: string;
  channels: string[];
}

export const BLANK_CHECK: CheckFormValues = { name: '', tags: '', description: '', timing: 'period', period: '1', periodUnit: 'days', schedule: '', timezone: 'UTC', grace: '1', graceUnit: 'hours', channels: [] };

export function readCheckForm(body: unknown): CheckFormValues {
  const channels = body && typeof body === 'object' ? Object.entries(body as Record<string, unknown>).filter(([n, v]) => n.startsWith(CHANNEL_FIELD) && v === 'on').map(([n]) => n.slice(CHANNEL_FIELD.length).toLowerCase()) : [];
  const f = (name: string) => fieldOf(body, name).trim();
  return {
    name: f('name'),
    tags: f('tags'),
    description: f('description'),
    timing: f('timing') === 'schedule' ? 'schedule' : 'period',
    period: f('period'),
    periodUnit: f('periodUnit'),
    schedule: f('schedule'),
    timezone: f('timezone'),
    grace: f('grace'),
    graceUnit: f('graceUnit'),
    channels,
  };
}

export function checkValues(check: CheckView): CheckFormValues {
  const hb = check.heartbeat;
  return {
    name: check.name,
    tags: check.tags.join(', '),
    description: check.description ?? '',
    timing: hb.schedule ? 'schedule' : 'period',
    period: hb.period === null || hb.period === undefined ? '' : String(hb.period),
    periodUnit: hb.periodUnit ?? 'days',
    schedule: hb.schedule ?? '',
    timezone: hb.timezone ?? 'UTC',
    grace: String(hb.grace),
    graceUnit: hb.graceUnit,
    channels: check.alertChannelSubscriptions.filter((s) => s.activated).map((s) => s.alertChannelId),
  };
}

const whole = (text: string) => (/^\d{1,9}$/.test(text) ? Number(text) : null);
const unit = (text: string) => ((UNITS as readonly string[]).includes(text) ? (text as Unit) : null);

/**
 * The check's configuration from the form, checked as the API's body is (name, tags, numbers); timing is
 * the decider's to judge. `base` is the stored check an edit starts from: what the form does not show is kept.
 */
export function checkInput(values: CheckFormValues, base: CheckView | null): { input: CheckInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (values.name === '') errors.name = 'Name the check.';
  else if (values.name.length > 255) errors.name = `At most 255 characters (this has ${values.name.length}).`;
  const tags = values.tags.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (tags.length > 50) errors.tags = 'At most 50 tags.';
  else if (tags.some((t) => t.length > 100)) errors.tags = 'Each tag at most 100 characters.';
  if (values.description.length > 500) errors.description = `At most 500 characters (this has ${values.description.length}).`;
  const grace = whole(values.grace);
  if (grace === null) errors.grace = 'Grace is a whole number.';
  if (!unit(values.graceUnit)) errors.grace = `Choose a unit: ${UNITS.join(', ')}.`;
  const period = values.timing === 'period' ? whole(values.period) : null;
  if (values.timing === 'period') {
    if (period === null || period < 1) errors.period = 'The period is a whole number of at least 1.';
    else if (!unit(values.periodUnit)) errors.period = `Choose a unit: ${UNITS.join(', ')}.`;
  } else if (values.schedule === '') errors.schedule = 'Write a cron schedule, for example 0 3 * * *.';
  const tokenOf = base?.heartbeat.pingToken ?? null;
  const input: CheckInput = {
    name: values.name,
    activated: base?.activated ?? true,
    muted: base?.muted ?? false,
    tags: [...new Set(tags)],
    description: values.description || null,
    slug: base?.slug ?? null,
    heartbeat: {
      period: values.timing === 'period' ? period : null,
      periodUnit: values.timing === 'period' ? unit(values.periodUnit) : null,
      schedule: values.timing === 'schedule' ? values.schedule : null,
      timezone: values.timing === 'schedule' ? values.timezone || 'UTC' : null,
      grace: grace ?? 0,
      graceUnit: unit(values.graceUnit) ?? 'minutes',
      pingToken: tokenOf,
    },
    triggerIncident: base?.triggerIncident ?? null,
    alertSettings: base?.alertSettings ?? null,
    alertChannelSubscriptions: channelSubscriptions(values.channels, base),
  };
  return { input, errors };
}

/** The boxes ticked are active; a stored deactivated subscription left unticked stays as it was. */
function channelSubscriptions(ticked: string[], base: CheckView | null) {
  const on = new Set(ticked);
  const kept = (base?.alertChannelSubscriptions ?? []).filter((s) => !s.activated && !on.has(s.alertChannelId));
  return [...kept, ...[...on].map((alertChannelId) => ({ alertChannelId, activated: true }))];
}

/** The decider's problems beside the form's fields (`heartbeat.periodUnit` is the period's). */
export function checkFieldErrors(details: ViolationDetail[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of details) {
    const last = path.replace(/\[.*$/, '').split('.').pop() ?? '';
    const field = last === 'periodUnit' ? 'period' : last === 'graceUnit' ? 'grace' : last === 'timezone' ? 'schedule' : last.startsWith('alertChannel') ? 'channels' : ['name', 'tags', 'description', 'period', 'schedule', 'grace'].includes(last) ? last : 'name';
    errors[field] ??= message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');
  }
  return errors;
}

export function checkChoices(values: CheckFormValues) {
  return { periodUnits: choices(UNITS, values.periodUnit), graceUnits: choices(UNITS, values.graceUnit), bySchedule: values.timing === 'schedule' };
}

import { ViolationDetail } from '../../../core/src/errors';
import { CHANNEL_TYPES, ChannelType, ChannelView, OPSGENIE_PRIORITIES, OPSGENIE_REGIONS, WEBHOOK_METHODS, WEBHOOK_TYPES } from '../../../alerting/src/alerting.api';
import { fieldOf } from './console-access';
import { choices, FieldErrors } from './incident-form';

/** One checkbox per check the channel alerts for, named by the check's id. */
export const CHECK_FIELD = 'check-';

const FLAGS = ['sendFailure', 'sendRecovery', 'sendDegraded', 'sslExpiry'] as const;
const TEXTS = ['address', 'url', 'channel', 'name', 'method', 'webhookType', 'headers', 'queryParameters', 'template', 'webhookSecret', 'serviceKey', 'serviceName', 'pdAccount', 'apiKey', 'region', 'priority', 'sslExpiryThreshold'] as const;

/** What a channel form sent (or what a stored channel shows, secrets masked): every field as typed. */
export interface ChannelFormValues {
  type: ChannelType;
  text: Record<(typeof TEXTS)[number], string>;
  flags: Record<(typeof FLAGS)[number], boolean>;
  checks: string[];
}

export const isChannelType = (value: unknown): value is ChannelType => (CHANNEL_TYPES as readonly unknown[]).includes(value);

export function blankChannel(type: ChannelType): ChannelFormValues {
  const text = Object.fromEntries(TEXTS.map((t) => [t, ''])) as ChannelFormValues['text'];
  Object.assign(text, { method: 'POST', webhookType: 'WEBHOOK', region: 'US', priority: 'P3', sslExpiryThreshold: '30' });
  return { type, text, flags: { sendFailure: true, sendRecovery: true, sendDegraded: false, sslExpiry: false }, checks: [] };
}

export function readChannelForm(type: ChannelType, body: unknown): ChannelFormValues {
  const text = Object.fromEntries(TEXTS.map((t) => [t, fieldOf(body, t)])) as ChannelFormValues['text'];
  const flags = Object.fromEntries(FLAGS.map((f) => [f, fieldOf(body, f) === 'on'])) as ChannelFormValues['flags'];
  const checks = body && typeof body === 'object' ? Object.entries(body as Record<string, unknown>).filter(([n, v]) => n.startsWith(CHECK_FIELD) && v === 'on').map(([n]) => n.slice(CHECK_FIELD.length).toLowerCase()) : [];
  return { type, text, flags, checks };
}

/** The stored channel as the API shows it (secrets masked), in the form's fields. */
export function channelValues(channel: ChannelView): ChannelFormValues {
  const values = blankChannel(channel.type);
  const config = channel.config as unknown as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  for (const name of TEXTS) values.text[name] = str(config[name]);
  values.text.pdAccount = str(config.account);
  values.text.headers = pairsText((config.headers ?? []) as { key: string; value: string }[], ': ');
  values.text.queryParameters = pairsText((config.queryParameters ?? []) as { key: string; value: string }[], '=');
  values.text.sslExpiryThreshold = String(channel.sslExpiryThreshold);
  values.flags = { sendFailure: channel.sendFailure, sendRecovery: channel.sendRecovery, sendDegraded: channel.sendDegraded, sslExpiry: channel.sslExpiry };
  values.checks = channel.subscriptions.filter((s) => s.activated).map((s) => s.checkId);
  return values;
}

const pairsText = (pairs: { key: string; value: string }[], separator: string) => pairs.map((p) => `${p.key}${separator}${p.value}`).join('\n');

/** "Name: value" (or "name=value") lines as the API's {key, value} pairs; a line without the separator is an error. */
function pairsOf(text: string, separator: string, field: string, errors: FieldErrors): { key: string; value: string }[] {
  const pairs: { key: string; value: string }[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const at = line.indexOf(separator);
    if (at < 1) errors[field] ??= `Line ${i + 1}: write one per line as name${separator.trim() === '=' ? '=' : ': '}value.`;
    else pairs.push({ key: line.slice(0, at).trim(), value: line.slice(at + separator.length).trim() });
  });
  return pairs;
}

const orNull = (value: string) => (value.trim() === '' ? null : value);

/** The API's JSON body for the form (parseChannelBody checks it), and the errors the lines themselves have. */
export function channelBody(values: ChannelFormValues): { body: Record<string, unknown>; errors: FieldErrors } {
  const t = values.text;
  const errors: FieldErrors = {};
  let config: Record<string, unknown>;
  switch (values.type) {
    case 'EMAIL':
      config = { address: t.address.trim() };
      break;
    case 'SLACK':
      config = { url: t.url.trim(), channel: orNull(t.channel.trim()) };
      break;
    case 'WEBHOOK':
      config = {
        name: t.name.trim(),
        url: t.url.trim(),
        method: t.method,
        webhookType: t.webhookType,
        headers: pairsOf(t.headers, ':', 'headers', errors),
        queryParameters: pairsOf(t.queryParameters, '=', 'queryParameters', errors),
        template: orNull(t.template),
        webhookSecret: orNull(t.webhookSecret.trim()),
      };
      break;
    case 'PAGERDUTY':
      config = { serviceKey: t.serviceKey.trim(), serviceName: orNull(t.serviceName.trim()), account: orNull(t.pdAccount.trim()) };
      break;
    case 'OPSGENIE':
      config = { apiKey: t.apiKey.trim(), region: t.region, priority: t.priority, name: t.name.trim() };
      break;
  }
  const threshold = Number(t.sslExpiryThreshold.trim() || '30');
  return { body: { type: values.type, config, ...values.flags, sslExpiryThreshold: Number.isFinite(threshold) ? threshold : t.sslExpiryThreshold }, errors };
}

/** The API's problems beside the form's fields: `config.headers[2].value` is the headers field. */
export function fieldErrors(details: ViolationDetail[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of details) {
    let field = path.replace(/^config\./, '').replace(/[[.].*$/, '') || 'type';
    if (field === 'account') field = 'pdAccount';
    if (field === 'subscriptions') field = 'checks';
    errors[field] ??= message.charAt(0).toUpperCase() + message.slice(1) + (message.endsWith('.') ? '' : '.');
  }
  return errors;
}

const SECRETS = ['webhookSecret', 'serviceKey', 'apiKey'] as const;

/** A form shown again after a mistake never carries a secret typed into it (a mask of the stored one stays). */
export function forgetTypedSecrets(values: ChannelFormValues, errors: FieldErrors): ChannelFormValues {
  const text = { ...values.text };
  for (const field of SECRETS) {
    if (text[field] === '' || text[field].startsWith('********')) continue;
    text[field] = '';
    errors[field] ??= 'Enter it again: a secret you type is never shown back.';
  }
  return { ...values, text };
}

/** The select choices and flags a channel form shows. */
export function channelChoices(values: ChannelFormValues) {
  return {
    [`is${values.type}`]: true,
    methods: choices(WEBHOOK_METHODS, values.text.method),
    webhookTypes: choices(WEBHOOK_TYPES, values.text.webhookType),
    regions: choices(OPSGENIE_REGIONS, values.text.region),
    priorities: choices(OPSGENIE_PRIORITIES, values.text.priority),
  };
}

export const TYPE_NAMES: Record<ChannelType, string> = { EMAIL: 'Email', SLACK: 'Slack', WEBHOOK: 'Webhook', PAGERDUTY: 'PagerDuty', OPSGENIE: 'Opsgenie' };

/** What a list shows of a channel: its type and the target, as masked as the API shows it. */
export function channelSummary(channel: Pick<ChannelView, 'type' | 'config'>): { title: string; target: string } {
  const c = channel.config as unknown as Record<string, string | null>;
  switch (channel.type) {
    case 'EMAIL':
      return { title: `Email ${c.address}`, target: c.address ?? '' };
    case 'SLACK':
      return { title: `Slack${c.channel ? ` ${c.channel}` : ''}`, target: c.url ?? '' };
    case 'WEBHOOK':
      return { title: `${c.name}`, target: `${c.webhookType} ${c.method} ${c.url}` };
    case 'PAGERDUTY':
      return { title: `PagerDuty${c.serviceName ? ` ${c.serviceName}` : ''}`, target: c.serviceKey ?? '' };
    case 'OPSGENIE':
      return { title: `Opsgenie ${c.name}`, target: `${c.region} ${c.priority}` };
  }
}

import { isUuid } from '../../../core/src/ids';
import { ViolationDetail } from '../../../core/src/errors';
import { isDeliverableAddress } from '../../../status-pages/src/status-pages.api';
import { targetUrlProblem } from '../send/target-check';
import { templateProblem } from '../send/template-renderer';

export const CHANNEL_TYPES = ['EMAIL', 'SLACK', 'WEBHOOK', 'PAGERDUTY', 'OPSGENIE'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const WEBHOOK_TYPES = ['WEBHOOK', 'WEBHOOK_MSTEAMS', 'WEBHOOK_TELEGRAM', 'WEBHOOK_DISCORD', 'WEBHOOK_NTFY'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'HEAD'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];
export const OPSGENIE_REGIONS = ['US', 'EU'] as const;
export const OPSGENIE_PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;

export interface KeyValue {
  key: string;
  value: string;
}

export type EmailConfig = { address: string };
export type SlackConfig = { url: string; channel: string | null };
export interface WebhookConfig {
  name: string;
  url: string;
  method: WebhookMethod;
  headers: KeyValue[];
  queryParameters: KeyValue[];
  template: string | null;
  webhookSecret: string | null;
  webhookType: WebhookType;
}
export type PagerDutyConfig = { serviceKey: string; serviceName: string | null; account: string | null };
export type OpsgenieConfig = { apiKey: string; region: 'US' | 'EU'; priority: string; name: string };
export type ChannelConfig = EmailConfig | SlackConfig | WebhookConfig | PagerDutyConfig | OpsgenieConfig;

/** Everything a channel's API stores, subscriptions apart (they live on the checks). */
export interface ChannelSettings {
  type: ChannelType;
  config: ChannelConfig;
  sendRecovery: boolean;
  sendFailure: boolean;
  sendDegraded: boolean;
  sslExpiry: boolean;
  sslExpiryThreshold: number;
}

export const MAX_URL_LENGTH = 2048;
export const MAX_TEMPLATE_LENGTH = 16_384;
const MAX_TEXT = 255;
const MAX_PAIRS = 50;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
// Header values go on the wire as they are: no control characters (CR/LF would split headers).
const HEADER_VALUE = /^[^\x00-\x1f\x7f]{0,1024}$/;

export interface ValidationOptions {
  /** VIGIL_OUTBOUND_ALLOW_PRIVATE: literal private addresses are accepted. */
  allowPrivate: boolean;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

class Collector {
  readonly details: ViolationDetail[] = [];
  add(path: string, message: string): void {
    this.details.push({ path, message });
  }
  text(raw: Raw, field: string, path: string, { required = true, max = MAX_TEXT, min = 1 } = {}): string | null {
    const value = raw[field];
    if (value === undefined || value === null) {
      if (required) this.add(path, `${field} is required`);
      return null;
    }
    if (typeof value !== 'string') {
      this.add(path, `${field} must be a string`);
      return null;
    }
    if (value.length < min || value.length > max) {
      this.add(path, `${field} must be ${min} to ${max} characters`);
      return null;
    }
    return value;
  }
  bool(raw: Raw, field: string, fallback: boolean): boolean {
    const value = raw[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.add(field, `${field} must be a boolean`);
      return fallback;
    }
    return value;
  }
  oneOf<T extends string>(raw: Raw, field: string, path: string, allowed: readonly T[], fallback?: T): T | null {
    const value = raw[field];
    if ((value === undefined || value === null) && fallback !== undefined) return fallback;
    if (typeof value !== 'string' || !allowed.includes(value as T)) {
      this.add(path, `${field} must be one of ${allowed.join(', ')}`);
      return null;
    }
    return value as T;
  }
  url(raw: Raw, field: string, path: string, options: ValidationOptions): string | null {
    const value = this.text(raw, field, path, { max: MAX_URL_LENGTH });
    if (value === null) return null;
    const problem = targetUrlProblem(value, options);
    if (problem) {
      this.add(path, problem);
      return null;
    }
    return value;
  }
  pairs(raw: Raw, field: string, path: string): KeyValue[] {
    const value = raw[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.length > MAX_PAIRS) {
      this.add(path, `${field} must be an array of at most ${MAX_PAIRS} {key, value} pairs`);
      return [];
    }
    const out: KeyValue[] = [];
    value.forEach((pair, i) => {
      const at = `${path}[${i}]`;
      if (!isObject(pair) || typeof pair.key !== 'string' || typeof pair.value !== 'string') {
        this.add(at, 'must be {key, value} with string key and value');
        return;
      }
      if (!HEADER_NAME.test(pair.key)) this.add(`${at}.key`, 'key must be a token of 1 to 256 characters (letters, digits, -_.!#$%&\'*+^`|~)');
      else if (!HEADER_VALUE.test(pair.value)) this.add(`${at}.value`, 'value must be at most 1024 characters without control characters');
      else out.push({ key: pair.key, value: pair.value });
    });
    return out;
  }
}

function parseConfig(type: ChannelType, raw: unknown, c: Collector, options: ValidationOptions): ChannelConfig | null {
  if (!isObject(raw)) {
    c.add('config', 'config must be an object');
    return null;
  }
  const before = c.details.length;
  const valid = (config: ChannelConfig) => (c.details.length === before ? config : null);
  switch (type) {
    case 'EMAIL': {
      const address = c.text(raw, 'address', 'config.address', { max: 254 });
      if (address !== null && !isDeliverableAddress(address)) c.add('config.address', 'address must be an email address');
      return valid({ address: address ?? '' });
    }
    case 'SLACK':
      return valid({ url: c.url(raw, 'url', 'config.url', options) ?? '', channel: c.text(raw, 'channel', 'config.channel', { required: false }) });
    case 'WEBHOOK': {
      const template = c.text(raw, 'template', 'config.template', { required: false, max: MAX_TEMPLATE_LENGTH, min: 0 });
      const problem = template ? templateProblem(template) : null;
      if (problem) c.add('config.template', problem);
      const config: WebhookConfig = {
        name: c.text(raw, 'name', 'config.name') ?? '',
        url: c.url(raw, 'url', 'config.url', options) ?? '',
        method: c.oneOf(raw, 'method', 'config.method', WEBHOOK_METHODS, 'POST') ?? 'POST',
        headers: c.pairs(raw, 'headers', 'config.headers'),
        queryParameters: c.pairs(raw, 'queryParameters', 'config.queryParameters'),
        template: template || null,
        webhookSecret: c.text(raw, 'webhookSecret', 'config.webhookSecret', { required: false, min: 0 }) || null,
        webhookType: c.oneOf(raw, 'webhookType', 'config.webhookType', WEBHOOK_TYPES, 'WEBHOOK') ?? 'WEBHOOK',
      };
      const secret = config.webhookSecret;
      if (secret?.startsWith('whsec_') && !/^[A-Za-z0-9+/]+={0,2}$/.test(secret.slice(6))) c.add('config.webhookSecret', 'a whsec_ secret must be followed by base64');
      return valid(config);
    }
    case 'PAGERDUTY':
      return valid({
        serviceKey: c.text(raw, 'serviceKey', 'config.serviceKey') ?? '',
        serviceName: c.text(raw, 'serviceName', 'config.serviceName', { required: false }),
        account: c.text(raw, 'account', 'config.account', { required: false }),
      });
    case 'OPSGENIE':
      return valid({
        apiKey: c.text(raw, 'apiKey', 'config.apiKey') ?? '',
        region: c.oneOf(raw, 'region', 'config.region', OPSGENIE_REGIONS, 'US') ?? 'US',
        priority: c.oneOf(raw, 'priority', 'config.priority', OPSGENIE_PRIORITIES, 'P3') ?? 'P3',
        name: c.text(raw, 'name', 'config.name') ?? '',
      });
  }
}

export interface ParsedChannelBody {
  settings: ChannelSettings | null;
  /** Present when the body names them: the channel's subscriptions become exactly these. */
  subscriptions: { checkId: string; activated: boolean }[] | undefined;
  details: ViolationDetail[];
}


/**
 * A channel body as Checkly's API takes it. `stored` is the channel a PUT replaces: masked secrets
 * sent back as they were shown keep the stored values.
 */
export function parseChannelBody(body: unknown, options: ValidationOptions, stored?: ChannelSettings): ParsedChannelBody {
  const c = new Collector();
  if (!isObject(body)) return { settings: null, subscriptions: undefined, details: [{ path: '', message: 'expected a JSON object' }] };
  let type: ChannelType | null = null;
  if (body.type === 'SMS' || body.type === 'CALL') c.add('type', `${body.type} channels are not supported`);
  else type = c.oneOf(body, 'type', 'type', CHANNEL_TYPES);
  let raw = body.config;
  if (type && stored) {
    // Stored secrets go back only to where they were sent; a new target needs them typed again, or none.
    if (!movesTarget(type, raw, stored)) raw = unmask(type, raw, stored.config);
    else for (const path of maskedEchoes(raw, stored)) c.add(path, `${path.split('.').pop()} is the masked stored value: the channel's target changes, so enter the secret again or leave it out`);
  }
  const config = type ? parseConfig(type, raw, c, options) : null;
  const flags = {
    sendRecovery: c.bool(body, 'sendRecovery', true),
    sendFailure: c.bool(body, 'sendFailure', true),
    sendDegraded: c.bool(body, 'sendDegraded', false),
    sslExpiry: c.bool(body, 'sslExpiry', false),
  };
  const settings: ChannelSettings | null = type && config ? { type, config, ...flags, sslExpiryThreshold: 30 } : null;
  const threshold = body.sslExpiryThreshold;
  if (threshold !== undefined && threshold !== null) {
    if (!Number.isInteger(threshold) || (threshold as number) < 1 || (threshold as number) > 30) c.add('sslExpiryThreshold', 'sslExpiryThreshold must be an integer from 1 to 30');
    else if (settings) settings.sslExpiryThreshold = threshold as number;
  }
  let subscriptions: ParsedChannelBody['subscriptions'];
  if (body.subscriptions !== undefined && body.subscriptions !== null) {
    if (!Array.isArray(body.subscriptions) || body.subscriptions.length > 1000) c.add('subscriptions', 'subscriptions must be an array of at most 1000 {checkId, activated}');
    else {
      subscriptions = [];
      body.subscriptions.forEach((s, i) => {
        if (!isObject(s) || typeof s.checkId !== 'string' || !isUuid(s.checkId)) c.add(`subscriptions[${i}].checkId`, 'checkId must be a check id');
        else if (s.activated !== undefined && typeof s.activated !== 'boolean') c.add(`subscriptions[${i}].activated`, 'activated must be a boolean');
        else subscriptions!.push({ checkId: s.checkId.toLowerCase(), activated: s.activated !== false });
      });
    }
  }
  return { settings: c.details.length === 0 ? settings : null, subscriptions, details: c.details };
}

// ---- masking

const MASK = '********';
const SECRET_FIELDS = ['webhookSecret', 'serviceKey', 'apiKey'];
/** The fields a response may show masked: the secrets and token-bearing URLs. */
const MASKED_FIELDS = [...SECRET_FIELDS, 'url'];
const PAIR_FIELDS = ['headers', 'queryParameters'];

function maskSecret(secret: string): string {
  // Long secrets keep their last four characters so an operator can tell keys apart.
  return secret.length >= 16 ? `${MASK}${secret.slice(-4)}` : MASK;
}

function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}/${MASK}${url.slice(-4)}`;
  } catch {
    return MASK;
  }
}

/** URLs that carry their token in the path (Slack, Teams, Discord, Telegram bots). */
function tokenUrl(type: ChannelType, config: ChannelConfig): boolean {
  if (type === 'SLACK') return true;
  if (type !== 'WEBHOOK') return false;
  const t = (config as WebhookConfig).webhookType;
  return t === 'WEBHOOK_MSTEAMS' || t === 'WEBHOOK_DISCORD' || t === 'WEBHOOK_TELEGRAM' || t === 'WEBHOOK_NTFY';
}

/** Header and query parameter names whose values are credentials (Authorization, api keys, tokens…). */
const SECRET_NAME = /auth|token|key|secret|password|cookie|signature/i;

function maskedPairs(pairs: KeyValue[]): KeyValue[] {
  return pairs.map(({ key, value }) => ({ key, value: SECRET_NAME.test(key) && value ? maskSecret(value) : value }));
}

/** Pairs of a PUT body whose value is the mask shown for the stored pair of that key get the stored value back. */
function unmaskedPairs(raw: unknown, stored: KeyValue[]): unknown {
  if (!Array.isArray(raw)) return raw;
  const shown = maskedPairs(stored);
  return raw.map((pair) => {
    if (!isObject(pair)) return pair;
    const i = stored.findIndex((s, n) => s.key === pair.key && shown[n].value === pair.value && shown[n].value !== s.value);
    return i < 0 ? pair : { ...pair, value: stored[i].value };
  });
}

/** The config as responses show it: secrets masked. */
export function maskedConfig(type: ChannelType, config: ChannelConfig): ChannelConfig {
  const out = { ...config } as Record<string, unknown>;
  for (const field of SECRET_FIELDS) {
    if (typeof out[field] === 'string' && out[field]) out[field] = maskSecret(out[field] as string);
  }
  if (tokenUrl(type, config) && typeof out.url === 'string') out.url = maskUrl(out.url);
  for (const field of PAIR_FIELDS) {
    if (Array.isArray(out[field])) out[field] = maskedPairs(out[field] as KeyValue[]);
  }
  return out as ChannelConfig;
}

/** A PUT body's config with every masked value that equals the stored one's mask replaced by the stored value. */
function unmask(type: ChannelType, raw: unknown, stored: ChannelConfig): unknown {
  if (!isObject(raw)) return raw;
  const shown = maskedConfig(type, stored) as Record<string, unknown>;
  const kept = stored as Record<string, unknown>;
  const out = { ...raw };
  for (const field of MASKED_FIELDS) {
    if (typeof out[field] === 'string' && out[field] === shown[field] && shown[field] !== kept[field]) out[field] = kept[field];
  }
  for (const field of PAIR_FIELDS) {
    if (Array.isArray(kept[field])) out[field] = unmaskedPairs(out[field], kept[field] as KeyValue[]);
  }
  return out;
}

/** Whether a PUT sends elsewhere than the stored channel: another type, webhook kind, URL or Opsgenie region. */
function movesTarget(type: ChannelType, raw: unknown, stored: ChannelSettings): boolean {
  if (type !== stored.type) return true;
  if (!isObject(raw)) return false;
  const kept = stored.config as Record<string, unknown>;
  if (typeof kept.url === 'string') {
    const shown = (maskedConfig(stored.type, stored.config) as Record<string, unknown>).url;
    const url = raw.url === shown ? kept.url : raw.url;
    if (url !== kept.url) return true;
  }
  if (type === 'WEBHOOK' && (raw.webhookType ?? 'WEBHOOK') !== kept.webhookType) return true;
  if (type === 'OPSGENIE' && (raw.region ?? 'US') !== kept.region) return true;
  return false;
}

/** Paths of a body's config whose value is one of the masks the stored channel is shown with. */
function maskedEchoes(raw: unknown, stored: ChannelSettings): string[] {
  if (!isObject(raw)) return [];
  const shown = maskedConfig(stored.type, stored.config) as Record<string, unknown>;
  const kept = stored.config as Record<string, unknown>;
  const masks = new Set(MASKED_FIELDS.filter((field) => typeof shown[field] === 'string' && shown[field] !== kept[field]).map((field) => shown[field]));
  for (const field of PAIR_FIELDS) {
    ((shown[field] ?? []) as KeyValue[]).forEach((pair, i) => pair.value !== (kept[field] as KeyValue[])[i].value && masks.add(pair.value));
  }
  const echoes = MASKED_FIELDS.filter((field) => typeof raw[field] === 'string' && masks.has(raw[field])).map((field) => `config.${field}`);
  for (const field of PAIR_FIELDS) {
    const pairs = raw[field];
    if (Array.isArray(pairs)) pairs.forEach((pair, i) => isObject(pair) && typeof pair.value === 'string' && masks.has(pair.value) && echoes.push(`config.${field}[${i}].value`));
  }
  return echoes;
}

/** The recipient as the delivery log shows it: enough to recognise, never a secret. */
export function maskedRecipient(type: ChannelType, config: ChannelConfig): string {
  switch (type) {
    case 'EMAIL':
      return maskEmail((config as EmailConfig).address);
    case 'PAGERDUTY':
      return `pagerduty:${maskSecret((config as PagerDutyConfig).serviceKey)}`;
    case 'OPSGENIE':
      return `opsgenie:${(config as OpsgenieConfig).region}`;
    default:
      return maskedOrigin((config as SlackConfig).url);
  }
}

/** A URL as logs show it: its origin only. */
export function maskedOrigin(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return MASK;
  }
}

export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return MASK;
  return `${address[0]}***${address.slice(at)}`;
}

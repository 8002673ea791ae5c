import { isIP } from 'node:net';
import { ValidationError, ViolationDetail } from '../../../core/src/errors';
import {
  Assertion, ASSERTION_SOURCES, BODY_TYPES, CheckType, COMPARISONS, DNS_RECORD_TYPES, HTTP_METHODS, KeyValue,
  AlertChannelSubscription, IncidentTrigger, MAX_FREQUENCY_MINUTES, MonitorConfig, RequestConfig, RESPONSE_TIME_LIMITS, RETRY_TYPES, RetryStrategy, SEVERITIES, SUB_MINUTE_SECONDS,
} from './monitor-config';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
// A host name or an IP literal, never with a port or a scheme.
const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$/;
const DEFAULT_LOCATION = 'local';

/** Reads fields off an untrusted object, collecting every problem with its path. */
class Reader {
  constructor(
    readonly details: ViolationDetail[],
    private readonly base: string,
    readonly obj: Obj,
  ) {}

  path(key: string): string {
    return this.base ? `${this.base}.${key}` : key;
  }

  fail(key: string, message: string): undefined {
    this.details.push({ path: this.path(key), message });
    return undefined;
  }

  str(key: string, opts: { required?: boolean; max?: number; fallback?: string | null; allowEmpty?: boolean } = {}): string | null | undefined {
    const v = this.obj[key];
    if (v === undefined || v === null) return opts.required ? this.fail(key, 'is required') : (opts.fallback ?? null);
    if (typeof v !== 'string') return this.fail(key, 'must be a string');
    if (!opts.allowEmpty && opts.required && v.trim() === '') return this.fail(key, 'must not be empty');
    if (v.length > (opts.max ?? 2048)) return this.fail(key, `must be at most ${opts.max ?? 2048} characters`);
    return v;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.obj[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') this.fail(key, 'must be true or false');
    return v === true;
  }

  int(key: string, fallback: number | undefined, min: number, max: number): number | undefined {
    const v = this.obj[key];
    if (v === undefined || v === null) return fallback === undefined ? this.fail(key, 'is required') : fallback;
    if (typeof v !== 'number' || !Number.isInteger(v)) return this.fail(key, 'must be a whole number');
    if (v < min || v > max) return this.fail(key, `must be between ${min} and ${max}`);
    return v;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback?: T): T | undefined {
    const v = this.obj[key];
    if ((v === undefined || v === null) && fallback !== undefined) return fallback;
    if (typeof v !== 'string' || !allowed.includes(v as T)) return this.fail(key, `must be one of ${allowed.join(', ')}`);
    return v as T;
  }

  child(key: string, required: boolean): Reader | undefined {
    const v = this.obj[key];
    if (v === undefined || v === null) return required ? this.fail(key, 'is required') : undefined;
    if (!isObj(v)) return this.fail(key, 'must be an object');
    return new Reader(this.details, this.path(key), v);
  }

  list(key: string, max: number): unknown[] {
    const v = this.obj[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) return this.fail(key, 'must be an array') ?? [];
    if (v.length > max) return this.fail(key, `must have at most ${max} items`) ?? [];
    return v;
  }

  /** Refuses fields Vigil does not run, so nothing is silently ignored. */
  refuse(key: string, message: string): void {
    const v = this.obj[key];
    if (v !== undefined && v !== null && v !== '') this.fail(key, message);
  }
}

function hostname(r: Reader, key: string): string | undefined {
  const v = r.str(key, { required: true, max: 253 });
  if (typeof v !== 'string') return undefined;
  if (!HOST.test(v) && isIP(v) === 0) return r.fail(key, 'must be a host name or an IP address, without a port or a scheme');
  return v;
}

function keyValues(r: Reader, key: string): KeyValue[] {
  return r.list(key, 50).flatMap((item, i) => {
    if (!isObj(item) || typeof item.key !== 'string' || typeof item.value !== 'string' || item.key.length === 0 || item.key.length > 256 || item.value.length > 4096) {
      r.fail(`${key}[${i}]`, 'must be {key, value} strings (key 1-256, value up to 4096 characters)');
      return [];
    }
    if (/[\r\n]/.test(item.key + item.value)) {
      r.fail(`${key}[${i}]`, 'must not contain line breaks');
      return [];
    }
    return [{ key: item.key, value: item.value }];
  });
}

function assertions(r: Reader, type: CheckType): Assertion[] {
  const sources = ASSERTION_SOURCES[type];
  return r.list('assertions', 30).flatMap((item, i) => {
    if (!isObj(item)) return r.fail(`assertions[${i}]`, 'must be an object') ?? [];
    const a = new Reader(r.details, r.path(`assertions[${i}]`), item);
    const before = r.details.length;
    const source = a.oneOf('source', sources);
    const comparison = a.oneOf('comparison', COMPARISONS);
    const property = a.str('property', { max: 512, fallback: '' });
    const rawTarget = item.target;
    let target = '';
    if (typeof rawTarget === 'number' || typeof rawTarget === 'boolean') target = String(rawTarget);
    else if (typeof rawTarget === 'string' && rawTarget.length <= 4096) target = rawTarget;
    else if (rawTarget !== undefined && rawTarget !== null) a.fail('target', 'must be a string, number or boolean up to 4096 characters');
    const regex = a.str('regex', { max: 512 });
    if (typeof regex === 'string' && regex !== '') {
      try {
        new RegExp(regex);
      } catch {
        a.fail('regex', 'must be a valid regular expression');
      }
    }
    if ((comparison === 'LESS_THAN' || comparison === 'GREATER_THAN') && (source === 'STATUS_CODE' || source === 'RESPONSE_TIME') && !/^-?\d+(\.\d+)?$/.test(target)) {
      a.fail('target', 'must be a number for this comparison');
    }
    if (r.details.length > before) return [];
    return [{ source: source!, comparison: comparison!, property: property ?? '', target, regex: regex || null }];
  });
}

function retryStrategy(r: Reader): RetryStrategy | null {
  const s = r.child('retryStrategy', false);
  if (!s || s.obj.type === 'NO_RETRIES') return null;
  const type = s.oneOf('type', RETRY_TYPES);
  const onlyOn = s.obj.onlyOn === undefined || s.obj.onlyOn === null ? null : s.oneOf('onlyOn', ['NETWORK_ERROR'] as const);
  const strategy = {
    type: type ?? 'FIXED',
    baseBackoffSeconds: s.int('baseBackoffSeconds', 60, 0, 600) ?? 0,
    maxRetries: type === 'SINGLE_RETRY' ? 1 : (s.int('maxRetries', 2, 1, 10) ?? 0),
    maxDurationSeconds: s.int('maxDurationSeconds', 600, 0, 600) ?? 0,
    sameRegion: s.bool('sameRegion', true),
    onlyOn: onlyOn ?? null,
  };
  return strategy;
}

function request(r: Reader, type: CheckType): RequestConfig | undefined {
  const q = r.child('request', true);
  if (!q) return undefined;
  const list = assertions(q, type);
  if (type === 'URL' || type === 'API') {
    const url = q.str('url', { required: true });
    if (typeof url === 'string') {
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        q.fail('url', 'must be an absolute http or https URL');
      }
      if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') q.fail('url', 'must be an http or https URL');
      if (parsed && (parsed.username || parsed.password)) q.fail('url', 'must not carry credentials (use basicAuth)');
    }
    const method = type === 'URL' ? (q.oneOf('method', ['GET'] as const, 'GET') ?? 'GET') : (q.oneOf('method', HTTP_METHODS, 'GET') ?? 'GET');
    const auth = q.child('basicAuth', false);
    const username = auth?.str('username', { max: 256, fallback: '' });
    const password = auth?.str('password', { max: 256, fallback: '' });
    return {
      url: url ?? '',
      method,
      followRedirects: q.bool('followRedirects', true),
      skipSSL: q.bool('skipSSL', false),
      headers: type === 'API' ? keyValues(q, 'headers') : [],
      queryParameters: type === 'API' ? keyValues(q, 'queryParameters') : [],
      body: type === 'API' ? (q.str('body', { max: 65_536, fallback: '' }) ?? '') : '',
      bodyType: type === 'API' ? (q.oneOf('bodyType', BODY_TYPES, 'NONE') ?? 'NONE') : 'NONE',
      basicAuth: auth && username && password !== undefined && username !== '' ? { username, password: password ?? '' } : null,
      assertions: list,
    };
  }
  if (type === 'TCP') {
    return { hostname: hostname(q, 'hostname') ?? '', port: q.int('port', undefined, 1, 65535) ?? 0, data: q.str('data', { max: 4096 }) ?? null, assertions: list };
  }
  if (type === 'DNS') {
    const nameServer = q.obj.nameServer === undefined || q.obj.nameServer === null || q.obj.nameServer === '' ? null : (hostname(q, 'nameServer') ?? null);
    return {
      recordType: q.oneOf('recordType', DNS_RECORD_TYPES) ?? 'A',
      query: hostname(q, 'query') ?? '',
      nameServer,
      port: q.int('port', 53, 1, 65535) ?? 53,
      protocol: q.oneOf('protocol', ['UDP', 'TCP'] as const, 'UDP') ?? 'UDP',
      assertions: list,
    };
  }
  // SSL: Checkly nests the connection under sslConfig.
  const ssl = q.child('sslConfig', true);
  if (!ssl) return undefined;
  ssl.refuse('sslClientCertificateId', 'client certificates are not supported');
  return {
    hostname: hostname(ssl, 'hostname') ?? '',
    port: ssl.int('port', 443, 1, 65535) ?? 443,
    serverName: ssl.str('serverName', { max: 253 }) ?? null,
    skipChainValidation: ssl.bool('skipChainValidation', false),
    alertDaysBeforeExpiry: ssl.int('alertDaysBeforeExpiry', 30, 0, 365) ?? 30,
    assertions: list,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checkly's `alertChannelSubscriptions`; whether each channel is the account's is checked by the handler. */
function subscriptions(r: Reader): AlertChannelSubscription[] {
  const seen = new Set<string>();
  return r.list('alertChannelSubscriptions', 50).flatMap((item, i) => {
    if (!isObj(item)) return r.fail(`alertChannelSubscriptions[${i}]`, 'must be {alertChannelId, activated}') ?? [];
    const s = new Reader(r.details, r.path(`alertChannelSubscriptions[${i}]`), item);
    const id = item.alertChannelId;
    if (typeof id !== 'string' || !UUID.test(id)) return s.fail('alertChannelId', 'must be an alert channel id') ?? [];
    const activated = s.bool('activated', true);
    if (seen.has(id.toLowerCase())) return [];
    seen.add(id.toLowerCase());
    return [{ alertChannelId: id.toLowerCase(), activated }];
  });
}

/** Checkly's `triggerIncident`: the service must be the account's, which the handler checks. */
function incidentTrigger(r: Reader): IncidentTrigger | null {
  const t = r.child('triggerIncident', false);
  if (!t) return null;
  const serviceId = t.obj.serviceId;
  if (typeof serviceId !== 'string' || !UUID.test(serviceId)) t.fail('serviceId', 'must be a service id');
  const name = t.str('name', { required: true, max: 255 });
  return {
    serviceId: typeof serviceId === 'string' ? serviceId.toLowerCase() : '',
    severity: t.oneOf('severity', SEVERITIES) ?? 'MAJOR',
    name: (name ?? '').trim(),
    description: t.str('description', { max: 10_000 }) ?? '',
    notifySubscribers: t.bool('notifySubscribers', false),
  };
}

/** A create or replace body for a monitor of `type`, validated field by field; throws a 400 with every problem. */
export function parseMonitorBody(type: CheckType, body: unknown): MonitorConfig {
  const details: ViolationDetail[] = [];
  if (!isObj(body)) throw ValidationError.of([{ path: '', message: 'must be a JSON object' }]);
  const r = new Reader(details, '', body);
  if (body.checkType !== undefined && body.checkType !== type) r.fail('checkType', `must be ${type} on this route`);
  for (const script of ['localSetupScript', 'localTearDownScript', 'setupScript', 'tearDownScript', 'setupSnippetId', 'tearDownSnippetId', 'script']) {
    r.refuse(script, 'scripts are not supported: Vigil runs no code of yours');
  }
  r.refuse('privateLocations', 'private locations are not supported yet; use locations');
  const name = r.str('name', { required: true, max: 200 });
  const tags = r.list('tags', 50).filter((t, i) => (typeof t === 'string' && t.length > 0 && t.length <= 64) || r.fail(`tags[${i}]`, 'must be a string of 1 to 64 characters'));
  const locations = r.list('locations', 20).filter((l, i) => (typeof l === 'string' && /^[a-z0-9-]{1,64}$/.test(l)) || r.fail(`locations[${i}]`, 'must be a location name'));
  const frequency = r.int('frequency', 10, 0, MAX_FREQUENCY_MINUTES) ?? 10;
  let frequencyOffset = 0;
  if (frequency === 0) {
    const offset = body.frequencyOffset;
    if (typeof offset !== 'number' || !(SUB_MINUTE_SECONDS as readonly number[]).includes(offset)) r.fail('frequencyOffset', 'must be 10, 20 or 30 (seconds) when frequency is 0');
    else frequencyOffset = offset;
  }
  const limits = RESPONSE_TIME_LIMITS[type];
  const degraded = r.int('degradedResponseTime', limits.degraded, 0, limits.bound);
  const max = r.int('maxResponseTime', limits.max, 0, limits.bound);
  if (degraded !== undefined && max !== undefined && degraded > max) r.fail('degradedResponseTime', 'must not exceed maxResponseTime');
  const alertSettings = body.alertSettings;
  if (alertSettings !== undefined && alertSettings !== null && !isObj(alertSettings)) r.fail('alertSettings', 'must be an object');
  const config: MonitorConfig = {
    checkType: type,
    name: (name ?? '').trim(),
    description: r.str('description', { max: 2000 }) ?? null,
    activated: r.bool('activated', true),
    muted: r.bool('muted', false),
    tags: [...new Set(tags as string[])],
    locations: locations.length > 0 ? [...new Set(locations as string[])] : [DEFAULT_LOCATION],
    frequency,
    frequencyOffset,
    retryStrategy: retryStrategy(r),
    degradedResponseTime: degraded ?? 0,
    maxResponseTime: max ?? 0,
    request: request(r, type) as RequestConfig,
    alertSettings: isObj(alertSettings) ? alertSettings : null,
    alertChannelSubscriptions: subscriptions(r),
    triggerIncident: incidentTrigger(r),
  };
  if (details.length > 0) throw ValidationError.of(details);
  return config;
}

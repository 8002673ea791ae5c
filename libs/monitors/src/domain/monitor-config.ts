/** What a client configures on a monitor, in Checkly's shape (the bodies the `checkly` constructs synthesize). */

export const CHECK_TYPES = ['URL', 'API', 'TCP', 'DNS', 'SSL'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export const COMPARISONS = [
  'EQUALS', 'NOT_EQUALS', 'HAS_KEY', 'NOT_HAS_KEY', 'HAS_VALUE', 'NOT_HAS_VALUE', 'IS_EMPTY', 'NOT_EMPTY',
  'LESS_THAN', 'GREATER_THAN', 'CONTAINS', 'NOT_CONTAINS', 'IS_NULL', 'NOT_NULL',
] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** The assertion sources each type accepts. */
export const ASSERTION_SOURCES: Record<CheckType, readonly string[]> = {
  URL: ['STATUS_CODE'],
  API: ['STATUS_CODE', 'JSON_BODY', 'HEADERS', 'TEXT_BODY', 'RESPONSE_TIME'],
  TCP: ['RESPONSE_DATA', 'RESPONSE_TIME'],
  DNS: ['RESPONSE_CODE', 'RESPONSE_TIME', 'TEXT_ANSWER', 'JSON_ANSWER'],
  SSL: ['CERTIFICATE', 'CONNECTION', 'RESPONSE_TIME'],
};

export interface Assertion {
  source: string;
  property: string;
  comparison: Comparison;
  target: string;
  regex: string | null;
}

export const RETRY_TYPES = ['FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY'] as const;
export type RetryType = (typeof RETRY_TYPES)[number];

/** Checkly's retry strategy; NO_RETRIES is stored as null, as Checkly's backend does. */
export interface RetryStrategy {
  type: RetryType;
  baseBackoffSeconds: number;
  maxRetries: number;
  maxDurationSeconds: number;
  sameRegion: boolean;
  onlyOn: 'NETWORK_ERROR' | null;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'HEAD', 'DELETE', 'PATCH'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export const BODY_TYPES = ['JSON', 'FORM', 'RAW', 'GRAPHQL', 'NONE'] as const;
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

export interface KeyValue {
  key: string;
  value: string;
}

export interface HttpRequestConfig {
  url: string;
  method: HttpMethod;
  followRedirects: boolean;
  skipSSL: boolean;
  headers: KeyValue[];
  queryParameters: KeyValue[];
  body: string;
  bodyType: (typeof BODY_TYPES)[number];
  basicAuth: { username: string; password: string } | null;
  assertions: Assertion[];
}

export interface TcpRequestConfig {
  hostname: string;
  port: number;
  data: string | null;
  assertions: Assertion[];
}

export interface DnsRequestConfig {
  recordType: DnsRecordType;
  query: string;
  nameServer: string | null;
  port: number;
  protocol: 'UDP' | 'TCP';
  assertions: Assertion[];
}

export interface SslRequestConfig {
  hostname: string;
  port: number;
  serverName: string | null;
  skipChainValidation: boolean;
  alertDaysBeforeExpiry: number;
  assertions: Assertion[];
}

export type RequestConfig = HttpRequestConfig | TcpRequestConfig | DnsRequestConfig | SslRequestConfig;

export interface MonitorConfig {
  checkType: CheckType;
  name: string;
  description: string | null;
  activated: boolean;
  muted: boolean;
  tags: string[];
  locations: string[];
  /** Minutes (Checkly's unit); 0 means a sub-minute frequency given by `frequencyOffset` in seconds. */
  frequency: number;
  frequencyOffset: number;
  retryStrategy: RetryStrategy | null;
  degradedResponseTime: number;
  maxResponseTime: number;
  request: RequestConfig;
  alertSettings: Record<string, unknown> | null;
  /** The alert channels the monitor's alerts go to, as heartbeat checks have them (absent on monitors created before). */
  alertChannelSubscriptions?: AlertChannelSubscription[];
  /** The incident a FAILING opens on a service (and a recovery resolves), as heartbeat checks have it. */
  triggerIncident?: IncidentTrigger | null;
}

export interface AlertChannelSubscription {
  alertChannelId: string;
  activated: boolean;
}

export const SEVERITIES = ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'] as const;

export interface IncidentTrigger {
  serviceId: string;
  severity: (typeof SEVERITIES)[number];
  name: string;
  description: string;
  notifySubscribers: boolean;
}

export const SUB_MINUTE_SECONDS = [10, 20, 30] as const;
export const MAX_FREQUENCY_MINUTES = 1440;

/** Seconds between two rounds: 10 s to 24 h. */
export function intervalSeconds(config: Pick<MonitorConfig, 'frequency' | 'frequencyOffset'>): number {
  return config.frequency === 0 ? config.frequencyOffset : config.frequency * 60;
}

/** Response-time limits per type: [degraded default, max default, upper bound] in ms, as Checkly's constructs. */
export const RESPONSE_TIME_LIMITS: Record<CheckType, { degraded: number; max: number; bound: number }> = {
  URL: { degraded: 3000, max: 5000, bound: 30_000 },
  API: { degraded: 10_000, max: 20_000, bound: 30_000 },
  TCP: { degraded: 4000, max: 5000, bound: 5000 },
  DNS: { degraded: 500, max: 1000, bound: 5000 },
  SSL: { degraded: 3000, max: 10_000, bound: 30_000 },
};

export const isHttpRequest = (type: CheckType, _r: RequestConfig): _r is HttpRequestConfig => type === 'URL' || type === 'API';

import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { checkEsdbConnectionString } from '../../event-store/src/eventstoredb.event-store';
import { checkMongoConnectionString } from '../../read-store/src/mongodb.read-store';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type AiProviderName = 'builtin' | 'openai-compatible';
const AI_PROVIDERS: readonly AiProviderName[] = ['builtin', 'openai-compatible'];

export interface VigilConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Embedded mode's database file, inside dataDir. */
  sqliteFile: string;
  publicUrl: string;
  /** Both set: production stores. Neither: embedded SQLite. */
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
  /** Deadline of every production store call (EventStoreDB and MongoDB) in milliseconds. */
  storeTimeoutMs: number;
  /** When set, GET /metrics wants `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Where the worker writes the time of its last healthy beat, for its container healthcheck. */
  workerHealthFile: string;
  bootstrapApiKey: string | null;
  bootstrapAccountId: string | null;
  rateLimitPerMinute: number;
  logLevel: LogLevel;
  /** Whether this process runs the projection daemon and background work. */
  daemon: boolean;
  eventRetentionDays: number;
  /** /readyz answers 503 while a read model is more than this many events behind the log. */
  readyMaxLag: number;
  /** Ping endpoint, per token: a bucket of `pingRateBurst` refilled at `pingRatePerSecond`; 0 turns it off. */
  pingRateBurst: number;
  pingRatePerSecond: number;
  /** The AI agent: `builtin` answers from data with no network; `openai-compatible` calls a chat-completions server. */
  aiProvider: AiProviderName;
  /** Set (all three) when aiProvider is `openai-compatible`. */
  aiBaseUrl: string | null;
  aiApiKey: string | null;
  aiModel: string | null;
  /** Alerting (docs/alerting.md): SMTP for email channels and subscribers; null refuses email deliveries. */
  smtpUrl: string | null;
  mailFrom: string;
  /** An address whose mail reaches the operator: offered as the mailto: of List-Unsubscribe only when set. */
  mailInbound: string | null;
  /** Per account and hour: confirmation emails to unverified addresses, and emails of every kind (429 beyond). */
  emailConfirmationsPerHour: number;
  emailsPerHour: number;
  /** Outbound requests may reach private, loopback and link-local addresses (tests, closed networks). */
  outboundAllowPrivate: boolean;
  /** Name servers (`address` or `address:port`) for custom-domain TXT checks; empty: the system's resolver. */
  dnsServers: string[];
  /** Per delivery attempt. */
  deliveryTimeoutMs: number;
  pagerdutyUrl: string;
  opsgenieUsUrl: string;
  opsgenieEuUrl: string;
  /** People (libs/people): console sessions end after this long unused, and after sessionMaxDays in any case. */
  sessionIdleDays: number;
  sessionMaxDays: number;
  /** Uptime monitors (docs/guide/monitors.md): probes run inside this process where background work runs. */
  monitorsEmbedded: boolean;
  /** The share of a monitor's locations that must fail for a round to be FAILING (0 < x ≤ 1). */
  monitorsFailThreshold: number;
  /** Rounds probing at once from the embedded location. */
  monitorsConcurrency: number;
  /** Single sign-on with OpenID Connect: set when VIGIL_OIDC_ISSUER, _CLIENT_ID and _CLIENT_SECRET all are. */
  oidc: OidcConfig | null;
  /** Rate limits per client address and connection deadlines (docs/api-conventions.md). */
  traffic: TrafficLimits;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What no client may exceed, whoever it is: budgets per client address, and deadlines per connection. */
export interface TrafficLimits {
  /** API requests per minute, per client address, without a valid key (none, unknown, revoked). */
  anonymousPerMinute: number;
  /** Public pages, feeds, badges, subscribe and subscriber links: requests per minute, per client address. */
  publicPerMinute: number;
  /** Proxies whose X-Forwarded-For names the real client (addresses or CIDR ranges); empty: none. */
  trustedProxies: string[];
  /** Open connections per client address; more are closed at once. */
  connectionsPerAddress: number;
  /** Headers must have arrived within this many ms, the whole request (body too) within requestTimeoutMs: else 408. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms. */
  keepAliveTimeoutMs: number;
}

export const VIGIL_CONFIG = Symbol('VIGIL_CONFIG');

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens.
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function mailbox(env: Env, name: string): string | null {
  const value = text(env, name);
  if (value !== null && !/^[^\s@<>"]+@[^\s@<>"]+$/.test(value)) throw new ConfigError(name, 'must be a bare address such as unsubscribe@example.com');
  return value;
}

/** `VIGIL_DNS_SERVERS`: comma-separated IP addresses, each with an optional port (`[v6]:port` for IPv6). */
function dnsServers(env: Env): string[] {
  const raw = text(env, 'VIGIL_DNS_SERVERS');
  if (raw === null) return [];
  return raw.split(',').map((entry) => {
    const server = entry.trim();
    const match = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(server) ?? /^([0-9a-fA-F:]+)$/.exec(server);
    const address = match?.[1] ?? match?.[2];
    const port = match?.[3] === undefined ? 53 : Number(match[3]);
    if (!address || isIP(address) === 0 || port < 1 || port > 65535) throw new ConfigError('VIGIL_DNS_SERVERS', `must list IP addresses with optional ports, such as 10.0.0.2,10.0.0.3:5353; got "${server}"`);
    return server;
  });
}

/** One of `choices`, case-insensitive; `fallback` when unset. */
function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = (text(env, name) ?? fallback).toLowerCase() as T;
  if (!choices.includes(value)) throw new ConfigError(name, `must be one of ${choices.join(', ')}`);
  return value;
}

/** A two-word switch (on/off, true/false): whether it says `yes`. */
function toggle(env: Env, name: string, yes: string, no: string, fallback: string): boolean {
  const value = (text(env, name) ?? fallback).toLowerCase();
  if (value !== yes && value !== no) throw new ConfigError(name, `must be "${yes}" or "${no}"`);
  return value === yes;
}

/** A token compared with what clients send: 16 to 256 characters without spaces. */
function token(env: Env, name: string): string | null {
  const value = text(env, name);
  if (value !== null && (value.length < 16 || value.length > 256 || /\s/.test(value))) throw new ConfigError(name, 'must be 16 to 256 characters without spaces');
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  if (!URL.canParse(raw)) throw new ConfigError(name, `must be a URL, got "${raw}"`);
  const { protocol } = new URL(raw);
  if (!protocols.includes(protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${protocol}"`);
  return raw;
}

/**
 * A production store's connection string, checked by the official client's own parser (seed lists,
 * `+discover`, `+srv` and replica-set options are not URLs `new URL()` accepts). Never echoes the
 * value: it may carry a password.
 */
function connectionString(env: Env, name: string, check: (value: string) => void, expected: string): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  try {
    check(raw);
  } catch {
    throw new ConfigError(name, `must be a connection string the official client accepts (${expected})`);
  }
  return raw;
}

function addressList(env: Env, name: string): string[] {
  const raw = text(env, name);
  if (raw === null) return [];
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address);
    const max = version === 4 ? 32 : 128;
    if (version === 0 || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new ConfigError(name, `must be IP addresses or CIDR ranges separated by commas, got "${entry}"`);
    }
  }
  return entries;
}

function trafficLimits(env: Env): TrafficLimits {
  const headersTimeoutMs = integer(env, 'VIGIL_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = integer(env, 'VIGIL_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  if (requestTimeoutMs < headersTimeoutMs) throw new ConfigError('VIGIL_REQUEST_TIMEOUT_MS', 'must not be less than VIGIL_HEADERS_TIMEOUT_MS');
  return {
    anonymousPerMinute: integer(env, 'VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE', 120, 1, 1_000_000_000),
    publicPerMinute: integer(env, 'VIGIL_RATE_LIMIT_PUBLIC_PER_MINUTE', 1200, 1, 1_000_000_000),
    trustedProxies: addressList(env, 'VIGIL_TRUSTED_PROXY'),
    connectionsPerAddress: integer(env, 'VIGIL_CONNECTIONS_PER_ADDRESS', 256, 1, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'VIGIL_KEEP_ALIVE_TIMEOUT_MS', 65_000, 100, 600_000),
  };
}

/** Reads and validates the environment once; the only place that looks at process.env. */
export function loadConfig(env: Env = process.env): VigilConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = text(env, 'HOST') ?? '0.0.0.0';
  // Checked here, so a typo stops start-up with the variable's name instead of a listen error.
  if (isIP(host) === 0 && !HOST_NAME.test(host)) throw new ConfigError('HOST', `must be an IP address or a host name, got "${host}"`);
  const dataDir = resolve(text(env, 'VIGIL_DATA_DIR') ?? './data');
  const publicUrl = (url(env, 'VIGIL_PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const eventStoreUrl = connectionString(env, 'EVENTSTORE_URL', checkEsdbConnectionString, 'esdb://, esdb+discover://, kurrentdb:// or kurrentdb+discover://');
  const mongodbUrl = connectionString(env, 'MONGODB_URL', checkMongoConnectionString, 'mongodb:// or mongodb+srv://');
  if ((eventStoreUrl === null) !== (mongodbUrl === null)) {
    const missing = eventStoreUrl === null ? 'EVENTSTORE_URL' : 'MONGODB_URL';
    throw new ConfigError(missing, 'must be set too: the production stores need both EVENTSTORE_URL and MONGODB_URL');
  }

  const bootstrapApiKey = token(env, 'VIGIL_BOOTSTRAP_API_KEY');
  const bootstrapAccountId = text(env, 'VIGIL_BOOTSTRAP_ACCOUNT_ID');
  if (bootstrapAccountId !== null && !UUID.test(bootstrapAccountId)) {
    throw new ConfigError('VIGIL_BOOTSTRAP_ACCOUNT_ID', `must be a UUID, got "${bootstrapAccountId}"`);
  }
  if (bootstrapAccountId !== null && bootstrapApiKey === null) {
    throw new ConfigError('VIGIL_BOOTSTRAP_API_KEY', 'must be set when VIGIL_BOOTSTRAP_ACCOUNT_ID is');
  }

  const aiProvider = oneOf(env, 'AI_PROVIDER', AI_PROVIDERS, 'builtin');
  const aiBaseUrl = url(env, 'AI_BASE_URL', ['http:', 'https:']);
  const aiApiKey = text(env, 'AI_API_KEY');
  const aiModel = text(env, 'AI_MODEL');
  if (aiProvider === 'openai-compatible') {
    for (const [name, value] of [['AI_BASE_URL', aiBaseUrl], ['AI_API_KEY', aiApiKey], ['AI_MODEL', aiModel]] as const) {
      if (value === null) throw new ConfigError(name, 'must be set when AI_PROVIDER is openai-compatible');
    }
  }

  const mailFrom = text(env, 'VIGIL_MAIL_FROM') ?? `Vigil <vigil@${new URL(publicUrl).hostname}>`;
  if (/[\r\n]/.test(mailFrom) || !/@/.test(mailFrom)) throw new ConfigError('VIGIL_MAIL_FROM', 'must be an address such as "Vigil <alerts@example.com>"');
  const vendor = (name: string, fallback: string) => (url(env, name, ['http:', 'https:']) ?? fallback).replace(/\/+$/, '');

  return {
    port,
    host,
    dataDir,
    sqliteFile: resolve(dataDir, 'vigil.db'),
    publicUrl,
    eventStoreUrl,
    mongodbUrl,
    storeTimeoutMs: integer(env, 'VIGIL_STORE_TIMEOUT_MS', 5000, 100, 600_000),
    metricsToken: token(env, 'VIGIL_METRICS_TOKEN'),
    workerHealthFile: resolve(text(env, 'VIGIL_WORKER_HEALTH_FILE') ?? resolve(dataDir, 'worker-health')),
    bootstrapApiKey,
    bootstrapAccountId: bootstrapAccountId?.toLowerCase() ?? null,
    rateLimitPerMinute: integer(env, 'VIGIL_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000_000),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    daemon: toggle(env, 'VIGIL_DAEMON', 'on', 'off', 'on'),
    eventRetentionDays: integer(env, 'VIGIL_EVENT_RETENTION_DAYS', 90, 1, 36500),
    readyMaxLag: integer(env, 'VIGIL_READY_MAX_LAG', 100, 0, 1000),
    pingRateBurst: integer(env, 'VIGIL_PING_RATE_BURST', 10, 0, 1_000_000),
    pingRatePerSecond: integer(env, 'VIGIL_PING_RATE_PER_SECOND', 1, 0, 1_000_000),
    aiProvider,
    aiBaseUrl: aiBaseUrl?.replace(/\/+$/, '') ?? null,
    aiApiKey,
    aiModel,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    mailInbound: mailbox(env, 'VIGIL_MAIL_INBOUND'),
    emailConfirmationsPerHour: integer(env, 'VIGIL_EMAIL_CONFIRMATIONS_PER_HOUR', 200, 1, 1_000_000),
    emailsPerHour: integer(env, 'VIGIL_EMAILS_PER_HOUR', 20_000, 1, 100_000_000),
    outboundAllowPrivate: toggle(env, 'VIGIL_OUTBOUND_ALLOW_PRIVATE', 'true', 'false', 'false'),
    dnsServers: dnsServers(env),
    deliveryTimeoutMs: integer(env, 'VIGIL_DELIVERY_TIMEOUT_MS', 10_000, 100, 120_000),
    pagerdutyUrl: vendor('VIGIL_PAGERDUTY_URL', 'https://events.pagerduty.com'),
    opsgenieUsUrl: vendor('VIGIL_OPSGENIE_US_URL', 'https://api.opsgenie.com'),
    opsgenieEuUrl: vendor('VIGIL_OPSGENIE_EU_URL', 'https://api.eu.opsgenie.com'),
    traffic: trafficLimits(env),
    ...peopleConfig(env),
    monitorsEmbedded: toggle(env, 'VIGIL_MONITORS_EMBEDDED', 'on', 'off', 'on'),
    monitorsFailThreshold: integer(env, 'VIGIL_MONITORS_FAIL_THRESHOLD_PERCENT', 50, 1, 100) / 100,
    monitorsConcurrency: integer(env, 'VIGIL_MONITORS_CONCURRENCY', 200, 1, 10_000),
    oidc: oidcConfig(env),
  };
}

/** People (libs/people): session lifetimes; the idle one can be no longer than the absolute one. */
function peopleConfig(env: Env): Pick<VigilConfig, 'sessionIdleDays' | 'sessionMaxDays'> {
  const sessionMaxDays = integer(env, 'VIGIL_SESSION_MAX_DAYS', 30, 1, 365);
  const sessionIdleDays = integer(env, 'VIGIL_SESSION_IDLE_DAYS', Math.min(7, sessionMaxDays), 1, 365);
  if (sessionIdleDays > sessionMaxDays) throw new ConfigError('VIGIL_SESSION_IDLE_DAYS', `must be at most VIGIL_SESSION_MAX_DAYS (${sessionMaxDays})`);
  return { sessionIdleDays, sessionMaxDays };
}

/** All three or none; the issuer over https, or http on this machine only (a provider in a test or a lab). */
function oidcConfig(env: Env): OidcConfig | null {
  const issuer = url(env, 'VIGIL_OIDC_ISSUER', ['http:', 'https:']);
  const clientId = text(env, 'VIGIL_OIDC_CLIENT_ID');
  const clientSecret = text(env, 'VIGIL_OIDC_CLIENT_SECRET');
  const set = [['VIGIL_OIDC_ISSUER', issuer], ['VIGIL_OIDC_CLIENT_ID', clientId], ['VIGIL_OIDC_CLIENT_SECRET', clientSecret]] as const;
  const missing = set.find(([, value]) => value === null);
  if (!missing) {
    const { protocol, hostname } = new URL(issuer!);
    if (protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname)) throw new ConfigError('VIGIL_OIDC_ISSUER', 'must use https: (http: only for localhost)');
    return { issuer: issuer!, clientId: clientId!, clientSecret: clientSecret! };
  }
  const given = set.find(([, value]) => value !== null);
  if (given) throw new ConfigError(missing[0], `must be set too: single sign-on needs VIGIL_OIDC_ISSUER, VIGIL_OIDC_CLIENT_ID and VIGIL_OIDC_CLIENT_SECRET (${given[0]} is set)`);
  return null;
}

/** For a process entry point: the configuration, or exit 1 with the message naming the bad variable. */
export function loadConfigOrExit(env: Env = process.env): VigilConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

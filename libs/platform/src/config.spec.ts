import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';

/** Expects loadConfig(env) to fail with a ConfigError naming `variable` (in the field and in the message). */
function expectConfigError(env: Record<string, string>, variable: string): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  const error = caught as ConfigError;
  expect(error.variable).toBe(variable);
  expect(error.message).toContain(variable);
  return error;
}

describe('loadConfig', () => {
  it('needs no variable at all: embedded defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: resolve('./data'),
      sqliteFile: resolve('./data/vigil.db'),
      publicUrl: 'http://localhost:3000',
      eventStoreUrl: null,
      mongodbUrl: null,
      storeTimeoutMs: 5000,
      metricsToken: null,
      workerHealthFile: resolve('./data/worker-health'),
      bootstrapApiKey: null,
      bootstrapAccountId: null,
      rateLimitPerMinute: 600,
      readyMaxLag: 100,
      logLevel: 'info',
      daemon: true,
      eventRetentionDays: 90,
      pingRateBurst: 10,
      pingRatePerSecond: 1,
      aiProvider: 'builtin',
      aiBaseUrl: null,
      aiApiKey: null,
      aiModel: null,
      smtpUrl: null,
      sessionIdleDays: 7,
      sessionMaxDays: 30,
      oidc: null,
      mailFrom: 'Vigil <vigil@localhost>',
      mailInbound: null,
      emailConfirmationsPerHour: 200,
      emailsPerHour: 20_000,
      outboundAllowPrivate: false,
      deliveryTimeoutMs: 10_000,
      dnsServers: [],
      pagerdutyUrl: 'https://events.pagerduty.com',
      opsgenieUsUrl: 'https://api.opsgenie.com',
      opsgenieEuUrl: 'https://api.eu.opsgenie.com',
      traffic: {
        anonymousPerMinute: 120,
        publicPerMinute: 1200,
        trustedProxies: [],
        connectionsPerAddress: 256,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 65_000,
      },
      monitorsEmbedded: true,
      monitorsFailThreshold: 0.5,
      monitorsConcurrency: 200,
    });
  });

  it('reads the traffic limits and refuses a trusted proxy that is not an address or range', () => {
    const config = loadConfig({
      VIGIL_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '10',
      VIGIL_RATE_LIMIT_PUBLIC_PER_MINUTE: '20',
      VIGIL_TRUSTED_PROXY: '10.0.0.1, 172.16.0.0/12,::1',
      VIGIL_CONNECTIONS_PER_ADDRESS: '30',
      VIGIL_HEADERS_TIMEOUT_MS: '1000',
      VIGIL_REQUEST_TIMEOUT_MS: '2000',
      VIGIL_KEEP_ALIVE_TIMEOUT_MS: '3000',
    });
    expect(config.traffic).toEqual({
      anonymousPerMinute: 10,
      publicPerMinute: 20,
      trustedProxies: ['10.0.0.1', '172.16.0.0/12', '::1'],
      connectionsPerAddress: 30,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
    });
    expectConfigError({ VIGIL_TRUSTED_PROXY: 'proxy.internal' }, 'VIGIL_TRUSTED_PROXY');
    expectConfigError({ VIGIL_TRUSTED_PROXY: '10.0.0.0/33' }, 'VIGIL_TRUSTED_PROXY');
    expectConfigError({ VIGIL_HEADERS_TIMEOUT_MS: '5000', VIGIL_REQUEST_TIMEOUT_MS: '1000' }, 'VIGIL_REQUEST_TIMEOUT_MS');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      VIGIL_DATA_DIR: '/var/lib/vigil',
      VIGIL_PUBLIC_URL: 'https://status.example.com/',
      EVENTSTORE_URL: 'esdb://localhost:2113?tls=false',
      MONGODB_URL: 'mongodb://localhost:27017/vigil',
      VIGIL_STORE_TIMEOUT_MS: '2500',
      VIGIL_METRICS_TOKEN: 'metrics-token-0123456789',
      VIGIL_WORKER_HEALTH_FILE: '/tmp/vigil-worker-health',
      VIGIL_BOOTSTRAP_API_KEY: 'bootstrap-key-0123456789',
      VIGIL_BOOTSTRAP_ACCOUNT_ID: '01900000-0000-7000-8000-00000000ABCD',
      VIGIL_RATE_LIMIT_PER_MINUTE: '5',
      LOG_LEVEL: 'DEBUG',
      VIGIL_DAEMON: 'off',
      VIGIL_EVENT_RETENTION_DAYS: '30',
      VIGIL_PING_RATE_BURST: '20',
      VIGIL_PING_RATE_PER_SECOND: '0',
      AI_PROVIDER: 'OpenAI-Compatible',
      AI_BASE_URL: 'http://localhost:11434/v1/',
      AI_API_KEY: 'sk-local',
      AI_MODEL: 'llama3.1',
      SMTP_URL: 'smtps://user:pw@smtp.example.com:465',
      VIGIL_MAIL_FROM: 'Status <status@example.com>',
      VIGIL_OUTBOUND_ALLOW_PRIVATE: 'TRUE',
      VIGIL_DNS_SERVERS: '10.0.0.53',
      VIGIL_DELIVERY_TIMEOUT_MS: '2500',
      VIGIL_PAGERDUTY_URL: 'http://127.0.0.1:9000/',
      VIGIL_OPSGENIE_US_URL: 'http://127.0.0.1:9001',
      VIGIL_OPSGENIE_EU_URL: 'http://127.0.0.1:9002',
      VIGIL_MONITORS_EMBEDDED: 'off',
      VIGIL_MONITORS_FAIL_THRESHOLD_PERCENT: '75',
      VIGIL_MONITORS_CONCURRENCY: '50',
      VIGIL_READY_MAX_LAG: '7',
      VIGIL_MAIL_INBOUND: 'unsubscribe@example.com',
      VIGIL_EMAIL_CONFIRMATIONS_PER_HOUR: '5',
      VIGIL_EMAILS_PER_HOUR: '50',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/vigil',
      sqliteFile: '/var/lib/vigil/vigil.db',
      publicUrl: 'https://status.example.com',
      eventStoreUrl: 'esdb://localhost:2113?tls=false',
      mongodbUrl: 'mongodb://localhost:27017/vigil',
      storeTimeoutMs: 2500,
      metricsToken: 'metrics-token-0123456789',
      workerHealthFile: '/tmp/vigil-worker-health',
      bootstrapApiKey: 'bootstrap-key-0123456789',
      bootstrapAccountId: '01900000-0000-7000-8000-00000000abcd',
      rateLimitPerMinute: 5,
      readyMaxLag: 7,
      logLevel: 'debug',
      daemon: false,
      eventRetentionDays: 30,
      pingRateBurst: 20,
      pingRatePerSecond: 0,
      aiProvider: 'openai-compatible',
      aiBaseUrl: 'http://localhost:11434/v1',
      aiApiKey: 'sk-local',
      aiModel: 'llama3.1',
      smtpUrl: 'smtps://user:pw@smtp.example.com:465',
      sessionIdleDays: 7,
      sessionMaxDays: 30,
      oidc: null,
      mailFrom: 'Status <status@example.com>',
      mailInbound: 'unsubscribe@example.com',
      emailConfirmationsPerHour: 5,
      emailsPerHour: 50,
      outboundAllowPrivate: true,
      deliveryTimeoutMs: 2500,
      dnsServers: ['10.0.0.53'],
      pagerdutyUrl: 'http://127.0.0.1:9000',
      opsgenieUsUrl: 'http://127.0.0.1:9001',
      opsgenieEuUrl: 'http://127.0.0.1:9002',
      traffic: expect.objectContaining({ anonymousPerMinute: 120 }),
      monitorsEmbedded: false,
      monitorsFailThreshold: 0.75,
      monitorsConcurrency: 50,
    });
  });

  it('derives the public URL from PORT when VIGIL_PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it('treats empty and blank values as unset, and trims the others', () => {
    expect(loadConfig({ PORT: '', HOST: '   ', LOG_LEVEL: ' warn ' })).toMatchObject({ port: 3000, host: '0.0.0.0', logLevel: 'warn' });
  });

  it('accepts the KurrentDB URL schemes and mongodb+srv', () => {
    for (const scheme of ['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']) {
      expect(loadConfig({ EVENTSTORE_URL: `${scheme}://db:2113`, MONGODB_URL: 'mongodb+srv://cluster.example.com' }).eventStoreUrl).toBe(`${scheme}://db:2113`);
    }
  });

  // Forms `new URL()` refuses or misreads; the official clients parse them, so Vigil must pass them on unchanged.
  it.each([
    'kurrentdb://admin:changeit@localhost:2113?tls=false',
    'kurrentdb+discover://admin:changeit@cluster.internal:2113',
    'esdb://node1:2113,node2:2113,node3:2113?tls=true&nodePreference=leader',
    'esdb://admin:changeit@10.0.0.1:2113,10.0.0.2:2113,10.0.0.3:2113?keepAliveInterval=10000&defaultDeadline=5000',
    'esdb+discover://cluster.internal:2113?tls=false&maxDiscoverAttempts=5',
  ])('accepts EVENTSTORE_URL=%s', (eventStoreUrl) => {
    expect(loadConfig({ EVENTSTORE_URL: eventStoreUrl, MONGODB_URL: 'mongodb://localhost:27017' }).eventStoreUrl).toBe(eventStoreUrl);
  });

  it.each([
    'mongodb://mongo1:27017,mongo2:27017,mongo3:27017/vigil?replicaSet=rs0',
    'mongodb://vigil:p%40ss@mongo1:27017,mongo2:27018/vigil?replicaSet=rs0&authSource=admin&readPreference=primary&w=majority',
    'mongodb://localhost:27017/?directConnection=true',
    'mongodb+srv://vigil:secret@cluster0.example.net/vigil?retryWrites=true&w=majority',
  ])('accepts MONGODB_URL=%s', (mongodbUrl) => {
    expect(loadConfig({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false', MONGODB_URL: mongodbUrl }).mongodbUrl).toBe(mongodbUrl);
  });

  it('never repeats a store connection string, which may hold a password, in its error', () => {
    const error = expectConfigError({ EVENTSTORE_URL: 'esdb://admin:hunter2@localhost:notaport', MONGODB_URL: 'mongodb://u:hunter3@localhost' }, 'EVENTSTORE_URL');
    expect(error.message).not.toContain('hunter2');
    const mongo = expectConfigError({ EVENTSTORE_URL: 'esdb://localhost:2113', MONGODB_URL: 'mongodb://u:hunter3@localhost:99999' }, 'MONGODB_URL');
    expect(mongo.message).not.toContain('hunter3');
  });

  it.each(['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost', 'api.internal', 'vigil-api-1'])('accepts HOST=%s', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it('resolves a relative data dir against the working directory', () => {
    expect(loadConfig({ VIGIL_DATA_DIR: 'some/dir' }).sqliteFile).toBe(resolve('some/dir/vigil.db'));
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['PORT', '65536'],
    ['PORT', '0x50'],
    ['VIGIL_PUBLIC_URL', 'not a url'],
    ['VIGIL_PUBLIC_URL', 'ftp://example.com'],
    ['VIGIL_RATE_LIMIT_PER_MINUTE', '0'],
    ['VIGIL_RATE_LIMIT_PER_MINUTE', 'many'],
    ['VIGIL_RATE_LIMIT_PER_MINUTE', '1.5'],
    ['VIGIL_BOOTSTRAP_API_KEY', 'short'],
    ['VIGIL_BOOTSTRAP_API_KEY', 'has a space in it somewhere'],
    ['VIGIL_BOOTSTRAP_API_KEY', 'x'.repeat(257)],
    ['LOG_LEVEL', 'verbose'],
    ['VIGIL_DAEMON', 'maybe'],
    ['VIGIL_EVENT_RETENTION_DAYS', '0'],
    ['VIGIL_EVENT_RETENTION_DAYS', 'forever'],
    ['VIGIL_READY_MAX_LAG', '-1'],
    ['VIGIL_READY_MAX_LAG', '1001'],
    ['VIGIL_STORE_TIMEOUT_MS', '50'],
    ['VIGIL_STORE_TIMEOUT_MS', 'soon'],
    ['VIGIL_METRICS_TOKEN', 'short'],
    ['VIGIL_METRICS_TOKEN', 'a token with spaces in it'],
    ['HOST', 'http://example.com'],
    ['HOST', 'two words'],
    ['HOST', '-leading-hyphen'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SMTP_URL', 'not a url'],
    ['VIGIL_MAIL_FROM', 'no-at-sign'],
    ['VIGIL_OUTBOUND_ALLOW_PRIVATE', 'yes'],
    ['VIGIL_DNS_SERVERS', 'ns1.example.com'],
    ['VIGIL_DNS_SERVERS', '10.0.0.2:99999'],
    ['VIGIL_DNS_SERVERS', '10.0.0.2,,10.0.0.3'],
    ['VIGIL_DELIVERY_TIMEOUT_MS', '10'],
    ['VIGIL_PAGERDUTY_URL', 'ftp://x'],
    ['VIGIL_MONITORS_EMBEDDED', 'yes'],
    ['VIGIL_MONITORS_FAIL_THRESHOLD_PERCENT', '0'],
    ['VIGIL_MONITORS_CONCURRENCY', '0'],
  ])('refuses %s=%j with an error naming it', (variable, value) => {
    expectConfigError({ [variable]: value }, variable);
  });

  it('reads the name servers of VIGIL_DNS_SERVERS: addresses, ports, IPv6 in brackets', () => {
    expect(loadConfig({}).dnsServers).toEqual([]);
    expect(loadConfig({ VIGIL_DNS_SERVERS: ' 10.0.0.2, 10.0.0.3:5353 ,[2001:db8::1]:53,2001:db8::2' }).dnsServers).toEqual(['10.0.0.2', '10.0.0.3:5353', '[2001:db8::1]:53', '2001:db8::2']);
  });

  it('refuses a VIGIL_BOOTSTRAP_ACCOUNT_ID that is not a UUID', () => {
    expectConfigError({ VIGIL_BOOTSTRAP_API_KEY: 'bootstrap-key-0123456789', VIGIL_BOOTSTRAP_ACCOUNT_ID: 'acme' }, 'VIGIL_BOOTSTRAP_ACCOUNT_ID');
  });

  it('refuses VIGIL_BOOTSTRAP_ACCOUNT_ID without VIGIL_BOOTSTRAP_API_KEY', () => {
    expectConfigError({ VIGIL_BOOTSTRAP_ACCOUNT_ID: '01900000-0000-7000-8000-000000000001' }, 'VIGIL_BOOTSTRAP_API_KEY');
  });

  it('never repeats the bootstrap key in its error', () => {
    const secret = 'not long enough';
    expect(expectConfigError({ VIGIL_BOOTSTRAP_API_KEY: secret }, 'VIGIL_BOOTSTRAP_API_KEY').message).not.toContain(secret);
  });

  it('refuses EVENTSTORE_URL alone, naming MONGODB_URL', () => {
    expectConfigError({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' }, 'MONGODB_URL');
  });

  it('refuses MONGODB_URL alone, naming EVENTSTORE_URL', () => {
    expectConfigError({ MONGODB_URL: 'mongodb://localhost:27017' }, 'EVENTSTORE_URL');
  });

  it.each([
    ['EVENTSTORE_URL', { EVENTSTORE_URL: 'http://localhost:2113', MONGODB_URL: 'mongodb://localhost' }],
    ['EVENTSTORE_URL', { EVENTSTORE_URL: '::not a url', MONGODB_URL: 'mongodb://localhost' }],
    ['EVENTSTORE_URL', { EVENTSTORE_URL: 'esdb://node1:2113,node2:abc', MONGODB_URL: 'mongodb://localhost' }],
    ['EVENTSTORE_URL', { EVENTSTORE_URL: 'esdb://localhost:2113?nodePreference=nearest', MONGODB_URL: 'mongodb://localhost' }],
    ['MONGODB_URL', { EVENTSTORE_URL: 'esdb://localhost:2113', MONGODB_URL: 'postgres://localhost' }],
    ['MONGODB_URL', { EVENTSTORE_URL: 'esdb://localhost:2113', MONGODB_URL: 'mongodb+srv://a.example.com,b.example.com' }],
    ['MONGODB_URL', { EVENTSTORE_URL: 'esdb://localhost:2113', MONGODB_URL: 'mongodb://localhost/?replicaSet=rs0&directConnection=true&x=' }],
  ])('refuses a %s with the wrong scheme or shape', (variable, env) => {
    expectConfigError(env, variable);
  });

  it('reads process.env when given nothing', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(loadConfig().port).toBe(4321);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('reads the console session lifetimes (libs/people), the idle one no longer than the absolute one', () => {
    expect(loadConfig({ VIGIL_SESSION_MAX_DAYS: '14', VIGIL_SESSION_IDLE_DAYS: '2' })).toMatchObject({ sessionMaxDays: 14, sessionIdleDays: 2 });
    expect(loadConfig({ VIGIL_SESSION_MAX_DAYS: '3' })).toMatchObject({ sessionMaxDays: 3, sessionIdleDays: 3 });
    expectConfigError({ VIGIL_SESSION_MAX_DAYS: '3', VIGIL_SESSION_IDLE_DAYS: '4' }, 'VIGIL_SESSION_IDLE_DAYS');
    expectConfigError({ VIGIL_SESSION_MAX_DAYS: '0' }, 'VIGIL_SESSION_MAX_DAYS');
  });

  it('turns single sign-on on with all three OIDC variables, refuses one or two, and http issuers beyond localhost', () => {
    const sso = { VIGIL_OIDC_ISSUER: 'https://id.example.com', VIGIL_OIDC_CLIENT_ID: 'vigil', VIGIL_OIDC_CLIENT_SECRET: 's3cret' };
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig(sso).oidc).toEqual({ issuer: 'https://id.example.com', clientId: 'vigil', clientSecret: 's3cret' });
    expect(loadConfig({ ...sso, VIGIL_OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidc?.issuer).toBe('http://127.0.0.1:4000');
    expectConfigError({ VIGIL_OIDC_ISSUER: 'https://id.example.com' }, 'VIGIL_OIDC_CLIENT_ID');
    expectConfigError({ VIGIL_OIDC_ISSUER: 'https://id.example.com', VIGIL_OIDC_CLIENT_ID: 'vigil' }, 'VIGIL_OIDC_CLIENT_SECRET');
    expectConfigError({ VIGIL_OIDC_CLIENT_SECRET: 's3cret' }, 'VIGIL_OIDC_ISSUER');
    expectConfigError({ ...sso, VIGIL_OIDC_ISSUER: 'http://id.example.com' }, 'VIGIL_OIDC_ISSUER');
    expectConfigError({ ...sso, VIGIL_OIDC_ISSUER: 'ftp://id.example.com' }, 'VIGIL_OIDC_ISSUER');
  });
});

import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** OpenAPI 3.1 schemas of the monitor routes (bodies are parsed by monitor-body.ts, which is the authority). */
// Nest's types know OpenAPI 3.0 only; the document is 3.1 (type arrays for null).
const schema = (value: object): SchemaObject => value as SchemaObject;

const assertion = {
  type: 'object',
  required: ['source', 'comparison'],
  properties: {
    source: { type: 'string', description: 'URL: STATUS_CODE; API: also HEADERS, JSON_BODY, TEXT_BODY, RESPONSE_TIME; TCP: RESPONSE_DATA, RESPONSE_TIME; DNS: RESPONSE_CODE, TEXT_ANSWER, JSON_ANSWER, RESPONSE_TIME; SSL: CERTIFICATE, CONNECTION, RESPONSE_TIME' },
    property: { type: 'string', description: 'a header name or a JSON path such as $.items[0].id' },
    comparison: { type: 'string', enum: ['EQUALS', 'NOT_EQUALS', 'HAS_KEY', 'NOT_HAS_KEY', 'HAS_VALUE', 'NOT_HAS_VALUE', 'IS_EMPTY', 'NOT_EMPTY', 'LESS_THAN', 'GREATER_THAN', 'CONTAINS', 'NOT_CONTAINS', 'IS_NULL', 'NOT_NULL'] },
    target: { type: ['string', 'number', 'boolean'] },
    regex: { type: ['string', 'null'] },
  },
};

const common = {
  name: { type: 'string', maxLength: 200 },
  description: { type: ['string', 'null'] },
  activated: { type: 'boolean', default: true },
  muted: { type: 'boolean', default: false },
  tags: { type: 'array', items: { type: 'string' } },
  locations: { type: 'array', items: { type: 'string' }, default: ['local'] },
  frequency: { type: 'integer', minimum: 0, maximum: 1440, description: 'minutes; 0 with frequencyOffset for 10, 20 or 30 seconds' },
  frequencyOffset: { type: 'integer', enum: [10, 20, 30] },
  degradedResponseTime: { type: 'integer', minimum: 0 },
  maxResponseTime: { type: 'integer', minimum: 0 },
  retryStrategy: {
    type: ['object', 'null'],
    properties: {
      type: { type: 'string', enum: ['FIXED', 'LINEAR', 'EXPONENTIAL', 'SINGLE_RETRY', 'NO_RETRIES'] },
      baseBackoffSeconds: { type: 'integer' },
      maxRetries: { type: 'integer' },
      maxDurationSeconds: { type: 'integer' },
      sameRegion: { type: 'boolean' },
      onlyOn: { type: ['string', 'null'], enum: ['NETWORK_ERROR', null] },
    },
  },
  alertSettings: { type: ['object', 'null'], additionalProperties: true },
  alertChannelSubscriptions: { type: 'array', items: { type: 'object', properties: { alertChannelId: { type: 'string', format: 'uuid' }, activated: { type: 'boolean' } } } },
  triggerIncident: {
    type: ['object', 'null'],
    properties: { serviceId: { type: 'string', format: 'uuid' }, severity: { type: 'string', enum: ['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'] }, name: { type: 'string' }, description: { type: 'string' }, notifySubscribers: { type: 'boolean' } },
  },
  request: {
    type: 'object',
    additionalProperties: true,
    description: 'url, method, headers, queryParameters, body, bodyType, basicAuth, followRedirects, skipSSL (URL, API); hostname, port, data (TCP); recordType, query, nameServer, port, protocol (DNS); sslConfig (SSL)',
    properties: { assertions: { type: 'array', items: assertion } },
  },
};

export const MONITOR_BODY_SCHEMA = schema({ type: 'object', required: ['name', 'request'], properties: common, example: { name: 'Website', frequency: 1, request: { url: 'https://example.com', assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }] } } });

const run = {
  type: 'object',
  properties: {
    location: { type: 'string' },
    roundAt: { type: 'string', format: 'date-time' },
    startedAt: { type: 'string', format: 'date-time' },
    outcome: { type: 'string', enum: ['PASS', 'DEGRADED', 'FAIL'] },
    timings: { type: 'object', additionalProperties: { type: 'number' } },
    error: { type: ['string', 'null'] },
    networkError: { type: 'boolean' },
    attempt: { type: 'integer' },
    final: { type: 'boolean' },
  },
};

const monitor = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    checkType: { type: 'string', enum: ['URL', 'API', 'TCP', 'DNS', 'SSL'] },
    ...common,
    status: {
      type: 'object',
      properties: { state: { type: ['string', 'null'], enum: ['PASSING', 'DEGRADED', 'FAILING', null] }, since: { type: ['string', 'null'] }, lastRun: { oneOf: [run, { type: 'null' }] }, nextRunAt: { type: ['string', 'null'] } },
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

export const MONITOR_SCHEMA = schema(monitor);

export const MONITOR_PAGE_SCHEMA = schema({ type: 'object', properties: { length: { type: 'integer' }, entries: { type: 'array', items: monitor }, nextId: { type: ['string', 'null'] } } });

export const LOCATIONS_SCHEMA = schema({
  type: 'array',
  items: {
    type: 'object',
    properties: {
      region: { type: 'string' },
      name: { type: 'string' },
      kind: { type: 'string', enum: ['embedded', 'runner'] },
      status: { type: 'string', enum: ['UP', 'DOWN', 'NEW'] },
      downSince: { type: ['string', 'null'], format: 'date-time' },
      allowPrivateTargets: { type: 'boolean' },
      runners: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, lastSeenAt: { type: 'string', format: 'date-time' }, state: { type: 'string', enum: ['ACTIVE', 'LOST'] } } } },
    },
  },
});

export const ROLLUPS_SCHEMA = schema({
  type: 'object',
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          at: { type: 'string', format: 'date-time' },
          runs: { type: 'integer' },
          failed: { type: 'integer' },
          degraded: { type: 'integer' },
          availability: { type: ['number', 'null'] },
          responseTime: { type: 'object', properties: { avg: { type: ['number', 'null'] }, p50: { type: ['number', 'null'] }, p95: { type: ['number', 'null'] }, p99: { type: ['number', 'null'] } } },
        },
      },
    },
  },
});

export const CHECK_RESULTS_SCHEMA = schema({
  type: 'object',
  properties: {
    length: { type: 'integer' },
    nextId: { type: ['string', 'null'] },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          checkId: { type: 'string' },
          name: { type: 'string' },
          hasFailures: { type: 'boolean' },
          hasErrors: { type: 'boolean' },
          isDegraded: { type: 'boolean' },
          overMaxResponseTime: { type: 'boolean' },
          runLocation: { type: 'string' },
          startedAt: { type: 'string', format: 'date-time' },
          stoppedAt: { type: 'string', format: 'date-time' },
          created_at: { type: 'string', format: 'date-time' },
          responseTime: { type: 'number' },
          checkRunId: { type: 'number' },
          attempts: { type: 'integer' },
          resultType: { type: 'string', enum: ['FINAL', 'ATTEMPT'] },
          error: { type: ['string', 'null'] },
          timings: { type: 'object', additionalProperties: { type: 'number' } },
        },
      },
    },
  },
});

const metrics = { type: 'object', description: 'availability (percent) and Checkly’s timing metrics in ms, e.g. responseTime_avg, responseTime_p95', additionalProperties: { type: ['number', 'null'] } };

export const ANALYTICS_SCHEMA = schema({
  type: 'object',
  properties: {
    checkId: { type: 'string' },
    name: { type: 'string' },
    checkType: { type: 'string' },
    activated: { type: 'boolean' },
    muted: { type: 'boolean' },
    frequency: { type: ['integer', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    series: { type: 'array', items: { type: 'object', properties: { data: { type: 'array', items: metrics } } } },
    metadata: { type: 'object', additionalProperties: { type: 'object', properties: { unit: { type: 'string' }, label: { type: 'string' } } } },
  },
});

export const BATCH_ANALYTICS_SCHEMA = schema({ type: 'array', items: { ...metrics, properties: { checkId: { type: 'string' } } } });

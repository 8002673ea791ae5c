import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** OpenAPI 3.1 schemas of the runner routes (runner-body.ts and runner-keys.controller.ts parse the bodies). */
const schema = (value: object): SchemaObject => value as SchemaObject;

const keyFields = {
  id: { type: 'string', format: 'uuid' },
  location: { type: 'string' },
  name: { type: ['string', 'null'] },
  prefix: { type: 'string', description: 'the key’s first characters' },
  allowPrivateTargets: { type: 'boolean' },
};

export const RUNNER_KEY_BODY_SCHEMA = schema({
  type: 'object',
  required: ['location'],
  additionalProperties: false,
  properties: {
    location: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'the location its runners serve (not local)' },
    name: { type: ['string', 'null'], maxLength: 255 },
    allowPrivateTargets: { type: 'boolean', default: false, description: 'a private location: its runners may probe private, loopback and link-local addresses' },
  },
});

export const RUNNER_KEY_CREATED_SCHEMA = schema({ type: 'object', properties: { ...keyFields, runnerKey: { type: 'string', description: 'shown only in this answer' } } });

export const RUNNER_KEYS_SCHEMA = schema({
  type: 'array',
  items: { type: 'object', properties: { ...keyFields, revoked: { type: 'boolean' }, created_at: { type: 'string', format: 'date-time' }, revoked_at: { type: ['string', 'null'], format: 'date-time' } } },
});

const runner = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'this runner process’s id, chosen at its start' };

export const LEASE_BODY_SCHEMA = schema({
  type: 'object',
  required: ['runner', 'location'],
  additionalProperties: false,
  properties: {
    runner,
    location: { type: 'string' },
    since: { type: ['string', 'null'], format: 'date-time', description: 'the previous answer’s at; absent or null for a full lease' },
    membership: { type: ['string', 'null'], pattern: '^[a-z0-9]{1,16}$', description: 'the previous answer’s membership' },
    after: { type: ['string', 'null'], format: 'uuid', description: 'the previous answer’s continueAfter: the next page of a full lease (with membership, without since)' },
  },
});

export const LEASE_SCHEMA = schema({
  type: 'object',
  properties: {
    at: { type: 'string', format: 'date-time' },
    leaseUntil: { type: 'string', format: 'date-time' },
    location: { type: 'string' },
    allowPrivateTargets: { type: 'boolean' },
    activeRunners: { type: 'integer' },
    membership: { type: 'string', description: 'the location’s active runners, fingerprinted; sent back with the next lease' },
    full: { type: 'boolean', description: 'true: monitors holds every monitor of this runner; false: only those changed since since' },
    monitors: {
      type: 'object',
      description: 'each held monitor’s configuration, by id, as the monitor routes show it',
      additionalProperties: { type: 'object', properties: { checkType: { type: 'string' }, name: { type: 'string' }, frequency: { type: 'integer' }, frequencyOffset: { type: 'integer' }, request: { type: 'object', additionalProperties: true } } },
    },
    nextRounds: { type: 'object', description: 'each held monitor’s next round; the ones after it follow every interval', additionalProperties: { type: 'string', format: 'date-time' } },
    released: { type: 'array', description: 'monitors changed since since that this runner no longer holds', items: { type: 'string', format: 'uuid' } },
    continueAfter: { type: ['string', 'null'], format: 'uuid', description: 'set while a full lease has more pages (at most 500 monitors looked at and 512 KiB of configurations each): lease again at once with it as after; null on the last page' },
  },
});

const timing = { type: 'integer', minimum: 0, maximum: 600000 };

export const RESULTS_BODY_SCHEMA = schema({
  type: 'object',
  required: ['runner', 'location', 'results'],
  additionalProperties: false,
  properties: {
    runner,
    location: { type: 'string' },
    results: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['monitorId', 'roundAt', 'startedAt', 'outcome', 'timings', 'error', 'networkError', 'attempt', 'final'],
        properties: {
          monitorId: { type: 'string', format: 'uuid' },
          roundAt: { type: 'string', format: 'date-time' },
          startedAt: { type: 'string', format: 'date-time' },
          outcome: { type: 'string', enum: ['PASS', 'DEGRADED', 'FAIL'] },
          timings: { type: 'object', required: ['total'], properties: { total: timing, dns: timing, connect: timing, tls: timing, firstByte: timing } },
          error: { type: ['string', 'null'], maxLength: 1000 },
          networkError: { type: 'boolean' },
          attempt: { type: 'integer', minimum: 1, maximum: 100 },
          final: { type: 'boolean' },
        },
      },
    },
  },
});

export const RESULTS_SCHEMA = schema({ type: 'object', properties: { accepted: { type: 'integer' }, rejected: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } } } });

import { STATUS_CODES } from 'node:http';
import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { MAX_BODY_BYTES } from '../../../libs/http/src/json-body';
import { MAX_PING_BODY_BYTES, PING_BODY_LIMIT, PING_PATHS } from '../../../libs/heartbeats/src/heartbeats.api';
import { operationTexts } from './openapi-operations';
import { EXTRA_SCHEMAS, REQUEST_EXAMPLES, RESPONSE_SCHEMAS, SCHEMA_EXAMPLES } from './openapi-schemas';
import { consoleOpenApiPaths } from '../../../libs/people/src/people.api';
import { consolePagesOpenApiPaths } from '../../../libs/console/src/console.api';

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const ERROR_REF = { $ref: '#/components/schemas/Error' };
const REQUEST_ID_HEADER = { $ref: '#/components/headers/RequestId' };

const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error: the status, its reason phrase and a sentence; every violated rule on a 400; a request id on a 5xx',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    error: { type: 'string', description: 'The HTTP reason phrase', examples: ['Bad Request'] },
    message: { type: 'string', examples: ['Validation failed'] },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string', examples: ['services[0].id'] }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string', description: 'On 5xx: the id under which the log has the error' },
  },
};

/** When Vigil answers each error status, in words for the document. */
const ERROR_WHEN: Record<number, string> = {
  400: 'Validation failed (every violated rule in details), a bad query parameter, cursor, date or URL',
  401: 'Missing, malformed, unknown or revoked API key (WWW-Authenticate: Bearer)',
  403: 'The key may not act on this account, or its role forbids the operation',
  404: 'Absent, deleted, owned by another account, or a malformed id',
  405: 'The path exists, not with this method (Allow lists those it takes)',
  409: 'A unique value is taken, the resource is still referenced, or an Idempotency-Key was used with another body',
  412: 'If-Match does not match the current ETag; nothing was written',
  413: `Body larger than ${MAX_BODY_BYTES} bytes`,
  415: 'Content-Type is not application/json',
  429: 'Rate limit reached (Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset)',
  500: 'Unexpected failure; the body carries the request id, the log the details',
  503: 'A backing store is unreachable (Retry-After)',
};

const header = (name: string, description: string, schema: Json) => ({ name, in: 'header', required: false, description, schema });

const HEADERS = {
  requestId: header('x-request-id', 'Echoed in the response when 1–128 of A-Za-z0-9._:- (otherwise a new id is generated)', { type: 'string', maxLength: 128 }),
  account: header('x-service-account', 'The account to act on (alias x-checkly-account); required when the key grants several', { type: 'string', format: 'uuid' }),
  idempotencyKey: header('Idempotency-Key', 'A retry with the same key and body within 24 h returns the first answer and writes nothing', {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    pattern: '^[\\x21-\\x7E]+$',
  }),
  ifMatch: header('If-Match', 'The ETag last seen ("<revision>", or *); another one → 412 and nothing written', { type: 'string', examples: ['"3"'] }),
};

/** The ping routes are Fastify routes beside Nest's (ping.routes.ts): described here, from their paths. */
function pingPaths(): Json {
  const responses = (withBody: boolean): Json => ({
    200: {
      description: 'Recorded (committed before the answer), or a deactivated check (nothing recorded)',
      headers: { 'x-request-id': REQUEST_ID_HEADER, 'ping-body-limit': { description: 'Bytes of a POST body stored with the event', schema: { type: 'string', enum: [String(PING_BODY_LIMIT)] } } },
      content: { 'text/plain': { schema: { type: 'string', enum: ['OK'] } } },
    },
    ...errorResponses([400, 403, 404, ...(withBody ? [413] : []), 429, 500, 503]),
  });
  const described: Record<string, Json> = {
    token: { name: 'pingToken', in: 'path', required: true, description: 'The check’s ping token; on /ping/{pingToken}/{segment} a non-UUID is an account ping key and the next segment a slug', schema: { type: 'string', maxLength: 200 } },
    segment: { name: 'segment', in: 'path', required: true, description: 'After a token: start, fail, log or an exit code 0–255 (0 success, 1–255 FAILING); after an account ping key (GET /v1/accounts/ping-key): the check’s slug', schema: { type: 'string', maxLength: 200 } },
    signal: { name: 'signal', in: 'path', required: true, description: 'After a ping key and slug: start, fail, log or an exit code 0–255', schema: { type: 'string', maxLength: 200 } },
  };
  const query = [
    { name: 'rid', in: 'query', required: false, description: 'Run id pairing a start with its finish', schema: { type: 'string', format: 'uuid' } },
    { name: 'create', in: 'query', required: false, description: 'Slug URLs: 1 creates the check on its first ping', schema: { type: 'string', maxLength: 10 } },
  ];
  const out: Json = {};
  for (const path of PING_PATHS) {
    const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const parameters = [...names.map((name) => described[name]), ...query, HEADERS.requestId];
    out[path.replace(/:(\w+)/g, (_m, name: string) => `{${name === 'token' ? 'pingToken' : name}}`)] = {
      get: { tags: ['heartbeat pings'], summary: 'Ping a heartbeat check or send a run signal (no API key)', parameters, responses: responses(false) },
      head: { tags: ['heartbeat pings'], summary: 'Ping as GET does, without a response body (no API key)', parameters, responses: responses(false) },
      post: {
        tags: ['heartbeat pings'],
        summary: `Ping a heartbeat check (no API key); the first ${PING_BODY_LIMIT} bytes of the body, of any type, are stored with the event`,
        parameters,
        requestBody: {
          required: false,
          content: { '*/*': { schema: { type: 'string', maxLength: MAX_PING_BODY_BYTES, description: `Any content, at most ${MAX_PING_BODY_BYTES} bytes` } } },
        },
        responses: responses(true),
      },
    };
  }
  return out;
}

/**
 * The public status pages (libs/public-web) answer HTML, feeds, Statuspage v2 JSON and
 * badges, without an API key: described here, under /status/{url} and at the root of a custom domain.
 */
function publicPagePaths(): Json {
  const text = (type: string, description: string): Json => ({ description, content: { [type]: { schema: { type: 'string' } } } });
  const notModified = { 304: { description: 'Not Modified: the If-None-Match ETag is current' } };
  const html = (extra: Json = {}): Json => ({ 200: text('text/html', 'The page'), ...notModified, 404: text('text/html', 'No such page'), ...extra });
  const asJson = (description: string, schema: Json): Json => ({ 200: { description, content: { 'application/json': { schema } } }, ...notModified, ...errorResponses([404]) });
  const statuspage = { type: 'object', description: "Statuspage's public v2 shape: `page` and the route's own members", properties: { page: { type: 'object', additionalProperties: true } }, additionalProperties: true };
  const shields = {
    type: 'object',
    properties: { schemaVersion: { type: 'integer', enum: [1] }, label: { type: 'string' }, message: { type: 'string' }, color: { type: 'string' } },
    required: ['schemaVersion', 'label', 'message', 'color'],
  };
  const byType = (type: string, description: string): Json => ({ 200: text(type, description), ...notModified, ...errorResponses([404]) });
  const url = { name: 'url', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]{3,63}$' }, description: "The page's url slug" };
  const operation = (summary: string, responses: Json, parameters: Json[] = []): Json => ({ tags: ['public status pages'], summary, security: [], parameters, responses });
  const out: Json = {
    '/_vigil/{file}': { get: operation("Vigil's own stylesheet and icon (cached for a year)", byType('text/css', 'The file'), [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }]) },
  };
  for (const base of ['/status/{url}', '']) {
    const page = base ? [url] : [];
    const where = base ? '' : " (on a request whose Host is the page's customDomain)";
    out[base || '/'] = { get: operation(`The status page${where}`, html(), page) };
    out[`${base}/history`] = {
      get: operation(`Past incidents, 90 days a page${where}`, html({ 400: text('text/html', 'No such history page') }), [
        ...page,
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 9999 } },
      ]),
    };
    out[`${base}/incidents/{incidentId}`] = {
      get: operation(`One incident with its updates${where}`, html(), [...page, { name: 'incidentId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }]),
    };
    out[`${base}/history.rss`] = { get: operation(`RSS feed of incidents${where}`, byType('application/rss+xml', 'RSS 2.0'), page) };
    out[`${base}/history.atom`] = { get: operation(`Atom feed of incidents${where}`, byType('application/atom+xml', 'Atom 1.0'), page) };
    const v2 = (params: Json[]): Json => ({ get: operation(`Statuspage v2 JSON${where}`, asJson('Statuspage v2 shape', statuspage), [...page, ...params]) });
    out[`${base}/api/v2/{resource}`] = v2([
      { name: 'resource', in: 'path', required: true, schema: { type: 'string', enum: ['summary.json', 'status.json', 'components.json', 'incidents.json', 'scheduled-maintenances.json'] } },
    ]);
    out[`${base}/api/v2/{resource}/{subresource}`] = v2([
      { name: 'resource', in: 'path', required: true, schema: { type: 'string', enum: ['incidents', 'scheduled-maintenances'] } },
      { name: 'subresource', in: 'path', required: true, schema: { type: 'string', enum: ['unresolved.json', 'upcoming.json', 'active.json'] } },
    ]);
    const service = { name: 'service', in: 'query', required: false, schema: { type: 'string', format: 'uuid' }, description: 'One service instead of the whole page' };
    out[`${base}/badge.svg`] = { get: operation(`Status badge${where}`, byType('image/svg+xml', 'SVG badge'), [...page, service]) };
    out[`${base}/badge.json`] = { get: operation(`shields.io endpoint JSON${where}`, asJson('shields.io endpoint badge', shields), [...page, service]) };
    out[`${base}/theme/{file}`] = { get: operation(`The page's theme stylesheet${where}`, byType('text/css', 'CSS'), [...page, { name: 'file', in: 'path', required: true, schema: { type: 'string' } }]) };
    out[`${base}/subscribe`] = {
      post: {
        ...operation(`Subscribe an email address (double opt-in)${where}`, {
          200: text('text/html', 'Check your inbox (the same answer whether or not the address was subscribed)'),
          400: text('text/html', 'Not an email address'),
          404: text('text/html', 'No such page'),
          429: text('text/html', 'Too many subscriptions from this address'),
          ...errorResponses([413, 415]),
        }, page),
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { email: { type: 'string', maxLength: 254 } }, required: ['email'] } } },
        },
      },
    };
  }
  return out;
}

/** The links of subscriber emails (libs/alerting subscriber-links.routes.ts), without an API key: HTML pages. */
function subscriberLinkPaths(): Json {
  const page = (description: string): Json => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
  const token = { name: 'token', in: 'path', required: true, schema: { type: 'string', maxLength: 256 }, description: 'The signed token of the email link' };
  const operation = (summary: string, ok: string): Json => ({
    tags: ['subscriber links'],
    summary,
    security: [],
    parameters: [token],
    responses: { 200: page(ok), 400: page('The link is invalid, expired or already used') },
  });
  return {
    '/subscriptions/confirm/{token}': {
      get: operation('A page with a button confirming the subscription (changes nothing: mail scanners follow links)', 'The page'),
      post: operation('Confirm an email subscription (double opt-in, valid 48 h, single use; the body is ignored)', 'Confirmed'),
    },
    '/subscriptions/unsubscribe/{token}': {
      get: operation('A page with an unsubscribe button (changes nothing)', 'The page'),
      post: operation('Unsubscribe at once (RFC 8058 one-click; the body is ignored)', 'Unsubscribed (the same answer whether or not the subscription still existed)'),
    },
  };
}

function errorResponses(statuses: number[]): Json {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: `${STATUS_CODES[status]}: ${ERROR_WHEN[status]}`,
        headers: { 'x-request-id': REQUEST_ID_HEADER },
        content: { 'application/json': { schema: ERROR_REF } },
      },
    ]),
  );
}

/** OpenAPI 3.1 has no `nullable`: a type array, null in an enum, or anyOf with null for a reference. */
function toNullableTypes(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(toNullableTypes);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    if (schema.$ref || schema.allOf) {
      const target = schema.$ref ? [{ $ref: schema.$ref }] : schema.allOf;
      delete schema.$ref;
      delete schema.allOf;
      schema.anyOf = [...target, { type: 'null' }];
    }
  } else if (schema.nullable === false) {
    delete schema.nullable;
  }
  for (const value of Object.values(schema)) toNullableTypes(value);
}

/** The texts, response schemas and request examples kept beside the document (openapi-operations, openapi-schemas). */
function describeOperation(path: string, method: string, operation: Json): void {
  const key = `${method.toUpperCase()} ${path}`;
  const texts = operationTexts(method, path);
  if (texts) {
    operation.summary ||= texts[0];
    operation.description ||= texts[1];
  }
  for (const [status, schema] of Object.entries(RESPONSE_SCHEMAS[key] ?? {})) {
    const response = (operation.responses[status] ??= { description: STATUS_CODES[Number(status)] });
    response.content = { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } };
  }
  const body = operation.requestBody?.content?.['application/json'];
  if (body && REQUEST_EXAMPLES[key] !== undefined) body.example = REQUEST_EXAMPLES[key];
}

function finishOperation(path: string, method: string, operation: Json): void {
  describeOperation(path, method, operation);
  const isHealth = path === '/healthz' || path === '/readyz';
  const secured = /^\/(v1|next|accounts)\//.test(path);
  const pathParams = /\{[^}]+\}/.test(path);
  const hasBody = operation.requestBody !== undefined;
  const takesIfMatch = secured && ['put', 'patch', 'delete'].includes(method);

  const headers: Json[] = [HEADERS.requestId];
  if (secured) {
    operation.security = [{ bearer: [] }];
    if (!path.includes('{accountId}')) headers.push(HEADERS.account);
    if (method === 'post') headers.push(HEADERS.idempotencyKey);
    if (takesIfMatch) headers.push(HEADERS.ifMatch);
  }
  operation.parameters = [...(operation.parameters ?? []), ...headers];

  for (const response of Object.values(operation.responses ?? {}) as Json[]) {
    response.headers = { 'x-request-id': REQUEST_ID_HEADER, ...response.headers };
  }
  const statuses = [
    ...(isHealth ? [] : [400]),
    ...(secured ? [401, 403] : []),
    ...(pathParams ? [404] : []),
    ...(secured && method !== 'get' ? [409] : []),
    ...(takesIfMatch ? [412] : []),
    ...(hasBody ? [413, 415] : []),
    ...(isHealth ? [] : [429]),
    500,
    ...(path === '/healthz' ? [] : [503]),
  ].filter((status) => operation.responses?.[status] === undefined);
  operation.responses = { ...operation.responses, ...errorResponses(statuses) };
}

/**
 * What the decorators cannot say, added in this one place:
 * 1. the ping routes (Fastify routes beside Nest's);
 * 2. the error schema, and the error responses every operation can give;
 * 3. the headers every operation takes (x-request-id; with an API key x-service-account, Idempotency-Key
 *    on POST, If-Match on PUT/PATCH/DELETE) and the x-request-id every response carries;
 * 4. OpenAPI 3.1 nullability (no `nullable`);
 * 5. a status page's incidents as the Incident schema (the status-pages context does not import incidents');
 * 6. a summary and a description for every operation, schemas the controllers leave out, and examples.
 */
function finishDocument(document: OpenAPIObject): OpenAPIObject {
  const doc = document as unknown as Json;
  doc.paths = { ...doc.paths, ...pingPaths(), ...publicPagePaths(), ...subscriberLinkPaths(), ...consoleOpenApiPaths(), ...consolePagesOpenApiPaths() };
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas, ...EXTRA_SCHEMAS, Error: ERROR_SCHEMA };
  for (const [name, example] of Object.entries(SCHEMA_EXAMPLES)) if (doc.components.schemas[name]) doc.components.schemas[name].examples = [example];
  // An API key, not a JWT: the generator's default format would mislead clients.
  if (doc.components.securitySchemes?.bearer) delete doc.components.securitySchemes.bearer.bearerFormat;
  doc.components.headers = {
    ...doc.components.headers,
    RequestId: { description: "The request's id: the client's x-request-id when sane, else a new UUID", schema: { type: 'string' } },
  };
  for (const name of ['StatusPageDto', 'StatusPageDetailDto']) {
    const incidents = doc.components.schemas[name]?.properties?.incidents;
    if (incidents && doc.components.schemas.IncidentDto) incidents.items = { $ref: '#/components/schemas/IncidentDto' };
  }

  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of METHODS) if (item[method]) finishOperation(path, method, item[method]);
  }
  toNullableTypes(doc);
  return document;
}

/** The OpenAPI 3.1 document of every route, from the controllers and DTOs, finished by finishDocument. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const generated = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Vigil')
      .setDescription('Status pages, incidents and heartbeat monitoring')
      .setVersion('1')
      .setOpenAPIVersion('3.1.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (created with the admin CLI)' })
      .build(),
  );
  return finishDocument(generated);
}

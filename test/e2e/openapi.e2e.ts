import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';
import { eventually } from './alerting-receivers';

/** Issue 23, item 7: /openapi.json is a faithful OpenAPI 3.1 description of every route. */

let server: TestServer;
let doc: Record<string, any>;

beforeAll(async () => {
  server = await startTestServer();
  doc = (await server.http.get('/openapi.json')).body;
});
afterAll(() => server.close());

type Visit = (node: Record<string, any>, path: string) => void;
function walk(node: unknown, path: string, visit: Visit): void {
  if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${path}[${i}]`, visit));
  if (node === null || typeof node !== 'object') return;
  visit(node as Record<string, any>, path);
  for (const [key, child] of Object.entries(node)) walk(child, `${path}.${key}`, visit);
}

function operations(): { path: string; method: string; op: Record<string, any> }[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );
}

/**
 * The routes of Fastify's printRoutes tree (commonPrefix false): each line a segment appended to its
 * parent's path, at a depth of four characters per level, with its methods in parentheses.
 */
function routesOf(tree: string): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    if (match[3]) out.push({ path: stack.join(''), methods: match[3].split(', ') });
  }
  return out;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('describes the ping, health and docs-independent routes as well as the API', () => {
    for (const path of ['/ping/{pingToken}', '/heartbeats/ping/{pingToken}']) expect(Object.keys(doc.paths[path]).sort()).toEqual(['get', 'head', 'post']);
    for (const path of ['/healthz', '/readyz']) expect(doc.paths[path]).toHaveProperty('get');
    expect(doc.paths['/v1/status-pages/{statusPageId}/subscriptions/{subscriptionId}']).toHaveProperty('delete');
  });

  it('describes every route the server answers (but the documentation itself)', () => {
    const fastify = server.app.getHttpAdapter().getInstance() as { printRoutes(options: { commonPrefix: boolean }): string };
    const routes = routesOf(fastify.printRoutes({ commonPrefix: false })).filter(({ path }) => !/^\/(docs|openapi\.json)/.test(path));
    expect(routes.length).toBeGreaterThan(20);
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`),
      ),
    );
    const missing = routes.flatMap(({ path, methods }) => methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${path.replace(/:\w+/g, '{}')}`)).filter((route) => !documented.has(route));
    expect(missing).toEqual([]);
  });

  it('uses only 3.1 keywords: no nullable anywhere', () => {
    const found: string[] = [];
    walk(doc, '', (node, path) => {
      if ('nullable' in node) found.push(path);
    });
    expect(found).toEqual([]);
    expect(doc.components.schemas.CheckDto.properties.description.type).toEqual(['string', 'null']);
  });

  it('types every field: no bare object, and the fields the issue named have their real types', () => {
    const bare: string[] = [];
    walk(doc, '', (node, path) => {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (types.includes('object') && !node.properties && node.additionalProperties === undefined && !node.oneOf && !node.anyOf && !node.allOf) bare.push(path);
    });
    expect(bare).toEqual([]);
    const schemas = doc.components.schemas;
    expect(schemas.IncidentUpdateBodyDto.properties.notifySubscribers.type).toEqual(['boolean', 'null']);
    expect(schemas.IncidentUpdateBodyDto.properties.publicIncidentUpdateDate).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(schemas.BulkSubscriptionsDto.properties.autoVerify.type).toEqual(['boolean', 'null']);
    expect(schemas.CardBodyDto.properties.id.type).toBe('string');
    expect(schemas.StatusPageDto.properties.incidents.items).toEqual({ $ref: '#/components/schemas/IncidentDto' });
  });

  it('documents every header and every error response with the error schema', () => {
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      const headers = (op.parameters ?? []).filter((p: any) => p.in === 'header').map((p: any) => p.name);
      expect({ where, requestId: headers.includes('x-request-id') }).toEqual({ where, requestId: true });
      const secured = /^\/(v1|next|accounts)\//.test(path);
      if (secured) {
        expect({ where, security: op.security }).toEqual({ where, security: [{ bearer: [] }] });
        if (!path.includes('{accountId}')) expect({ where, account: headers.includes('x-service-account') }).toEqual({ where, account: true });
        if (method === 'post') expect({ where, idempotency: headers.includes('Idempotency-Key') }).toEqual({ where, idempotency: true });
        if (['put', 'patch', 'delete'].includes(method)) expect({ where, ifMatch: headers.includes('If-Match') }).toEqual({ where, ifMatch: true });
        for (const status of ['400', '401', '403', '429', '500', '503']) expect({ where, status, has: status in op.responses }).toEqual({ where, status, has: true });
      }
      if (op.requestBody) for (const status of ['413']) expect({ where, status, has: status in op.responses }).toEqual({ where, status, has: true });
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        expect(response.headers?.['x-request-id']).toBeDefined();
        // /readyz answers its 503 with which stores or read models are behind, not an error body.
        // Public HTML pages answer their own errors as HTML pages; every JSON error is the error shape.
        const htmlPage = !secured && response.content?.['text/html'] !== undefined && response.content['application/json'] === undefined;
        if (Number(status) >= 400 && !htmlPage && !(path === '/readyz' && status === '503')) expect({ where, status, schema: response.content?.['application/json']?.schema }).toEqual({ where, status, schema: { $ref: '#/components/schemas/Error' } });
      }
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('gives every operation a summary and a description, and every answer with a body a schema', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      if (typeof op.summary !== 'string' || op.summary.trim() === '') missing.push(`${where}: summary`);
      if (typeof op.description !== 'string' || op.description.trim() === '') missing.push(`${where}: description`);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        // 204, 304 and redirects have no body; every other answer says what its body is.
        if (status === '204' || status === '304' || /^30[1278]$/.test(status) || status === '303') continue;
        const contents = Object.values((response.content ?? {}) as Record<string, any>);
        if (contents.length === 0 || contents.some((c) => c.schema === undefined)) missing.push(`${where}: ${status} schema`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('gives the main resources request and response examples', () => {
    const withExample = (schema: Record<string, any> | undefined): boolean => {
      if (!schema) return false;
      const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema;
      return resolved?.examples !== undefined || resolved?.example !== undefined;
    };
    const main = [
      ['post', '/v1/checks/heartbeat'],
      ['post', '/v1/status-pages'],
      ['post', '/v1/status-pages/services'],
      ['post', '/v1/status-pages/incidents'],
      ['post', '/v1/status-pages/incidents/{incidentId}/incident-updates'],
      ['post', '/v1/alert-channels'],
      ['post', '/v1/maintenance-windows'],
    ];
    const lacking: string[] = [];
    for (const [method, path] of main) {
      const op = doc.paths[path]?.[method];
      if (!op) {
        lacking.push(`${method} ${path}: no operation`);
        continue;
      }
      const request = op.requestBody?.content?.['application/json'];
      if (!(request?.example !== undefined || request?.examples !== undefined || withExample(request?.schema))) lacking.push(`${method} ${path}: request example`);
      const ok = Object.entries(op.responses as Record<string, any>).find(([status]) => status.startsWith('2'))?.[1]?.content?.['application/json'];
      if (!(ok?.example !== undefined || ok?.examples !== undefined || withExample(ok?.schema))) lacking.push(`${method} ${path}: response example`);
    }
    expect(lacking).toEqual([]);
  });

  it('describes alert channels and notifications as the server answers them', async () => {
    const account = await server.account();
    const fieldsOf = (name: string) => doc.components.schemas[name] as { required: string[]; properties: Record<string, unknown> };
    const matches = (body: Record<string, unknown>, name: string) => {
      const schema = fieldsOf(name);
      return { name, missing: schema.required.filter((key) => !(key in body)), undocumented: Object.keys(body).filter((key) => !(key in schema.properties)) };
    };
    const created = await server.http.post('/v1/alert-channels', { type: 'EMAIL', config: { address: 'oncall@example.com' } }, { key: account.key });
    expect(created.status).toBe(201);
    expect(matches(created.body, 'AlertChannel')).toEqual({ name: 'AlertChannel', missing: [], undocumented: [] });
    const test = await server.http.post(`/v1/alert-channels/${created.body.id}/test`, {}, { key: account.key });
    expect(test.status).toBe(202);
    expect(matches(test.body, 'AlertChannelTest')).toEqual({ name: 'AlertChannelTest', missing: [], undocumented: [] });
    // The test's delivery is written by the notifier, which follows the log where background work runs.
    const log = await eventually(() => server.http.get('/v1/alert-notifications', { key: account.key }), (r) => r.body.entries.length > 0);
    expect(matches(log.body, 'NotificationPage')).toEqual({ name: 'NotificationPage', missing: [], undocumented: [] });
    expect(log.body.entries.length).toBeGreaterThan(0);
    for (const entry of log.body.entries) expect(matches(entry, 'Notification')).toEqual({ name: 'Notification', missing: [], undocumented: [] });
    const accountBody = (await server.http.get(`/next/accounts/${account.id}`, { key: account.key })).body;
    expect(matches(accountBody, 'Account')).toEqual({ name: 'Account', missing: [], undocumented: [] });
  });

  it('describes the bearer scheme as an API key, not a JWT', () => {
    expect(doc.components.securitySchemes.bearer.bearerFormat).toBeUndefined();
    expect(doc.components.securitySchemes.bearer.description).toMatch(/API key/);
  });
});

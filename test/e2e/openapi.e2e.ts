import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, TestServer } from '../../libs/testing/src/test-server';

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
});

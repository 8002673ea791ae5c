import fc from 'fast-check';
import { ManualClock } from '../../libs/core/src/clock';
import { EVENT_STORE, EventStore } from '../../libs/event-store/src/event-store.port';
import { rawRequest, RawResponse } from '../../libs/testing/src/raw-http';
import { startTestServer, TestAccount, TestServer } from '../../libs/testing/src/test-server';
import { FuzzRequest, headers, IdPool, jsonBody, OpenApiDoc, Operation, pathValue, queryString, sometimes } from './fuzz-arbitraries';

/**
 * Every operation of /openapi.json, fed generated valid and invalid bodies, query strings, headers and
 * path parameters (docs/api-conventions.md, "Fuzzing"). For each request: no 5xx, an answer within
 * REQUEST_TIMEOUT_MS, the error shape on every JSON 4xx, no event appended under a rejected request's
 * id; afterwards the server still answers.
 *
 * FUZZ_SEED (default 23; "random" for a new one each run), FUZZ_RUNS (requests per operation, default
 * 500), FUZZ_BUDGET_MS (whole run, default 60 000; what is left is shared by the operations left, at least
 * 250 ms each, so the run ends within the budget plus 250 ms an operation), FUZZ_ONLY
 * (operations whose "METHOD /path" contains it), FUZZ_DETAIL=1 (answers counted by operation and status).
 */

const seedSetting = process.env.FUZZ_SEED ?? '23';
const SEED = seedSetting === 'random' ? Date.now() % 2 ** 31 : Number(seedSetting);
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 60_000);
/** Every operation gets at least this much, even once the budget is spent. */
const MIN_SHARE_MS = 250;
const ONLY = process.env.FUZZ_ONLY;
const REQUEST_TIMEOUT_MS = 10_000;
const METHODS = ['post', 'get', 'put', 'patch', 'delete'];

let server: TestServer;
let account: TestAccount;
let events: EventStore;

beforeAll(async () => {
  // A clock that stands still: no watchdog failure or other timed write while the run goes on.
  server = await startTestServer({ clock: new ManualClock('2026-06-01T12:00:00.000Z'), env: { VIGIL_RATE_LIMIT_PER_MINUTE: '10000000' } });
  account = await server.account();
  events = server.app.get(EVENT_STORE);
});
afterAll(() => server.close());

/** Creating operations first (they fill the id pool), deleting ones last. */
function operationsOf(doc: OpenApiDoc): Operation[] {
  const rank = (o: Operation) => (o.method === 'post' && !o.template.includes('{') ? 0 : o.method === 'delete' ? 2 : 1);
  return Object.entries(doc.paths)
    .flatMap(([template, item]) => METHODS.filter((method) => item[method]).map((method) => ({ method, template, op: item[method] })))
    .filter((o) => !ONLY || `${o.method.toUpperCase()} ${o.template}`.includes(ONLY))
    .sort((a, b) => rank(a) - rank(b));
}

function requestFor(doc: OpenApiDoc, { method, template, op }: Operation, pool: IdPool): fc.Arbitrary<FuzzRequest> {
  const parameters: Record<string, any>[] = op.parameters ?? [];
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const secured = Array.isArray(op.security) && op.security.length > 0;
  const content: Record<string, any> | undefined = op.requestBody?.content;
  const body = content
    ? content['application/json']
      ? jsonBody(doc, content['application/json'].schema ?? {}, pool)
      : fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 200 }) }, { weight: 1, arbitrary: fc.constant('x'.repeat(150 * 1024)) }).map((text) => ({ text, type: 'text/plain' }))
    : sometimes(fc.constantFrom({ text: '{"a":1}', type: 'application/json' }, { text: 'hi', type: 'text/plain' }), 8);
  return fc
    .record({
      params: fc.tuple(...names.map((name) => pathValue(pool, name))),
      query: queryString(doc, parameters, pool),
      headers: headers(parameters, account.key, account.id, secured),
      body,
    })
    .map(({ params, query, headers: given, body: sent }) => {
      let path = template;
      names.forEach((name, i) => (path = path.replace(`{${name}}`, params[i])));
      const all = { ...given, ...(sent ? { 'content-type': sent.type } : {}) };
      return { method: method.toUpperCase(), path: path + query, headers: all, body: sent?.text };
    });
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 300)} headers=${JSON.stringify(r.headers).slice(0, 300)} body=${(r.body ?? '').slice(0, 300)}`;

/**
 * The path parameter that names what an answer holds: an item route's own (`…/{serviceId}`), or for a
 * list or create route the parameter of the item route below it (POST /v1/status-pages/services →
 * serviceId). Null when nothing addresses it.
 */
function kindOf(template: string, templates: string[]): string | null {
  const own = /\{(\w+)\}$/.exec(template);
  if (own) return own[1];
  for (const other of templates) {
    const below = new RegExp(`^${template.replace(/[{}]/g, '\\$&')}/\\{(\\w+)\\}$`).exec(other);
    if (below) return below[1];
  }
  return null;
}

/** Every `id` in an answer goes to its kind, every `pingToken` to pingToken. */
function collectIds(value: unknown, kind: string | null, pool: IdPool, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'pingToken' && typeof child === 'string') pool.add('pingToken', child);
    else if (key === 'id' && typeof child === 'string') pool.add(depth <= 2 && kind ? kind : 'other', child);
    else collectIds(child, kind, pool, depth + 1);
  }
}

/** Whether the operation documents this status with a JSON body (HTML pages and plain text are not errors in our shape). */
function jsonDocumented(op: Record<string, any>, status: number): boolean {
  const response = op.responses?.[status] ?? op.responses?.default;
  return !response?.content || 'application/json' in response.content;
}

/** Answers by status class, for the closing line (how much got past validation). */
const answered: Record<string, number> = {};

async function check(op: Operation, kind: string | null, request: FuzzRequest, pool: IdPool): Promise<void> {
  const before = await events.headPosition();
  let response: RawResponse;
  try {
    response = await rawRequest(server.url, { ...request, timeoutMs: REQUEST_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`no answer (${String(error)}): ${describeRequest(request)}`);
  }
  // FUZZ_DETAIL=1: counts by operation, status and (for a 400) the first path, to see what gets through.
  const detail = response.status === 400 ? ` ${response.json?.details?.[0]?.path ?? response.json?.message}` : '';
  const statusClass = process.env.FUZZ_DETAIL ? `${op.method.toUpperCase()} ${op.template} ${response.status}${detail}` : `${String(response.status)[0]}xx`;
  answered[statusClass] = (answered[statusClass] ?? 0) + 1;
  const where = `${response.status} for ${describeRequest(request)}\n  answer: ${response.text.slice(0, 300)}`;
  if (response.status >= 500) throw new Error(`server error ${where}`);
  if (response.status >= 200 && response.status < 300) return collectIds(response.json, kind, pool);
  if (response.status < 400) return;
  if (jsonDocumented(op.op, response.status)) {
    const body = response.json;
    const shaped = body && body.statusCode === response.status && typeof body.error === 'string' && typeof body.message === 'string';
    if (!shaped) throw new Error(`not the error shape: ${where}`);
    if (body.details !== undefined && !(Array.isArray(body.details) && body.details.every((d: any) => typeof d.path === 'string' && typeof d.message === 'string'))) {
      throw new Error(`bad details: ${where}`);
    }
  }
  if (!response.headers['x-request-id']) throw new Error(`no x-request-id: ${where}`);
  // Events carry the request id they were written under: any from this request is a half-done write.
  // (Attributing by id keeps background writers, should a processor append meanwhile, out of it.)
  if ((await events.headPosition()) === before) return;
  const appended = await events.readAll(before === null ? {} : { after: before });
  const ours = appended.filter((event) => event.metadata.requestId === response.headers['x-request-id']);
  if (ours.length > 0) throw new Error(`a rejected request wrote ${ours.map((event) => event.type).join(', ')}: ${where}`);
}

describe('fuzzing every route of the OpenAPI document', () => {
  it(
    `never a 5xx, a hang, a malformed error or a write by a rejected request (seed ${SEED})`,
    async () => {
      const doc = (await server.http.get('/openapi.json')).body as OpenApiDoc;
      const operations = operationsOf(doc);
      expect(operations.length).toBeGreaterThan(ONLY ? 0 : 20);
      const pool = new IdPool();
      pool.add('accountId', account.id);
      const templates = Object.keys(doc.paths);
      const started = Date.now();
      let sent = 0;
      for (const [index, operation] of operations.entries()) {
        const name = `${operation.method.toUpperCase()} ${operation.template}`;
        // What is left is shared by the operations left; each gets a floor, so a slow machine still covers them all.
        const left = BUDGET_MS - (Date.now() - started);
        const share = Math.max(MIN_SHARE_MS, Math.floor(left / (operations.length - index)));
        const property = fc.asyncProperty(requestFor(doc, operation, pool), async (request) => {
          sent++;
          await check(operation, kindOf(operation.template, templates), request, pool);
        });
        let result = await fc.check(property, { seed: SEED + index, numRuns: RUNS, endOnFailure: true, interruptAfterTimeLimit: share, markInterruptAsFailure: false });
        // fast-check counts a run its time limit interrupted before one case passed as failed: on a slow machine, give it one case.
        if (result.failed && result.interrupted && result.numRuns === 0) result = await fc.check(property, { seed: SEED + index, numRuns: 1, endOnFailure: true });
        if (result.failed) {
          const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
          throw new Error(`${name} failed after ${result.numRuns} runs.\n${cause}\nReproduce: FUZZ_SEED=${SEED} npx jest test/e2e/fuzz-routes.e2e.ts (operation seed ${SEED + index}, path ${result.counterexamplePath})`);
        }
        const health = await rawRequest(server.url, { method: 'GET', path: '/healthz', timeoutMs: REQUEST_TIMEOUT_MS });
        if (health.status !== 200) throw new Error(`the server stopped answering /healthz after ${name}`);
      }
      // One line for the log: how much was covered.
      process.stdout.write(`fuzz: seed ${SEED}, ${operations.length} operations, ${sent} requests in ${Date.now() - started} ms, answers ${JSON.stringify(answered)}\n`);
    },
    BUDGET_MS + 120_000,
  );
});
